// A real-shaped corpus of N Claude Code sessions for bench/scale.bench.ts (issue 36: 100,000 sessions). Every line
// comes from a real transcript (tests/fixtures/claude, ../shared/fixtures, ../shared/eval/coding, read at run time):
// a session walks one real session's lines from a real prompt on, then another's, and every text it writes is varied
// (words swapped for other real words, lines mixed in from other real texts), with its own ids, folder, branch and
// dates, so no two sessions are alike (copies would be folded as duplicates and flatter every figure). Lengths are
// log-normal (most sessions short, a tail of multi-MB ones with compactions), some sessions have subagents, and the
// projects are ~1 per 100 sessions, Zipf-busy, over two years. LoCoMo's dev split is planted unchanged when it is
// there, so retrieval at scale is measured on its questions. Deterministic from the seed; cached under os.tmpdir().
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import { findLocomoDir, loadLocomo } from "./locomo-data.ts";
import { createRng, type Rng, zipfIndex } from "./synthetic-text.ts";

export interface ScaleCorpusOptions {
  sessions: number;
  seed: number;
}

export interface ScaleCorpus extends ScaleCorpusOptions {
  /** Plays the role of ~/.claude. */
  claudeDir: string;
  projects: number;
  files: number;
  subagentFiles: number;
  compactedSessions: number;
  /** Messages as the index counts them: prompts and API replies (the planted sessions' too). */
  messages: number;
  lines: number;
  bytes: number;
  /** Sessions of the largest: the length distribution's tail. */
  largestSessionBytes: number;
  medianSessionMessages: number;
  /** LoCoMo dev sessions planted unchanged (0 when ../shared/eval is absent). */
  planted: number;
  sources: number;
  /** What the sources were (files and bytes): the same seed over other sources is another corpus. */
  sourceBytes: number;
  generatedMs: number;
}

const FORMAT = "v2";
const here = fileURLToPath(new URL(".", import.meta.url));
const repoRoot = resolve(here, "..");
const BASE_TIME = Date.UTC(2024, 11, 1);
const SPAN_MS = 730 * 86_400_000;
const PROJECT_EVERY = 100;
/** Log-normal messages per session: median 10, a long tail (a few sessions of thousands of messages, multi-MB). */
const MEDIAN_MESSAGES = 10;
const SIGMA = 1.3;
const MAX_MESSAGES = 3_000;
/**
 * Tool output kept per result: the corpus is to hold about as many messages per GB as the (2.3 M in a few GB),
 * and a real session's few huge outputs (whole files read, long logs) are what would take it past that.
 */
const TOOL_OUTPUT_CHARS = 3_000;
const COMPACT_EVERY = 160;
const KEPT_TYPES = new Set(["user", "assistant", "system", "progress", "file-history-snapshot", "queue-operation"]);

type Entry = Record<string, unknown>;

interface Source {
  entries: Entry[];
  /** Indexes of real prompts (a user line whose content is text, not a tool result): where a walk may start. */
  prompts: number[];
}

interface Pools {
  sources: Source[];
  words: string[];
  lines: string[];
  titles: string[];
  bytes: number;
}

function sourceFolders(): string[] {
  return [
    join(repoRoot, "tests/fixtures/claude/projects"),
    join(repoRoot, "../shared/fixtures/transcripts"),
    join(repoRoot, "../shared/eval/coding/claude/projects"),
  ].filter((dir) => existsSync(dir));
}

function listJsonl(dir: string, out: string[]): void {
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) listJsonl(path, out);
    else if (entry.isFile() && entry.name.endsWith(".jsonl") && !entry.name.startsWith("agent-acompact-")) {
      out.push(path);
    }
  }
}

const isPrompt = (entry: Entry): boolean => {
  if (entry.type !== "user" || entry.isMeta === true || entry.isCompactSummary === true) return false;
  const content = (entry.message as { content?: unknown } | undefined)?.content;
  if (typeof content === "string") return content.length > 0 && !content.startsWith("<");
  return Array.isArray(content) && content.some((block) => (block as Entry).type === "text");
};

