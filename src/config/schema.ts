// Every setting the product documents name, with its type, its checks and its trust: `safe` (tunes what ctx
// computes for this project; a repository's .ctx/config.json may set it) or `sensitive`/`secret` (names a program,
// URL, host, port or path, holds a credential, or sends data or acts beyond this project: only the user's own file,
// CTX_* variables, or a project file the user trusted by its hash may set it; SECURITY.md). `settings()` takes only
// classified keys, so a new key cannot be added without deciding. One function per section, composed by
// buildConfigSchema (over 300 lines: one line or two per setting). zod/mini, built on first use: hook processes load
// this module, and building the zod objects costs milliseconds of a hook (./defaults.ts holds the defaults, the one
// place they are written, merged under every layer before this checks the whole; ./trust.ts the plain list of
// sensitive keys a hook filters with).
import * as z from "zod/mini";
import type { KeyTrust } from "./trust.ts";

const positiveInt = () => z.int().check(z.positive());
/** PostgreSQL's largest lock_timeout and statement_timeout (a larger one refuses the connection at its start). */
const MAX_SERVER_MS = 2_147_483_647;
const nonNegativeInt = () => z.int().check(z.nonnegative());
const percent = () => z.number().check(z.gte(0), z.lte(100));
const weight = () => z.number().check(z.gte(0), z.lte(1));

declare const classified: unique symbol;
/** A setting's schema with its trust decided (or a section, whose keys each have theirs). */
type Classified<T extends z.core.$ZodType = z.core.$ZodType> = T & { readonly [classified]: true };
const trustOfSchema = new WeakMap<object, KeyTrust | "section">();
const classify =
  (trust: KeyTrust | "section") =>
  <T extends z.core.$ZodType>(schema: T): Classified<T> => {
    trustOfSchema.set(schema, trust);
    return schema as Classified<T>;
  };
/** Tunes what ctx computes for this project: a repository's own config may set it. */
const safe = classify("safe");
/** Names a program, URL, host, port or path, or acts beyond this project: never from an untrusted project file. */
const sensitive = classify("sensitive");
/** A credential: sensitive, and shown by `ctx config` as "(set, N chars)" unless asked. */
const secret = classify("secret");
/** An object of settings: every key classified (the type refuses one that is not). */
const settings = <S extends Record<string, Classified>>(shape: S) => z.strictObject(shape);
/** A nested section of settings. */
const section = classify("section");

function checkpointSettings() {
  return settings({
    /** Take a rolling checkpoint every N transcript messages (PostToolUse / Stop). */
    intervalMessages: safe(positiveInt()),
    /** How many rolling checkpoints to keep. */
    keep: safe(positiveInt()),
  });
}

function retentionSettings() {
  return settings({
    maxSnapshots: safe(positiveInt()),
    maxAgeDays: safe(positiveInt()),
    /** All snapshots of one project together; pinned snapshots are never pruned. */
    maxTotalMegabytes: safe(positiveInt()),
    /** Recompress each compaction snapshot to zstd-19 (~60% smaller) in a detached background process. */
    archiveSnapshots: safe(z.boolean()),
    /** A transcript larger than this is not copied into a snapshot (the state alone is kept, and said so). */
    maxTranscriptMegabytes: safe(positiveInt()),
  });
}

function hooksSettings() {
  return settings({
    /** Block a compaction (PreCompact exit 2) when the state could not be saved and verified. */
    blockCompactionOnSaveFailure: safe(z.boolean()),
    /** On `startup`, inject a short "where you left off" from the last saved state. */
    autoRestore: safe(z.boolean()),
    /** Hard limit for one hook handler; Claude Code's own timeouts are set by `ctx init`. */
    handlerTimeoutMs: safe(positiveInt()),
    /** Cap on re-injected context; Claude Code spills additionalContext over 10,000 characters to a file. */
    maxInjectChars: safe(positiveInt().check(z.lte(10_000))),
  });
}

function guardSettings() {
  return settings({
    /** Run the context guard after every tool call (PostToolUse). */
    enabled: safe(z.boolean()),
    /** Context window in tokens; 0 = infer from the model (1,000,000 for [1m] models, else 200,000). */
    windowTokens: safe(nonNegativeInt()),
    /** Auto-compaction fires this many tokens short of the window (Claude Code's buffer, about 33K). */
    autoCompactBufferTokens: safe(nonNegativeInt()),
    /**
     * Tier thresholds, in percent of the window REMAINING before auto-compaction fires:
     * (autoCompactAt - used) / window * 100. 30 = the tier starts when 30% of the window is left.
     */
    warningPercent: safe(percent()),
    advisoryPercent: safe(percent()),
    yellowPercent: safe(percent()),
    criticalPercent: safe(percent()),
    /** Escalate one tier early when the last measurements consumed more than this percent of the window per
     * operation (one operation = one tool call, i.e. one PostToolUse). */
    velocityPercentPerOperation: safe(z.number().check(z.positive())),
    /** Measurements used for velocity and for dynamic thresholds. */
    velocitySamples: safe(positiveInt()),
    dynamicWindow: safe(positiveInt()),
    /** Dynamic thresholds never go below this percent remaining. */
    floorPercent: safe(percent()),
  });
}

