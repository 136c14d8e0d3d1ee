// The default of every setting, the one place they are written: plain data, so a process with no config file and
// no CTX_* variable never builds the zod schema (./schema.ts holds each setting's type, checks and trust). A config
// is checked whole: its layers merged over these first (./load.ts). A test checks the schema passes them.
import { mergeLayers } from "./merge.ts";
import type { Config } from "./schema.ts";

const DEFAULT_CONFIG: Config = {
  checkpoints: { intervalMessages: 20, keep: 10 },
  retention: {
    maxSnapshots: 5,
    maxAgeDays: 30,
    maxTotalMegabytes: 500,
    archiveSnapshots: true,
    maxTranscriptMegabytes: 64,
  },
  hooks: { blockCompactionOnSaveFailure: true, autoRestore: true, handlerTimeoutMs: 5_000, maxInjectChars: 9_500 },
  guard: {
    enabled: true,
    windowTokens: 0,
    autoCompactBufferTokens: 33_000,
    warningPercent: 30,
    advisoryPercent: 15,
    yellowPercent: 7,
    criticalPercent: 3,
    velocityPercentPerOperation: 5,
    velocitySamples: 3,
    dynamicWindow: 10,
    floorPercent: 3,
  },
  budget: {
    caps: {
      active_task: 4_000,
      project_background: 3_000,
      operator_preferences: 1_500,
      safety_constraints: 1_500,
      ambient_knowledge: 2_000,
    },
    injectMaxTokens: 1_000,
  },
  search: {
    weights: {
      bestSimilarity: 1,
      passageSimilarity: 1,
      averageSimilarity: 0,
      chunkRatio: 0,
      promptSimilarity: 0.4,
      feedbackSimilarity: 0.3,
      namedDate: 0.5,
      recency: 0.7,
      chainQuality: 0.3,
    },
    recencyDecayDays: 30,
    tieMargin: 0.05,
    boosts: { PATTERN: 1.05, WORKING_SOLUTION: 1.08, WAITING: 1.02 },
    minSimilarity: 0.25,
    scope: "local",
  },
  embedder: {
    provider: "none",
    model: "",
    ollamaUrl: "http://127.0.0.1:11434",
    modelDir: "",
    allowDownload: false,
    batchSize: 16,
    timeoutMs: 60_000,
  },
  index: { watch: true, quietMs: 5_000, syncOnStart: true },
  summaries: {
    provider: "extractive",
    model: "claude-haiku-4-5",
    dailyTokenCap: 200_000,
    timeoutMs: 120_000,
    recentMessages: 20,
    middleMessages: 80,
    budgetTokens: 24_000,
    aggregateTokens: 2_000,
  },
  redaction: { allowlist: [] },
  rules: { reinject: true, overlapThreshold: 0.6 },
  memory: { directory: "", maxIndexLines: 200, maxIndexBytes: 25_000 },
  breadcrumb: { enabled: false, vault: "", heading: "## Claude Code sessions" },
  archive: { enabled: true, daysBeforeCleanup: 7, maxMegabytes: 0, maxAgeDays: 365, maxTranscriptMegabytes: 512 },
  bridge: {
    host: "127.0.0.1",
    port: 8787,
    synology: { token: "", incomingUrl: "", mode: "webhook" },
    idleMinutes: 30,
    concurrency: 2,
    maxInputBytes: 1_048_576,
    inputChunkChars: 15_000,
    outputChunkChars: 3_500,
    softLimitTokens: 120_000,
    hardLimitTokens: 180_000,
    windowTokens: 200_000,
    paceMs: 500,
    postRetries: 4,
    retryBaseMs: 1_000,
    retryMaxMs: 300_000,
    deliveryHours: 24,
    postTimeoutMs: 15_000,
    stopGraceMs: 10_000,
    workingNoticeSeconds: 20,
    claude: { command: "claude", args: [], workdir: "", timeoutMs: 600_000 },
  },
  team: {
    url: "",
    name: "",
    connectTimeoutMs: 2_000,
    lockTimeoutMs: 5_000,
    statementTimeoutMs: 120_000,
    maxTranscriptMegabytes: 20,
  },
  trust: { projectConfigs: {} },
};

/** A fresh copy of the defaults (callers may change theirs). */
export function defaultConfig(): Config {
  return structuredClone(DEFAULT_CONFIG);
}

/** Settings (a file's, or layers merged) over the defaults: a whole config for the schema to check. */
export function withDefaults(settings: Record<string, unknown>): Record<string, unknown> {
  return mergeLayers([
    { source: "default", value: defaultConfig() },
    { source: "settings", value: settings },
  ]);
}
