// nomic-embed-text-v1.5 run locally through transformers.js (onnxruntime-node), installed on request
// (`ctx embed --setup`, ./transformers-package.ts) and imported only when vectors are needed. The model comes from a local folder in the Hugging Face repo
// layout (`<modelDir>/nomic-ai/nomic-embed-text-v1.5/{config.json,tokenizer.json,onnx/model*.onnx}`);
// the Hub is contacted only when the user sets embedder.allowDownload (no network by default).
import { existsSync, readFileSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { normalizeL2 } from "../../core/search/vector-math.ts";
import { CtxError, describeError } from "../../errors.ts";
import { batchesOf, DOCUMENT_PREFIX, type Embedder, QUERY_PREFIX } from "./types.ts";

export const DEFAULT_NOMIC_MODEL = "nomic-ai/nomic-embed-text-v1.5";
const TRANSFORMERS_PACKAGE = "@huggingface/transformers";

/** The slice of transformers.js this provider uses (the package is optional, so its types are too). */
interface FeatureTensor {
  dims: number[];
  data: Float32Array;
}
type FeatureExtractor = (texts: string[], options: { pooling: "mean"; normalize: boolean }) => Promise<FeatureTensor>;
interface TransformersModule {
  env: { allowRemoteModels: boolean; allowLocalModels: boolean; localModelPath: string; cacheDir: string | null };
  pipeline(task: "feature-extraction", model: string, options: { dtype: string }): Promise<FeatureExtractor>;
}

export interface NomicOptions {
  /** Hugging Face repo id under modelDir, or an absolute folder. */
  model: string;
  modelDir: string;
  allowDownload: boolean;
  batchSize: number;
  /** Test seam: how the optional package is imported. */
  importTransformers?: () => Promise<unknown>;
}

/** The model folder and the ONNX variant to load, checked on disk before anything heavy is imported. */
function locateModel(options: NomicOptions): { folder: string; dtype: string; dimensions: number } {
  const folder = isAbsolute(options.model) ? options.model : join(options.modelDir, options.model);
  const hint =
    `put the files of the Hugging Face repo ${DEFAULT_NOMIC_MODEL} (config.json, tokenizer.json, tokenizer_config.json, ` +
    `onnx/model_quantized.onnx or onnx/model.onnx) in ${folder}, or set embedder.allowDownload to true to fetch them once`;
  const configPath = join(folder, "config.json");
  if (!existsSync(configPath)) {
    if (options.allowDownload) return { folder, dtype: "q8", dimensions: 0 };
    throw new CtxError("EMBEDDER_UNAVAILABLE", `no embedding model at ${folder}`, { hint });
  }
  // Quantized int8 runs ~2x faster on CPU for nearly the same ranking; prefer it when both are present.
  let dtype = "q8";
  if (!existsSync(join(folder, "onnx", "model_quantized.onnx"))) {
    if (existsSync(join(folder, "onnx", "model.onnx"))) dtype = "fp32";
    else if (!options.allowDownload) {
      throw new CtxError("EMBEDDER_UNAVAILABLE", `no onnx/model_quantized.onnx or onnx/model.onnx in ${folder}`, {
        hint,
      });
    }
  }
  return { folder, dtype, dimensions: readDimensions(configPath) };
}

function readDimensions(configPath: string): number {
  try {
    const config = JSON.parse(readFileSync(configPath, "utf8")) as Record<string, unknown>;
    const value = config.n_embd ?? config.hidden_size ?? config.d_model;
    return typeof value === "number" && Number.isInteger(value) && value > 0 ? value : 0;
  } catch (error) {
    throw new CtxError("EMBEDDER_UNAVAILABLE", `cannot read ${configPath}: ${describeError(error)}`, {
      hint: "the model folder is damaged: copy config.json again from the model's repository",
      cause: error,
    });
  }
}

async function importTransformers(load: () => Promise<unknown>): Promise<TransformersModule> {
  try {
    return (await load()) as TransformersModule;
  } catch (error) {
    throw new CtxError(
      "EMBEDDER_UNAVAILABLE",
      `the nomic embedder's package ${TRANSFORMERS_PACKAGE} is not installed`,
      {
        hint:
          "run `ctx embed --setup` (installs it, about 470 MB, into ~/.ctx/embedder with npm), " +
          "or set embedder.provider to ollama or none",
        cause: error,
      },
    );
  }
}

export function createNomicEmbedder(options: NomicOptions): Embedder {
  const located = locateModel(options);
  let dimensions = located.dimensions;
  let extractor: Promise<FeatureExtractor> | undefined;
  // One batch at a time: onnxruntime already uses every core for one run.
  let queue: Promise<unknown> = Promise.resolve();

  const load = async (): Promise<FeatureExtractor> => {
    const transformers = await importTransformers(
      options.importTransformers ?? (() => import(/* @vite-ignore */ TRANSFORMERS_PACKAGE)),
    );
    const { env } = transformers;
    env.allowLocalModels = true;
    env.allowRemoteModels = options.allowDownload;
    env.localModelPath = options.modelDir;
    // Downloads (when allowed) land in the same layout the local lookup reads, so they happen once.
    env.cacheDir = options.modelDir;
    try {
      return await transformers.pipeline("feature-extraction", options.model, { dtype: located.dtype });
    } catch (error) {
      throw new CtxError(
        "EMBEDDER_UNAVAILABLE",
        `cannot load the model in ${located.folder}: ${describeError(error)}`,
        {
          hint: options.allowDownload
            ? "check the network and the model name (embedder.model)"
            : "check the model files, or set embedder.allowDownload to true to fetch them once",
          cause: error,
        },
      );
    }
  };

  const embedBatch = async (texts: string[]): Promise<Float32Array[]> => {
    extractor ??= load();
    const run = await extractor;
    const output = await run(texts, { pooling: "mean", normalize: false });
    const width = output.dims[output.dims.length - 1] ?? 0;
    if (output.dims.length !== 2 || output.dims[0] !== texts.length || width === 0) {
      throw new CtxError(
        "EMBEDDER_FAILED",
        `the model returned shape [${output.dims.join(", ")}] for ${texts.length} texts`,
      );
    }
    dimensions = width;
    return texts.map((_, row) => {
      const vector = normalizeL2(output.data.subarray(row * width, (row + 1) * width));
      if (vector === null) throw new CtxError("EMBEDDER_FAILED", "the model returned a zero or non-finite vector");
      return vector;
    });
  };

  const embed = (prefix: string, texts: string[]): Promise<Float32Array[]> => {
    const work = queue.then(async () => {
      const vectors: Float32Array[] = [];
      for (const batch of batchesOf(texts, options.batchSize)) {
        vectors.push(...(await embedBatch(batch.map((text) => `${prefix}${text}`))));
      }
      return vectors;
    });
    queue = work.catch(() => {});
    return work;
  };

  return {
    id: `nomic:${options.model}`,
    model: options.model,
    get dimensions() {
      return dimensions;
    },
    embedQueries: (texts) => embed(QUERY_PREFIX, texts),
    embedDocuments: (texts) => embed(DOCUMENT_PREFIX, texts),
  };
}