function budgetSettings() {
  return settings({
    /** Token caps of the five compartments. */
    caps: section(
      settings({
        active_task: safe(positiveInt()),
        project_background: safe(positiveInt()),
        operator_preferences: safe(positiveInt()),
        safety_constraints: safe(positiveInt()),
        ambient_knowledge: safe(positiveInt()),
      }),
    ),
    /** Tokens of the assembled budget in the compact re-injection (0 = leave it out). */
    injectMaxTokens: safe(nonNegativeInt()),
  });
}

function rulesSettings() {
  return settings({
    /** Re-inject the CLAUDE.md rules marked (ENFORCED) or (CRITICAL) after each compaction. */
    reinject: safe(z.boolean()),
    /** `ctx rules check`: share of a rule's content words the summary must hold to count as paraphrased. */
    overlapThreshold: safe(weight()),
  });
}

function memorySettings() {
  return settings({
    /** Auto-memory folder; empty = Claude Code's own (`<claude config>/projects/<repo>/memory`). */
    directory: sensitive(z.string()),
    /** Claude Code loads no more of MEMORY.md than this many lines and bytes. */
    maxIndexLines: safe(positiveInt()),
    maxIndexBytes: safe(positiveInt()),
  });
}

function breadcrumbSettings() {
  return settings({
    /** At SessionEnd, append a line about the session to an Obsidian daily note. */
    enabled: sensitive(z.boolean()),
    /** The vault folder (or a subfolder of it) holding the daily notes `<YYYY-MM-DD>.md`. */
    vault: sensitive(z.string()),
    heading: safe(z.string()),
  });
}

function searchSettings() {
  return settings({
    weights: section(
      settings({
        bestSimilarity: safe(weight()),
        passageSimilarity: safe(weight()),
        averageSimilarity: safe(weight()),
        chunkRatio: safe(weight()),
        /** What the person typed (the `User:` messages) in the session's best chunks, on the query (docs/search.md). */
        promptSimilarity: safe(weight()),
        /** The session's best chunk on the query's pseudo-relevance feedback terms (docs/search.md). */
        feedbackSimilarity: safe(weight()),
        /** Whether the session was active on a date the query names ("in March 2026"); only for such queries. */
        namedDate: safe(weight()),
        recency: safe(weight()),
        chainQuality: safe(weight()),
      }).check(
        z.refine(
          (w) => w.bestSimilarity + w.passageSimilarity + w.averageSimilarity + w.chunkRatio > 0,
          "bestSimilarity, passageSimilarity, averageSimilarity and chunkRatio cannot all be 0 (relevance needs one)",
        ),
      ),
    ),
    recencyDecayDays: safe(z.number().check(z.positive())),
    /** Recency and chain quality lift a session's score by at most this fraction: they only break near-ties. */
    tieMargin: safe(weight()),
    boosts: section(
      settings({
        PATTERN: safe(z.number().check(z.positive())),
        WORKING_SOLUTION: safe(z.number().check(z.positive())),
        WAITING: safe(z.number().check(z.positive())),
      }),
    ),
    /**
     * Sessions whose relevance (0..1, the percentage shown) is below this are listed under "weak matches", after
     * the strong ones. Relevance only: an old session that matches well is still a strong match.
     */
    minSimilarity: safe(weight()),
    /**
     * Where fork detection searches: `local` (this machine's index), `team` (the team server only) or `all` (both,
     * ranked together). Sensitive: `team` and `all` send the query's text to the team server, so a repository's
     * file must not turn it on (docs/team.md "Search").
     */
    scope: sensitive(z.enum(["local", "team", "all"])),
  });
}

function embedderSettings() {
  return settings({
    /** `none` = BM25 alone: offline, no download (the default). */
    provider: sensitive(z.enum(["none", "nomic", "ollama"])),
    /** Empty = the provider's default: `nomic-ai/nomic-embed-text-v1.5` (nomic), `nomic-embed-text` (ollama). */
    model: sensitive(z.string()),
    ollamaUrl: sensitive(z.string()),
    /** Folder holding local model files (`<modelDir>/<model>/onnx/model.onnx`); empty = `<CTX_HOME>/models`. */
    modelDir: sensitive(z.string()),
    /** nomic: fetch a missing model from the Hugging Face Hub once (off by default: no network). */
    allowDownload: sensitive(z.boolean()),
    /** Texts per embedding call. */
    batchSize: safe(positiveInt().check(z.lte(256))),
    /** ollama: give up on one request after this long. */
    timeoutMs: safe(positiveInt()),
  });
}

