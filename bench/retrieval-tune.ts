// The lab path of the retrieval benchmark: `node bench/retrieval-tune.ts '<json>' ['<json>' …]` ranks every query of
// LoCoMo (global) and the coding split (global and one person's history) in-process with the shipped search settings
// overridden by each JSON in turn (top-level fields replace, `weights` and `boosts` merge into the shipped ones:
// '{"weights":{"feedbackSimilarity":0.5}}'; '{}' is the shipped defaults), on indexes built once for the whole run.
// Prints one JSON document: per override, the figures per split (and with --ranks, each query's first relevant rank).
import { defaultConfig } from "../src/config/defaults.ts";
import type { Config } from "../src/config/schema.ts";
import { evaluateSplits, indexSizes, prepareSplits } from "./retrieval-splits.ts";

type SearchOverride = Partial<Omit<Config["search"], "weights" | "boosts">> & {
  weights?: Partial<Config["search"]["weights"]>;
  boosts?: Partial<Config["search"]["boosts"]>;
};

/** The shipped search settings with an override applied. */
export function searchWith(override: SearchOverride): Config["search"] {
  const shipped = defaultConfig().search;
  return {
    ...shipped,
    ...override,
    weights: { ...shipped.weights, ...override.weights },
    boosts: { ...shipped.boosts, ...override.boosts },
  };
}

function parseOverride(text: string): SearchOverride {
  const parsed: unknown = JSON.parse(text);
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new Error(`not a JSON object of search settings: ${text}`);
  }
  return parsed as SearchOverride;
}

async function main(argv: readonly string[]): Promise<void> {
  const withRanks = argv.includes("--ranks");
  const overrides = argv.filter((arg) => arg !== "--ranks").map(parseOverride);
  if (overrides.length === 0) overrides.push({});
  const started = performance.now();
  const splits = await prepareSplits();
  try {
    const prepared = performance.now();
    const runs = [];
    for (const override of overrides) {
      const { ranks, ...figures } = await evaluateSplits(searchWith(override), { splits });
      runs.push({ override, ...figures, ...(withRanks ? { ranks } : {}) });
    }
    const out = {
      indexes: indexSizes(splits.homes),
      buildMs: splits.buildMs,
      prepareSeconds: Math.round((prepared - started) / 100) / 10,
      evaluateSeconds: Math.round((performance.now() - prepared) / 100) / 10,
      runs,
    };
    process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
  } finally {
    splits.dispose();
  }
}

if (import.meta.main) await main(process.argv.slice(2));