function textsOf(entry: Entry, out: string[]): void {
  const content = (entry.message as { content?: unknown } | undefined)?.content;
  if (typeof content === "string") out.push(content);
  else if (Array.isArray(content)) {
    for (const block of content as Entry[]) {
      if (typeof block.text === "string") out.push(block.text);
      else if (typeof block.content === "string") out.push(block.content);
    }
  }
}

let loaded: Pools | null = null;

/** Cuts a tool result's text to TOOL_OUTPUT_CHARS and drops a large structured copy of it (parsed, never indexed). */
function trimToolOutput(entry: Entry): void {
  if (entry.toolUseResult !== undefined && JSON.stringify(entry.toolUseResult).length > TOOL_OUTPUT_CHARS) {
    delete entry.toolUseResult;
  }
  const content = (entry.message as { content?: unknown } | undefined)?.content;
  if (!Array.isArray(content)) return;
  for (const block of content as Entry[]) {
    if (typeof block.content === "string") block.content = block.content.slice(0, TOOL_OUTPUT_CHARS);
    else if (Array.isArray(block.content)) {
      for (const part of block.content as Entry[]) {
        if (typeof part.text === "string") part.text = part.text.slice(0, TOOL_OUTPUT_CHARS);
      }
    }
  }
}

/** The real transcripts, each file once (the same session is in more than one of the folders). */
function loadPools(): Pools {
  loaded ??= readPools();
  return loaded;
}

function readPools(): Pools {
  const paths: string[] = [];
  for (const dir of sourceFolders()) listJsonl(dir, paths);
  const seen = new Set<string>();
  const sources: Source[] = [];
  const texts: string[] = [];
  const titles: string[] = [];
  let bytes = 0;
  for (const path of paths) {
    const raw = readFileSync(path, "utf8");
    const key = `${basename(path)}:${raw.length}`;
    if (seen.has(key)) continue;
    seen.add(key);
    bytes += raw.length;
    const entries: Entry[] = [];
    for (const line of raw.split("\n")) {
      let entry: Entry;
      try {
        entry = JSON.parse(line) as Entry;
      } catch {
        continue;
      }
      if (entry.type === "summary" && typeof entry.summary === "string") titles.push(entry.summary);
      if (typeof entry.type !== "string" || !KEPT_TYPES.has(entry.type) || entry.subtype === "compact_boundary") {
        continue;
      }
      if (entry.isCompactSummary === true) continue;
      trimToolOutput(entry);
      entries.push(entry);
      textsOf(entry, texts);
    }
    const prompts = entries.flatMap((entry, i) => (isPrompt(entry) ? [i] : []));
    if (prompts.length > 0) sources.push({ entries, prompts });
  }
  const words = new Set<string>();
  const lines: string[] = [];
  for (const text of texts) {
    for (const word of text.split(/\s+/)) if (/^[a-zA-Z][a-zA-Z_-]{2,20}$/.test(word)) words.add(word);
    for (const line of text.split("\n")) if (line.length >= 20 && line.length <= 200) lines.push(line);
  }
  if (sources.length === 0) throw new Error("no real transcripts found under tests/fixtures/claude or ../shared");
  return { sources, words: [...words].sort(), lines, titles, bytes };
}

/** Swaps about one word in seven for another real word: the text stays real-shaped but is this session's own. */
function varyWords(rng: Rng, pools: Pools, text: string): string {
  const parts = text.split(" ");
  for (let i = 0; i < parts.length; i += 1 + rng.int(0, 12)) {
    if (/^[a-zA-Z]{3,}$/.test(parts[i] ?? "")) parts[i] = rng.pick(pools.words);
  }
  return parts.join(" ");
}

/** Long texts (tool output, code): a slice of their lines, a few swapped for lines of other real texts. */
function varyLines(rng: Rng, pools: Pools, text: string): string {
  const lines = text.split("\n");
  if (lines.length < 4) return varyWords(rng, pools, text);
  const from = rng.int(0, Math.floor(lines.length / 4));
  const kept = lines.slice(from);
  for (let i = rng.int(0, 8); i < kept.length; i += 1 + rng.int(4, 16)) kept[i] = rng.pick(pools.lines);
  return kept.join("\n");
}

