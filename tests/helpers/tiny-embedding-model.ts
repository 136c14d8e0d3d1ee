// Writes a tiny random-weight model with the layout of nomic-ai/nomic-embed-text-v1.5 (config.json with
// model_type nomic_bert, a BERT WordPiece tokenizer.json, onnx/model.onnx) so the nomic provider's loading,
// pooling and prefix code run for real through transformers.js + onnxruntime in tests, with no download.
// The graph is last_hidden_state = tanh(E[input_ids] + T[token_type_ids]); `expectedEmbedding` computes the
// same thing by hand so tests can check pooling, normalisation and prefixes independently.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { onnx } from "onnx-proto";
import { seededRandom } from "./seeded-random.ts";

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

function tensor(name: string, dims: number[], values: Float32Array): onnx.ITensorProto {
  return { name, dims, dataType: onnx.TensorProto.DataType.FLOAT, rawData: new Uint8Array(values.buffer.slice(0)) };
}

function valueInfo(name: string, elemType: number, dims: Array<string | number>): onnx.IValueInfoProto {
  const dim = dims.map((d) => (typeof d === "string" ? { dimParam: d } : { dimValue: d }));
  return { name, type: { tensorType: { elemType, shape: { dim } } } };
}

function buildOnnx(vocabSize: number, dimensions: number, embeddings: Float32Array, tokenTypes: Float32Array) {
  const INT64 = onnx.TensorProto.DataType.INT64;
  const FLOAT = onnx.TensorProto.DataType.FLOAT;
  const graph: onnx.IGraphProto = {
    name: "tiny_nomic_bert",
    initializer: [
      tensor("word_embeddings", [vocabSize, dimensions], embeddings),
      tensor("token_type_embeddings", [2, dimensions], tokenTypes),
    ],
    node: [
      { opType: "Gather", input: ["word_embeddings", "input_ids"], output: ["words"], attribute: [] },
      { opType: "Gather", input: ["token_type_embeddings", "token_type_ids"], output: ["types"], attribute: [] },
      { opType: "Add", input: ["words", "types"], output: ["summed"] },
      { opType: "Tanh", input: ["summed"], output: ["last_hidden_state"] },
    ],
    input: [
      valueInfo("input_ids", INT64, ["batch", "sequence"]),
      valueInfo("token_type_ids", INT64, ["batch", "sequence"]),
      valueInfo("attention_mask", INT64, ["batch", "sequence"]),
    ],
    output: [valueInfo("last_hidden_state", FLOAT, ["batch", "sequence", dimensions])],
  };
  const model: onnx.IModelProto = { irVersion: 8, opsetImport: [{ domain: "", version: 13 }], graph };
  return onnx.ModelProto.encode(onnx.ModelProto.create(model)).finish();
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
