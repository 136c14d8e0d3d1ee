// Every setting the product documents name, with its default. zod/mini, built on first use: hook
// processes load this module, and building ~150 zod objects costs milliseconds of the hook budget
// (DESIGN.md); with no config file and no CTX_* variable, loading never builds it (see ./defaults.ts).
import * as z from "zod/mini";

const positiveInt = () => z.int().check(z.positive());
const nonNegativeInt = () => z.int().check(z.nonnegative());
const percent = () => z.number().check(z.gte(0), z.lte(100));
const weight = () => z.number().check(z.gte(0), z.lte(1));
/** A nested section: `prefault` runs the section's own defaults when the section is absent. */
const section = <T extends z.ZodMiniObject>(shape: T) => z.prefault(shape, {} as z.input<T>);

function buildConfigSchema() {
  const CheckpointConfigSchema = z.strictObject({
    /** Take a rolling checkpoint every N transcript messages (PostToolUse / Stop). */
    intervalMessages: z._default(positiveInt(), 20),
    /** How many rolling checkpoints to keep. */
    keep: z._default(positiveInt(), 10),
  });

  const RetentionConfigSchema = z.strictObject({
    maxSnapshots: z._default(positiveInt(), 5),
    maxAgeDays: z._default(positiveInt(), 30),
    /** All snapshots of one project together; pinned snapshots are never pruned. */
    maxTotalMegabytes: z._default(positiveInt(), 500),
    /** Recompress each compaction snapshot to zstd-19 (~60% smaller) in a detached background process. */
    archiveSnapshots: z._default(z.boolean(), true),
    /** A transcript larger than this is not copied into a snapshot (the state alone is kept, and said so). */
    maxTranscriptMegabytes: z._default(positiveInt(), 64),
  });

  const HooksConfigSchema = z.strictObject({
    /** Block a compaction (PreCompact exit 2) when the state could not be saved and verified. */
    blockCompactionOnSaveFailure: z._default(z.boolean(), true),
    /** On `startup`, inject a short "where you left off" from the last saved state. */
    autoRestore: z._default(z.boolean(), true),
    /** Hard limit for one hook handler; Claude Code's own timeouts are set by `ctx init`. */
    handlerTimeoutMs: z._default(positiveInt(), 5_000),
    /** Cap on re-injected context; Claude Code spills additionalContext over 10,000 characters to a file. */
    maxInjectChars: z._default(positiveInt().check(z.lte(10_000)), 9_500),
  });

  const GuardConfigSchema = z.strictObject({
    /** Run the context guard after every tool call (PostToolUse). */
    enabled: z._default(z.boolean(), true),
    /** Context window in tokens; 0 = infer from the model (1,000,000 for [1m] models, else 200,000). */
    windowTokens: z._default(nonNegativeInt(), 0),
    /** Auto-compaction fires this many tokens short of the window (Claude Code's buffer, about 33K). */
    autoCompactBufferTokens: z._default(nonNegativeInt(), 33_000),
    /**
     * Tier thresholds, in percent of the window REMAINING before auto-compaction fires:
     * (autoCompactAt - used) / window * 100. 30 = the tier starts when 30% of the window is left.
     */
    warningPercent: z._default(percent(), 30),
    advisoryPercent: z._default(percent(), 15),
    yellowPercent: z._default(percent(), 7),
    criticalPercent: z._default(percent(), 3),
    /** Escalate one tier early when the last measurements consumed more than this percent of the window per
     * operation (one operation = one tool call, i.e. one PostToolUse). */
    velocityPercentPerOperation: z._default(z.number().check(z.positive()), 5),
    /** Measurements used for velocity and for dynamic thresholds. */
    velocitySamples: z._default(positiveInt(), 3),
    dynamicWindow: z._default(positiveInt(), 10),
    /** Dynamic thresholds never go below this percent remaining. */
    floorPercent: z._default(percent(), 3),
  });

  const BudgetConfigSchema = z.strictObject({
    /** Token caps of the five compartments. */
    caps: section(
      z.strictObject({
        active_task: z._default(positiveInt(), 4_000),
        project_background: z._default(positiveInt(), 3_000),
        operator_preferences: z._default(positiveInt(), 1_500),
        safety_constraints: z._default(positiveInt(), 1_500),
        ambient_knowledge: z._default(positiveInt(), 2_000),
      }),
    ),
    /** Tokens of the assembled budget in the compact re-injection (0 = leave it out). */
    injectMaxTokens: z._default(nonNegativeInt(), 1_000),
  });

  const RulesConfigSchema = z.strictObject({
    /** Re-inject the CLAUDE.md rules marked (ENFORCED) or (CRITICAL) after each compaction. */
    reinject: z._default(z.boolean(), true),
    /** `ctx rules check`: share of a rule's content words the summary must hold to count as paraphrased. */
    overlapThreshold: z._default(weight(), 0.6),
  });

  const MemoryConfigSchema = z.strictObject({
    /** Auto-memory folder; empty = Claude Code's own (`<claude config>/projects/<repo>/memory`). */
    directory: z._default(z.string(), ""),
    /** Claude Code loads no more of MEMORY.md than this many lines and bytes. */
    maxIndexLines: z._default(positiveInt(), 200),
    maxIndexBytes: z._default(positiveInt(), 25_000),
  });

  const BreadcrumbConfigSchema = z.strictObject({
    /** At SessionEnd, append a line about the session to an Obsidian daily note. */
    enabled: z._default(z.boolean(), false),
    /** The vault folder (or a subfolder of it) holding the daily notes `<YYYY-MM-DD>.md`. */
    vault: z._default(z.string(), ""),
    heading: z._default(z.string(), "## Claude Code sessions"),
  });

  const SearchConfigSchema = z.strictObject({
    weights: section(
      z
        .strictObject({
          bestSimilarity: z._default(weight(), 1),
          passageSimilarity: z._default(weight(), 1),
          averageSimilarity: z._default(weight(), 0),
          chunkRatio: z._default(weight(), 0),
          /** The session's best chunk on the query's pseudo-relevance feedback terms (docs/search.md). */
          feedbackSimilarity: z._default(weight(), 1),
          /** Whether the session was active on a date the query names ("in March 2026"); only for such queries. */
          namedDate: z._default(weight(), 0.5),
          recency: z._default(weight(), 0.7),
          chainQuality: z._default(weight(), 0.3),
        })
        .check(
          z.refine(
            (w) => w.bestSimilarity + w.passageSimilarity + w.averageSimilarity + w.chunkRatio > 0,
            "bestSimilarity, passageSimilarity, averageSimilarity and chunkRatio cannot all be 0 (relevance needs one)",
          ),
        ),
    ),
    recencyDecayDays: z._default(z.number().check(z.positive()), 30),
    /** Recency and chain quality lift a session's score by at most this fraction: they only break near-ties. */
    tieMargin: z._default(weight(), 0.05),
    boosts: section(
      z.strictObject({
        PATTERN: z._default(z.number().check(z.positive()), 1.05),
        WORKING_SOLUTION: z._default(z.number().check(z.positive()), 1.08),
        WAITING: z._default(z.number().check(z.positive()), 1.02),
      }),
    ),
    /**
     * Sessions whose relevance (0..1, the percentage shown) is below this are listed under "weak matches", after
     * the strong ones. Relevance only: an old session that matches well is still a strong match.
     */
    minSimilarity: z._default(weight(), 0.25),
  });

  const EmbedderConfigSchema = z.strictObject({
    /** `none` = BM25 alone: offline, no download (the default). */
    provider: z._default(z.enum(["none", "nomic", "ollama"]), "none"),
    /** Empty = the provider's default: `nomic-ai/nomic-embed-text-v1.5` (nomic), `nomic-embed-text` (ollama). */
    model: z._default(z.string(), ""),
    ollamaUrl: z._default(z.string(), "http://127.0.0.1:11434"),
    /** Folder holding local model files (`<modelDir>/<model>/onnx/model.onnx`); empty = `<CTX_HOME>/models`. */
    modelDir: z._default(z.string(), ""),
    /** nomic: fetch a missing model from the Hugging Face Hub once (off by default: no network). */
    allowDownload: z._default(z.boolean(), false),
    /** Texts per embedding call. */
    batchSize: z._default(positiveInt().check(z.lte(256)), 16),
    /** ollama: give up on one request after this long. */
    timeoutMs: z._default(positiveInt(), 60_000),
  });

  const IndexConfigSchema = z.strictObject({
    /** `ctx serve` watches <claudeDir>/projects and re-indexes in the background. */
    watch: z._default(z.boolean(), true),
    /** Quiet period after the last transcript write before a background sync starts. */
    quietMs: z._default(positiveInt(), 5_000),
    /** Also sync once when the server starts (catches up with sessions written while it was not running). */
    syncOnStart: z._default(z.boolean(), true),
  });

  const SummariesConfigSchema = z.strictObject({
    provider: z._default(z.enum(["extractive", "claude-cli", "anthropic"]), "extractive"),
    model: z._default(z.string(), "claude-haiku-4-5"),
    dailyTokenCap: z._default(nonNegativeInt(), 200_000),
    /** One LLM request (a `claude -p` run or a Messages API call) may take this long. */
    timeoutMs: z._default(positiveInt(), 120_000),
    /** Assembly layers (Smart Context preset): newest messages verbatim, the ones before summarised each. */
    recentMessages: z._default(positiveInt(), 20),
    middleMessages: z._default(nonNegativeInt(), 80),
    /** The assembly's token budget, and the most the folded aggregate of older messages may take of it. */
    budgetTokens: z._default(positiveInt(), 24_000),
    aggregateTokens: z._default(nonNegativeInt(), 2_000),
  });

  const ArchiveConfigSchema = z.strictObject({
    /** Copy transcripts Claude Code's cleanup is about to delete into ~/.ctx/archive/ (ctx serve, SessionStart). */
    enabled: z._default(z.boolean(), true),
    /** Archive a transcript this many days before Claude Code's cleanupPeriodDays would delete it. */
    daysBeforeCleanup: z._default(nonNegativeInt(), 7),
    /** The archive's size cap; past it the oldest unpinned sessions are pruned. 0 = keep everything. */
    maxMegabytes: z._default(nonNegativeInt(), 0),
    /** Retention: an unpinned archived session is pruned this many days after its transcript's last write. 0 = keep forever. */
    maxAgeDays: z._default(nonNegativeInt(), 365),
    /** A transcript larger than this (MiB) is not archived; the pass logs it and counts it as skipped. 0 = no limit. */
    maxTranscriptMegabytes: z._default(nonNegativeInt(), 512),
  });

  const RedactionConfigSchema = z.strictObject({
    /** Exact strings that look like secrets but are not (e.g. a public test key); they pass through. */
    allowlist: z._default(z.array(z.string()), []),
  });

  const BridgeConfigSchema = z.strictObject({
    /** `ctx bridge synology` listens here; loopback unless you put it behind a proxy or open it on purpose. */
    host: z._default(z.string(), "127.0.0.1"),
    port: z._default(z.int().check(z.gte(1), z.lte(65_535)), 8787),
    synology: section(
      z.strictObject({
        /** The token of the outgoing webhook / chatbot (Synology Chat shows it); required to run the bridge. */
        token: z._default(z.string(), ""),
        /** The incoming webhook's (or bot's) full URL, token included; required to run the bridge. */
        incomingUrl: z._default(z.string(), ""),
        /** `chatbot` replies carry `user_ids` (a bot talks to one person); `webhook` posts to the channel. */
        mode: z._default(z.enum(["webhook", "chatbot"]), "webhook"),
      }),
    ),
    /** A conversation idle this long starts a new Claude session seeded with its summary. */
    idleMinutes: z._default(positiveInt(), 30),
    /** Conversations answered at the same time (each conversation's messages always run one at a time). */
    concurrency: z._default(positiveInt(), 2),
    /** A message over this many UTF-8 bytes is refused with a reply naming the limit. */
    maxInputBytes: z._default(positiveInt(), 1_048_576),
    /** A message longer than this (characters) goes to Claude as consecutive parts of one session. */
    inputChunkChars: z._default(positiveInt().check(z.gte(1_000)), 15_000),
    /** Longest chat message posted, `[i/N] ` prefix included. */
    outputChunkChars: z._default(positiveInt().check(z.gte(200)), 3_500),
    /** Past this real context size, summarise and continue in a new Claude session. */
    softLimitTokens: z._default(positiveInt(), 120_000),
    /** No turn starts past this (a long message's parts roll over to a new session first). */
    hardLimitTokens: z._default(positiveInt(), 180_000),
    /** The context window /status measures against. */
    windowTokens: z._default(positiveInt(), 200_000),
    /** Pause between the messages of one reply. */
    paceMs: z._default(nonNegativeInt(), 500),
    /** A failed post is tried again this many times, waiting retryBaseMs, then twice as long each time. */
    postRetries: z._default(nonNegativeInt(), 4),
    retryBaseMs: z._default(positiveInt(), 1_000),
    /** One post to Synology may take this long. */
    postTimeoutMs: z._default(positiveInt(), 15_000),
    /** On SIGINT/SIGTERM, running Claude turns get this long to finish; then they are ended (and rerun on start). */
    stopGraceMs: z._default(nonNegativeInt(), 10_000),
    claude: section(
      z.strictObject({
        command: z._default(z.string().check(z.minLength(1)), "claude"),
        /** Extra arguments for every run, e.g. ["--allowedTools", "Read,Grep"] or ["--model", "sonnet"]. */
        args: z._default(z.array(z.string()), []),
        /** Where Claude Code runs; empty = `<CTX_HOME>/bridge/workdir`. */
        workdir: z._default(z.string(), ""),
        /** One `claude -p` run may take this long; then its whole process group is killed. */
        timeoutMs: z._default(positiveInt(), 600_000),
      }),
    ),
  });

  const ConfigSchema = z.strictObject({
    checkpoints: section(CheckpointConfigSchema),
    retention: section(RetentionConfigSchema),
    hooks: section(HooksConfigSchema),
    guard: section(GuardConfigSchema),
    budget: section(BudgetConfigSchema),
    search: section(SearchConfigSchema),
    embedder: section(EmbedderConfigSchema),
    index: section(IndexConfigSchema),
    summaries: section(SummariesConfigSchema),
    redaction: section(RedactionConfigSchema),
    rules: section(RulesConfigSchema),
    memory: section(MemoryConfigSchema),
    breadcrumb: section(BreadcrumbConfigSchema),
    archive: section(ArchiveConfigSchema),
    bridge: section(BridgeConfigSchema),
  });
  return ConfigSchema;
}

let built: ReturnType<typeof buildConfigSchema> | undefined;

/** The config schema, built once per process on first use. */
export function configSchema(): ReturnType<typeof buildConfigSchema> {
  built ??= buildConfigSchema();
  return built;
}

export type Config = z.output<ReturnType<typeof buildConfigSchema>>;
/** What a config file may contain: any subset of the settings. */
export type ConfigInput = z.input<ReturnType<typeof buildConfigSchema>>;