const vary = (rng: Rng, pools: Pools, text: string) =>
  text.length > 1_500 ? varyLines(rng, pools, text) : varyWords(rng, pools, text);

interface Writer {
  rng: Rng;
  pools: Pools;
  sessionId: string;
  cwd: string;
  branch: string;
  time: number;
  parent: string | null;
  suffix: string;
  sidechain: boolean;
  agentId: string | null;
  lines: string[];
  messages: number;
  lastReply: unknown;
}

function variedContent(w: Writer, content: unknown): unknown {
  if (typeof content === "string") return vary(w.rng, w.pools, content);
  if (!Array.isArray(content)) return content;
  return (content as Entry[]).map((block) => {
    const out: Entry = { ...block };
    if (typeof block.text === "string") out.text = vary(w.rng, w.pools, block.text);
    if (typeof block.thinking === "string") out.thinking = vary(w.rng, w.pools, block.thinking);
    if (typeof block.content === "string") out.content = vary(w.rng, w.pools, block.content);
    if (typeof block.id === "string") out.id = `${block.id}${w.suffix}`;
    if (typeof block.tool_use_id === "string") out.tool_use_id = `${block.tool_use_id}${w.suffix}`;
    return out;
  });
}

function emit(w: Writer, entry: Entry): void {
  const uuid = w.rng.uuid();
  w.time += w.rng.int(500, 45_000);
  const out: Entry = {
    ...entry,
    parentUuid: w.parent,
    isSidechain: w.sidechain,
    cwd: w.cwd,
    sessionId: w.sessionId,
    gitBranch: w.branch,
    uuid,
    timestamp: new Date(w.time).toISOString(),
  };
  delete out.slug;
  delete out.logicalParentUuid;
  if (w.agentId === null) delete out.agentId;
  else out.agentId = w.agentId;
  const message = entry.message as Entry | undefined;
  if (message !== undefined && typeof message === "object") {
    const varied: Entry = { ...message, content: variedContent(w, message.content) };
    if (typeof message.id === "string") varied.id = `${message.id}${w.suffix}`;
    out.message = varied;
  }
  if (typeof entry.requestId === "string") out.requestId = `${entry.requestId}${w.suffix}`;
  // Counted as the index counts them (core/search/messages.ts): a prompt, or an API reply (one per message id).
  if (isPrompt(entry)) w.messages += 1;
  else if (entry.type === "assistant" && message?.id !== w.lastReply) {
    w.messages += 1;
    w.lastReply = message?.id;
  }
  w.parent = uuid;
  w.lines.push(JSON.stringify(out));
}

/** Walks real sessions from a real prompt until `target` messages, ending on an assistant line (where a person stops). */
function walk(w: Writer, target: number, onMessage?: () => void): void {
  while (w.messages < target) {
    const source = w.rng.pick(w.pools.sources);
    const start = w.rng.pick(source.prompts);
    w.suffix = `_${w.rng.hex(6)}`;
    for (let i = start; i < source.entries.length; i++) {
      const entry = source.entries[i] as Entry;
      emit(w, entry);
      onMessage?.();
      if (w.messages >= target && entry.type === "assistant") return;
    }
  }
}

function compactBoundary(w: Writer): void {
  const uuid = w.rng.uuid();
  w.time += w.rng.int(5_000, 60_000);
  const timestamp = new Date(w.time).toISOString();
  const base = { isSidechain: false, userType: "external", cwd: w.cwd, sessionId: w.sessionId, gitBranch: w.branch };
  w.lines.push(
    JSON.stringify({
      parentUuid: null,
      logicalParentUuid: w.parent,
      ...base,
      version: "2.1.330",
      type: "system",
      subtype: "compact_boundary",
      content: "Conversation compacted",
      isMeta: false,
      timestamp,
      uuid,
      level: "info",
      compactMetadata: { trigger: "auto", preTokens: w.rng.int(140_000, 170_000) },
    }),
  );
  const summary = Array.from({ length: 12 }, () => w.rng.pick(w.pools.lines)).join("\n");
  const summaryUuid = w.rng.uuid();
  w.lines.push(
    JSON.stringify({
      parentUuid: uuid,
      ...base,
      version: "2.1.330",
      type: "user",
      message: {
        role: "user",
        content: `This session is being continued from a previous conversation that ran out of context. The conversation is summarized below:\n${summary}`,
      },
      isCompactSummary: true,
      isVisibleInTranscriptOnly: true,
      uuid: summaryUuid,
      timestamp,
    }),
  );
  w.parent = summaryUuid;
}

