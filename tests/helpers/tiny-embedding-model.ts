// Writes a tiny random-weight model with the layout of nomic-ai/nomic-embed-text-v1.5 (config.json with
// model_type nomic_bert, a BERT WordPiece tokenizer.json, onnx/model.onnx) so the nomic provider's loading,
// pooling and prefix code run for real through transformers.js + onnxruntime in tests, with no download.
// The graph is last_hidden_state = tanh(E[input_ids] + T[token_type_ids]); `expectedEmbedding` computes the
// same thing by hand so tests can check pooling, normalisation and prefixes independently.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import protobuf from "protobufjs/minimal.js";
import { seededRandom } from "./seeded-random.ts";

const { Writer } = protobuf;
type Writer = protobuf.Writer;

const SPECIAL = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"];
const WORDS = ["search", "query", "document", "sqlite", "index", "fork", "session", "bug", "fix", "the"];
const LETTERS = "abcdefghijklmnopqrstuvwxyz0123456789".split("");
const PUNCTUATION = ["_", ":", ".", ",", "-", "/", "(", ")", "?", "!", "'"];

export interface TinyModel {
  dir: string;
  dimensions: number;
  vocab: Map<string, number>;
  /** The embedding matrix E, row-major [vocab, dimensions]. */
  embeddings: Float32Array;
  /** The token-type matrix T, [2, dimensions]. */
  tokenTypes: Float32Array;
}

function buildVocab(): Map<string, number> {
  const tokens = [...SPECIAL, ...WORDS, ...LETTERS, ...LETTERS.map((c) => `##${c}`), ...PUNCTUATION];
  return new Map(tokens.map((token, id) => [token, id]));
}

// The model file is protobuf (onnx.proto, ONNX IR 8). protobufjs's Writer encodes it; the field numbers are onnx.proto's.
const FLOAT = 1;
const INT64 = 7;
const VARINT = 0;
const BYTES = 2;

type Fields = (writer: Writer) => void;
const key = (writer: Writer, field: number, wire: number) => writer.uint32((field << 3) | wire);
const text = (writer: Writer, field: number, value: string) => key(writer, field, BYTES).string(value);
const int = (writer: Writer, field: number, value: number) => key(writer, field, VARINT).int64(value);
function message(writer: Writer, field: number, fields: Fields): void {
  key(writer, field, BYTES).fork();
  fields(writer);
  writer.ldelim();
}

/** TensorProto: dims 1, data_type 2, name 8, raw_data 9. */
function tensor(writer: Writer, field: number, name: string, dims: number[], values: Float32Array): void {
  message(writer, field, (w) => {
    for (const dim of dims) int(w, 1, dim);
    int(w, 2, FLOAT);
    text(w, 8, name);
    key(w, 9, BYTES).bytes(new Uint8Array(values.buffer.slice(0)));
  });
}

/** ValueInfoProto: name 1, type 2 > TypeProto.tensor_type 1 > elem_type 1, shape 2 > dim 1 > dim_value 1 | dim_param 2. */
function valueInfo(writer: Writer, field: number, name: string, elemType: number, dims: Array<string | number>): void {
  message(writer, field, (w) => {
    text(w, 1, name);
    message(w, 2, (type) =>
      message(type, 1, (tensorType) => {
        int(tensorType, 1, elemType);
        message(tensorType, 2, (shape) => {
          for (const dim of dims) {
            message(shape, 1, (d) => (typeof dim === "string" ? text(d, 2, dim) : int(d, 1, dim)));
          }
        });
      }),
    );
  });
}

/** NodeProto: input 1, output 2, op_type 4. */
function node(writer: Writer, field: number, opType: string, inputs: string[], output: string): void {
  message(writer, field, (w) => {
    for (const input of inputs) text(w, 1, input);
    text(w, 2, output);
    text(w, 4, opType);
  });
}

function buildOnnx(vocabSize: number, dimensions: number, embeddings: Float32Array, tokenTypes: Float32Array) {
  const writer = Writer.create();
  // ModelProto: ir_version 1, graph 7, opset_import 8 (OperatorSetIdProto: domain 1, version 2).
  int(writer, 1, 8);
  // GraphProto: node 1, name 2, initializer 5, input 11, output 12.
  message(writer, 7, (graph) => {
    node(graph, 1, "Gather", ["word_embeddings", "input_ids"], "words");
    node(graph, 1, "Gather", ["token_type_embeddings", "token_type_ids"], "types");
    node(graph, 1, "Add", ["words", "types"], "summed");
    node(graph, 1, "Tanh", ["summed"], "last_hidden_state");
    text(graph, 2, "tiny_nomic_bert");
    tensor(graph, 5, "word_embeddings", [vocabSize, dimensions], embeddings);
    tensor(graph, 5, "token_type_embeddings", [2, dimensions], tokenTypes);
    for (const input of ["input_ids", "token_type_ids", "attention_mask"]) {
      valueInfo(graph, 11, input, INT64, ["batch", "sequence"]);
    }
    valueInfo(graph, 12, "last_hidden_state", FLOAT, ["batch", "sequence", dimensions]);
  });
  message(writer, 8, (opset) => {
    text(opset, 1, "");
    int(opset, 2, 13);
  });
  return writer.finish();
}