function indexSettings() {
  return settings({
    /** `ctx serve` watches <claudeDir>/projects and re-indexes in the background. */
    watch: safe(z.boolean()),
    /** Quiet period after the last transcript write before a background sync starts. */
    quietMs: safe(positiveInt()),
    /** Also sync once when the server starts (catches up with sessions written while it was not running). */
    syncOnStart: safe(z.boolean()),
  });
}

function summariesSettings() {
  return settings({
    provider: sensitive(z.enum(["extractive", "claude-cli", "anthropic"])),
    model: sensitive(z.string()),
    dailyTokenCap: sensitive(nonNegativeInt()),
    /** One LLM request (a `claude -p` run or a Messages API call) may take this long. */
    timeoutMs: safe(positiveInt()),
    /** Assembly layers (Smart Context preset): newest messages verbatim, the ones before summarised each. */
    recentMessages: safe(positiveInt()),
    middleMessages: safe(nonNegativeInt()),
    /** The assembly's token budget, and the most the folded aggregate of older messages may take of it. */
    budgetTokens: safe(positiveInt()),
    aggregateTokens: safe(nonNegativeInt()),
  });
}

// The archive is the user's, across every project (unredacted copies, pruned by these): sensitive as a whole.
function archiveSettings() {
  return settings({
    /** Copy transcripts Claude Code's cleanup is about to delete into ~/.ctx/archive/ (ctx serve, SessionStart). */
    enabled: sensitive(z.boolean()),
    /** Archive a transcript this many days before Claude Code's cleanupPeriodDays would delete it. */
    daysBeforeCleanup: sensitive(nonNegativeInt()),
    /** The archive's size cap; past it the oldest unpinned sessions are pruned. 0 = keep everything. */
    maxMegabytes: sensitive(nonNegativeInt()),
    /** Retention: an unpinned archived session is pruned this many days after its transcript's last write. 0 = keep forever. */
    maxAgeDays: sensitive(nonNegativeInt()),
    /** A transcript larger than this (MiB) is not archived; the pass logs it and counts it as skipped. 0 = no limit. */
    maxTranscriptMegabytes: sensitive(nonNegativeInt()),
  });
}

function redactionSettings() {
  return settings({
    /** Exact strings that look like secrets but are not (e.g. a public test key); they pass through. */
    allowlist: sensitive(z.array(z.string())),
  });
}

function bridgeSettings() {
  return settings({
    /** `ctx bridge synology` listens here; loopback unless you put it behind a proxy or open it on purpose. */
    host: sensitive(z.string()),
    port: sensitive(z.int().check(z.gte(1), z.lte(65_535))),
    synology: section(
      settings({
        /** The token of the outgoing webhook / chatbot (Synology Chat shows it); required to run the bridge. */
        token: secret(z.string()),
        /** The incoming webhook's (or bot's) full URL, token included; required to run the bridge. */
        incomingUrl: secret(z.string()),
        /** `chatbot` replies carry `user_ids` (a bot talks to one person); `webhook` posts to the channel. */
        mode: sensitive(z.enum(["webhook", "chatbot"])),
      }),
    ),
    /** A conversation idle this long starts a new Claude session seeded with its summary. */
    idleMinutes: safe(positiveInt()),
    /** Conversations answered at the same time (each conversation's messages always run one at a time). */
    concurrency: safe(positiveInt()),
    /** A message over this many UTF-8 bytes is refused with a reply naming the limit. */
    maxInputBytes: safe(positiveInt()),
    /** A message longer than this (characters) goes to Claude as consecutive parts of one session. */
    inputChunkChars: safe(positiveInt().check(z.gte(1_000))),
    /** Longest chat message posted, `[i/N] ` prefix included. */
    outputChunkChars: safe(positiveInt().check(z.gte(200))),
    /** Past this real context size, summarise and continue in a new Claude session. */
    softLimitTokens: safe(positiveInt()),
    /** No turn starts past this (a long message's parts roll over to a new session first). */
    hardLimitTokens: safe(positiveInt()),
    /** The context window /status measures against. */
    windowTokens: safe(positiveInt()),
    /** Pause between the messages of one reply. */
    paceMs: safe(nonNegativeInt()),
    /** No longer used: a part the chat does not take waits in the outbox (deliveryHours). Kept so files load. */
    postRetries: safe(nonNegativeInt()),
    /** A reply part the chat did not take is tried again after retryBaseMs, then twice as long each time… */
    retryBaseMs: safe(positiveInt()),
    /** …waiting at most this long between tries… */
    retryMaxMs: safe(positiveInt()),
    /** …for this many hours after the reply was first due (across restarts); then it is given up and the person told. */
    deliveryHours: safe(z.number().check(z.positive())),
    /** One post to Synology may take this long. */
    postTimeoutMs: safe(positiveInt()),
    /** On SIGINT/SIGTERM, running Claude turns get this long to finish; then they are ended (and rerun on start). */
    stopGraceMs: safe(nonNegativeInt()),
    /** A turn running longer than this (seconds) gets one short "working on it" notice in the chat; 0 = never. */
    workingNoticeSeconds: safe(nonNegativeInt()),
    claude: section(
      settings({
        command: sensitive(z.string().check(z.minLength(1))),
        /** Extra arguments for every run, e.g. ["--allowedTools", "Read,Grep"] or ["--model", "sonnet"]. */
        args: sensitive(z.array(z.string())),
        /** Where Claude Code runs; empty = `<CTX_HOME>/bridge/workdir`. */
        workdir: sensitive(z.string()),
        /** One `claude -p` run may take this long; then its whole process group is killed. */
        timeoutMs: safe(positiveInt()),
      }),
    ),
  });
}