function logNormal(rng: Rng): number {
  const u = Math.max(rng.next(), 1e-9);
  const v = rng.next();
  const normal = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  return Math.max(2, Math.min(MAX_MESSAGES, Math.round(MEDIAN_MESSAGES * Math.exp(SIGMA * normal))));
}

interface Project {
  dir: string;
  cwd: string;
}

function projectsFor(rng: Rng, pools: Pools, count: number): Project[] {
  const lower = pools.words.filter((word) => /^[a-z]{3,12}$/.test(word));
  return Array.from({ length: count }, (_, i) => {
    const name = `${rng.pick(lower)}-${rng.pick(lower)}-${i}`;
    const cwd = `/home/user/${rng.int(0, 3) === 0 ? "work/" : ""}${name}`;
    return { cwd, dir: cwd.replace(/[^a-zA-Z0-9]/g, "-") };
  });
}

export interface WrittenSession {
  sessionId: string;
  path: string;
  messages: number;
  lines: number;
  bytes: number;
  subagentFiles: number;
  compacted: boolean;
}

function writeSession(root: string, pools: Pools, projects: Project[], seed: number, index: number): WrittenSession {
  const rng = createRng(seed * 1_000_003 + index);
  const project = projects[zipfIndex(rng, projects.length)] as Project;
  const target = logNormal(rng);
  const start = BASE_TIME + Math.floor(rng.next() * SPAN_MS);
  const w: Writer = {
    rng,
    pools,
    sessionId: rng.uuid(),
    cwd: project.cwd,
    branch: rng.chance(0.5) ? "main" : `${rng.pick(pools.words).toLowerCase()}-${rng.int(1, 999)}`,
    time: start,
    parent: null,
    suffix: "",
    sidechain: false,
    agentId: null,
    lines: [],
    messages: 0,
    lastReply: undefined,
  };
  if (pools.titles.length > 0 && rng.chance(0.4)) {
    w.lines.push(
      JSON.stringify({ type: "summary", summary: varyWords(rng, pools, rng.pick(pools.titles)), leafUuid: rng.uuid() }),
    );
  }
  let compacted = false;
  let sinceCompact = 0;
  walk(w, target, () => {
    sinceCompact += 1;
    if (sinceCompact >= COMPACT_EVERY && target - w.messages > 20) {
      compactBoundary(w);
      compacted = true;
      sinceCompact = 0;
    }
  });
  const folder = join(root, "projects", project.dir);
  const file = join(folder, `${w.sessionId}.jsonl`);
  const text = `${w.lines.join("\n")}\n`;
  writeFileSync(file, text);
  const stamp = new Date(w.time);
  utimesSync(file, stamp, stamp);
  let bytes = Buffer.byteLength(text);
  let lines = w.lines.length;
  const messages = w.messages;
  let subagentFiles = 0;
  // About one session in twelve ran subagents (Task): each a sidechain transcript of its own under the session.
  if (target >= 8 && rng.chance(0.08)) {
    const agents = rng.int(1, 3);
    const dir = join(folder, w.sessionId, "subagents");
    mkdirSync(dir, { recursive: true });
    for (let a = 0; a < agents; a++) {
      const agentId = rng.hex(7);
      const sub: Writer = { ...w, agentId, sidechain: true, parent: null, lines: [], messages: 0, time: start };
      walk(sub, rng.int(4, 40));
      const agentText = `${sub.lines.join("\n")}\n`;
      writeFileSync(join(dir, `agent-a${agentId}.jsonl`), agentText);
      bytes += Buffer.byteLength(agentText);
      lines += sub.lines.length;
      subagentFiles += 1;
    }
  }
  return { sessionId: w.sessionId, path: file, messages, lines, bytes, subagentFiles, compacted };
}