function tokenizerJson(vocab: Map<string, number>) {
  const id = (token: string) => vocab.get(token) as number;
  const special = (token: string) => ({ SpecialToken: { id: token, type_id: 0 } });
  return {
    version: "1.0",
    truncation: null,
    padding: null,
    added_tokens: SPECIAL.map((content) => ({
      id: id(content),
      content,
      single_word: false,
      lstrip: false,
      rstrip: false,
      normalized: false,
      special: true,
    })),
    normalizer: {
      type: "BertNormalizer",
      clean_text: true,
      handle_chinese_chars: true,
      strip_accents: null,
      lowercase: true,
    },
    pre_tokenizer: { type: "BertPreTokenizer" },
    post_processor: {
      type: "TemplateProcessing",
      single: [special("[CLS]"), { Sequence: { id: "A", type_id: 0 } }, special("[SEP]")],
      pair: [
        special("[CLS]"),
        { Sequence: { id: "A", type_id: 0 } },
        special("[SEP]"),
        { Sequence: { id: "B", type_id: 1 } },
        { SpecialToken: { id: "[SEP]", type_id: 1 } },
      ],
      special_tokens: Object.fromEntries(
        ["[CLS]", "[SEP]"].map((token) => [token, { id: token, ids: [id(token)], tokens: [token] }]),
      ),
    },
    decoder: { type: "WordPiece", prefix: "##", cleanup: true },
    model: {
      type: "WordPiece",
      unk_token: "[UNK]",
      continuing_subword_prefix: "##",
      max_input_chars_per_word: 100,
      vocab: Object.fromEntries(vocab),
    },
  };
}

/** Writes the model into `<root>/<modelId>/` (the Hugging Face repo layout) and returns its weights. */
export function writeTinyEmbeddingModel(
  root: string,
  modelId: string,
  options: { dimensions?: number; seed?: number } = {},
): TinyModel {
  const dimensions = options.dimensions ?? 16;
  const random = seededRandom(options.seed ?? 42);
  const vocab = buildVocab();
  const embeddings = Float32Array.from({ length: vocab.size * dimensions }, () => random() * 2 - 1);
  const tokenTypes = Float32Array.from({ length: 2 * dimensions }, () => (random() * 2 - 1) * 0.1);
  const dir = join(root, modelId);
  mkdirSync(join(dir, "onnx"), { recursive: true });
  const config = {
    model_type: "nomic_bert",
    architectures: ["NomicBertModel"],
    n_embd: dimensions,
    n_head: 1,
    n_layer: 1,
    n_positions: 512,
    vocab_size: vocab.size,
    type_vocab_size: 2,
  };
  writeFileSync(join(dir, "config.json"), JSON.stringify(config, null, 2));
  writeFileSync(join(dir, "tokenizer.json"), JSON.stringify(tokenizerJson(vocab)));
  const tokenizerConfig = {
    tokenizer_class: "BertTokenizer",
    do_lower_case: true,
    model_max_length: 512,
    cls_token: "[CLS]",
    sep_token: "[SEP]",
    pad_token: "[PAD]",
    unk_token: "[UNK]",
    mask_token: "[MASK]",
  };
  writeFileSync(join(dir, "tokenizer_config.json"), JSON.stringify(tokenizerConfig, null, 2));
  writeFileSync(join(dir, "onnx", "model.onnx"), buildOnnx(vocab.size, dimensions, embeddings, tokenTypes));
  return { dir, dimensions, vocab, embeddings, tokenTypes };
}

/**
 * The embedding the tiny model must produce for `text` (mean of tanh(E[id] + T[0]) over [CLS] tokens [SEP],
 * L2-normalised), computed by hand. `text` must be lower-case words of the vocabulary separated by spaces or
 * single punctuation marks (the test's own inputs).
 */
export function expectedEmbedding(model: TinyModel, text: string): Float32Array {
  const pieces = text.toLowerCase().match(/[a-z0-9]+|[^\sa-z0-9]/g) ?? [];
  const ids = [model.vocab.get("[CLS]") as number];
  for (const piece of pieces) {
    const whole = model.vocab.get(piece);
    if (whole !== undefined) {
      ids.push(whole);
      continue;
    }
    for (const [i, char] of [...piece].entries()) ids.push(model.vocab.get(i === 0 ? char : `##${char}`) as number);
  }
  ids.push(model.vocab.get("[SEP]") as number);
  const d = model.dimensions;
  const sum = new Float64Array(d);
  for (const id of ids) {
    for (let k = 0; k < d; k++)
      sum[k] =
        (sum[k] as number) + Math.tanh((model.embeddings[id * d + k] as number) + (model.tokenTypes[k] as number));
  }
  const mean = sum.map((value) => value / ids.length);
  const norm = Math.hypot(...mean);
  return Float32Array.from(mean, (value) => value / norm);
}