function teamSettings() {
  return settings({
    /**
     * The team server: postgresql://<role>@<host>:<port>/<database>?sslmode=verify-full (docs/team.md). Written by
     * `ctx team join` into the user's own file; a repository's file can never point a member's sessions elsewhere.
     */
    url: secret(z.string()),
    /** The team this member pushes to and searches (`ctx team join --team`). */
    name: sensitive(z.string()),
    /** How long a connection to the team server may take before ctx goes on without it. */
    connectTimeoutMs: safe(positiveInt()),
    /**
     * How long one team statement may wait for a table or advisory lock (the server's lock_timeout): a lock another
     * role holds ends the command with a clear error instead of a wait as long as the lock.
     */
    lockTimeoutMs: safe(positiveInt().check(z.lte(MAX_SERVER_MS))),
    /** How long one team statement may run (the server's statement_timeout); a push batch is one statement per table. */
    statementTimeoutMs: safe(positiveInt().check(z.lte(MAX_SERVER_MS))),
    /** A redacted transcript larger than this is not uploaded (its chunks are; the session is marked not forkable). */
    maxTranscriptMegabytes: safe(positiveInt()),
  });
}

function trustSettings() {
  return settings({
    /**
     * Project config files the user trusts with sensitive settings (`ctx config trust`): the file's absolute path
     * and the SHA-256 of the exact bytes trusted. Any change to the file needs trusting again.
     */
    projectConfigs: sensitive(z.record(z.string(), z.string())),
  });
}

/** The whole schema: one section of settings per capability, each built by its own step above. */
function buildConfigSchema() {
  return settings({
    checkpoints: section(checkpointSettings()),
    retention: section(retentionSettings()),
    hooks: section(hooksSettings()),
    guard: section(guardSettings()),
    budget: section(budgetSettings()),
    search: section(searchSettings()),
    embedder: section(embedderSettings()),
    index: section(indexSettings()),
    summaries: section(summariesSettings()),
    redaction: section(redactionSettings()),
    rules: section(rulesSettings()),
    memory: section(memorySettings()),
    breadcrumb: section(breadcrumbSettings()),
    archive: section(archiveSettings()),
    bridge: section(bridgeSettings()),
    team: section(teamSettings()),
    trust: section(trustSettings()),
  });
}

let built: ReturnType<typeof buildConfigSchema> | undefined;

/** The config schema, built once per process on first use. */
export function configSchema(): ReturnType<typeof buildConfigSchema> {
  built ??= buildConfigSchema();
  return built;
}

/** The trust of every setting by its dotted key, read from the schema's own marks (./trust.ts is checked against it). */
export function configKeyTrust(): Map<string, KeyTrust> {
  const found = new Map<string, KeyTrust>();
  const walk = (node: z.core.$ZodType, prefix: string[]): void => {
    const shape = (node._zod.def as unknown as { shape?: Record<string, z.core.$ZodType> }).shape ?? {};
    for (const [key, child] of Object.entries(shape)) {
      const trust = trustOfSchema.get(child);
      if (trust === "section") walk(child, [...prefix, key]);
      else if (trust !== undefined) found.set([...prefix, key].join("."), trust);
      else throw new Error(`config key ${[...prefix, key].join(".")} has no trust mark`);
    }
  };
  walk(configSchema() as unknown as z.core.$ZodType, []);
  return found;
}

export type Config = z.output<ReturnType<typeof buildConfigSchema>>;