function plantLocomo(root: string): { sessions: number; messages: number; bytes: number } {
  const dir = findLocomoDir();
  if (dir === null) return { sessions: 0, messages: 0, bytes: 0 };
  const data = loadLocomo(dir);
  let messages = 0;
  let bytes = 0;
  for (const session of data.sessions) {
    const from = join(data.claudeDir, session.path);
    const to = join(root, session.path);
    mkdirSync(dirname(to), { recursive: true });
    copyFileSync(from, to);
    const raw = readFileSync(from, "utf8");
    bytes += raw.length;
    messages += raw.split("\n").filter((line) => /"type":"(user|assistant)"/.test(line)).length;
  }
  return { sessions: data.sessions.length, messages, bytes };
}

/** A corpus made from other sources (a checkout without ../shared) has other project names and texts: not this one. */
function sameSources(corpus: ScaleCorpus): void {
  const pools = loadPools();
  if (corpus.sources !== pools.sources.length || corpus.sourceBytes !== pools.bytes) {
    throw new Error(
      `${corpus.claudeDir} was made from other source transcripts (${corpus.sources} files, ${corpus.sourceBytes} bytes; ` +
        `here ${pools.sources.length}, ${pools.bytes}): delete it to make it again from these`,
    );
  }
}

export function scaleCorpusDir(options: ScaleCorpusOptions): string {
  return join(tmpdir(), `ctx-bench-scale-${FORMAT}-${options.sessions}-${options.seed}`);
}

interface RangeTotals {
  files: number;
  subagentFiles: number;
  compactedSessions: number;
  messages: number;
  lines: number;
  bytes: number;
  largestSessionBytes: number;
  perSession: number[];
}

interface RangeJob {
  claudeDir: string;
  sessions: number;
  seed: number;
  from: number;
  to: number;
}

function projectsOf(job: { sessions: number; seed: number }, pools: Pools): Project[] {
  return projectsFor(createRng(job.seed), pools, Math.max(1, Math.round(job.sessions / PROJECT_EVERY)));
}

/** Sessions [from, to): each from its own seeded generator, so any split over workers writes the same files. */
function writeRange(job: RangeJob, log: (line: string) => void): RangeTotals {
  const pools = loadPools();
  const projects = projectsOf(job, pools);
  const totals: RangeTotals = {
    files: 0,
    subagentFiles: 0,
    compactedSessions: 0,
    messages: 0,
    lines: 0,
    bytes: 0,
    largestSessionBytes: 0,
    perSession: [],
  };
  for (let i = job.from; i < job.to; i++) {
    const written = writeSession(job.claudeDir, pools, projects, job.seed, i);
    totals.files += 1 + written.subagentFiles;
    totals.subagentFiles += written.subagentFiles;
    totals.compactedSessions += written.compacted ? 1 : 0;
    totals.messages += written.messages;
    totals.lines += written.lines;
    totals.bytes += written.bytes;
    totals.largestSessionBytes = Math.max(totals.largestSessionBytes, written.bytes);
    totals.perSession.push(written.messages);
    if ((i - job.from + 1) % 10_000 === 0) log(`scale corpus: ${i - job.from + 1} of sessions ${job.from}-${job.to}`);
  }
  return totals;
}

if (!isMainThread && (workerData as { scaleCorpus?: RangeJob } | null)?.scaleCorpus !== undefined) {
  const job = (workerData as { scaleCorpus: RangeJob }).scaleCorpus;
  parentPort?.postMessage(writeRange(job, (line) => parentPort?.postMessage(line)));
}

function runWorker(job: RangeJob, log: (line: string) => void): Promise<RangeTotals> {
  return new Promise((resolvePromise, reject) => {
    const worker = new Worker(new URL(import.meta.url), { workerData: { scaleCorpus: job } });
    worker.on("message", (message: RangeTotals | string) => {
      if (typeof message === "string") log(message);
      else resolvePromise(message);
    });
    worker.on("error", reject);
    worker.on("exit", (code) => {
      if (code !== 0) reject(new Error(`scale corpus worker exited with ${code}`));
    });
  });
}

/** The corpus for `options`, generated once (in a worker per core) and reused (a `corpus.json` marks a complete one). */
export async function ensureScaleCorpus(
  options: ScaleCorpusOptions,
  log: (line: string) => void = () => {},
): Promise<ScaleCorpus> {
  const claudeDir = scaleCorpusDir(options);
  const marker = join(claudeDir, "corpus.json");
  if (existsSync(marker)) {
    const cached = JSON.parse(readFileSync(marker, "utf8")) as ScaleCorpus;
    sameSources(cached);
    return cached;
  }
  rmSync(claudeDir, { recursive: true, force: true });
  const started = Date.now();
  const pools = loadPools();
  const projects = projectsOf(options, pools);
  for (const project of projects) mkdirSync(join(claudeDir, "projects", project.dir), { recursive: true });
  const workers = options.sessions >= 2_000 ? Math.max(1, Math.min(4, availableParallelism())) : 1;
  const step = Math.ceil(options.sessions / workers);
  const jobs = Array.from({ length: workers }, (_, w) => ({
    claudeDir,
    sessions: options.sessions,
    seed: options.seed,
    from: w * step,
    to: Math.min(options.sessions, (w + 1) * step),
  }));
  const parts =
    workers === 1 ? [writeRange(jobs[0] as RangeJob, log)] : await Promise.all(jobs.map((job) => runWorker(job, log)));
  const perSession = parts.flatMap((part) => part.perSession).sort((a, b) => a - b);
  const planted = plantLocomo(claudeDir);
  const sum = (key: keyof Omit<RangeTotals, "perSession">) => parts.reduce((total, part) => total + part[key], 0);
  const corpus: ScaleCorpus = {
    ...options,
    claudeDir,
    projects: projects.length,
    files: sum("files") + planted.sessions,
    subagentFiles: sum("subagentFiles"),
    compactedSessions: sum("compactedSessions"),
    messages: sum("messages") + planted.messages,
    lines: sum("lines"),
    bytes: sum("bytes") + planted.bytes,
    largestSessionBytes: Math.max(...parts.map((part) => part.largestSessionBytes)),
    medianSessionMessages: perSession[Math.floor(perSession.length / 2)] ?? 0,
    planted: planted.sessions,
    sources: pools.sources.length,
    sourceBytes: pools.bytes,
    generatedMs: Date.now() - started,
  };
  writeFileSync(marker, `${JSON.stringify(corpus, null, 2)}\n`);
  return corpus;
}

/**
 * Sessions beyond the corpus (numbered from `first`, which must be ≥ its size, so none repeats one of it): what a
 * person's next days add. Every `newProjectEvery`-th goes into a project folder of its own, made for it.
 */
export function writeNewSessions(
  corpus: ScaleCorpus,
  first: number,
  count: number,
  newProjectEvery = 0,
): WrittenSession[] {
  if (first < corpus.sessions) throw new Error(`new sessions are numbered from ${corpus.sessions} on`);
  sameSources(corpus);
  const pools = loadPools();
  const projects = projectsOf(corpus, pools);
  const written: WrittenSession[] = [];
  for (let i = 0; i < count; i++) {
    let own = projects;
    if (newProjectEvery > 0 && i % newProjectEvery === 0) {
      const cwd = `/home/user/new-project-${first + i}`;
      own = [{ cwd, dir: cwd.replace(/[^a-zA-Z0-9]/g, "-") }];
      mkdirSync(join(corpus.claudeDir, "projects", (own[0] as Project).dir), { recursive: true });
    }
    written.push(writeSession(corpus.claudeDir, pools, own, corpus.seed, first + i));
  }
  return written;
}

/** Takes sessions writeNewSessions wrote out again (their subagents and the project folders made for them too). */
export function removeNewSessions(sessions: readonly WrittenSession[]): void {
  for (const session of sessions) {
    rmSync(session.path, { force: true });
    rmSync(session.path.slice(0, -".jsonl".length), { recursive: true, force: true });
    const folder = dirname(session.path);
    if (basename(folder).startsWith("-home-user-new-project-")) rmSync(folder, { recursive: true, force: true });
  }
}
