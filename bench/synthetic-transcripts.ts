// A seeded synthetic corpus of Claude Code transcripts in the current format (docs/claude-code-facts.md "Transcripts"):
// one line per assistant content block, tool_use / tool_result pairs with structured toolUseResult, progress
// and file-history-snapshot lines (the bulk of real files), compact boundaries with their summary, subagent
// transcripts (and the compaction summariser's own, which must never be indexed). Written once per
// scale + seed under os.tmpdir() and reused, so reruns of the index benchmark skip generation.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildVocabulary, codeBlock, createRng, paragraph, type Rng, type Vocabulary } from "./synthetic-text.ts";

export interface CorpusScale {
  sessions: number;
  /** Multiplies the amount of text per session (1 = ~100 KB per session on average). */
  sizeFactor: number;
  seed: number;
  /** Project folders the sessions are spread over (default: one per 150 sessions, at most 60). */
  projects?: number;
}

export interface CorpusStats extends CorpusScale {
  root: string;
  projects: number;
  files: number;
  subagentFiles: number;
  compactedSessions: number;
  bytes: number;
  lines: number;
  generatedMs: number;
}

const VERSION = "2.1.330";
const BASE_TIME = Date.UTC(2026, 10, 1);
const DAY = 86_400_000;

interface SessionContext {
  rng: Rng;
  vocabulary: Vocabulary;
  sessionId: string;
  cwd: string;
  branch: string;
  sizeFactor: number;
  time: number;
  parent: string | null;
  sidechain: boolean;
  agentId: string | null;
  lines: string[];
}

function envelope(s: SessionContext, type: string) {
  const uuid = s.rng.uuid();
  s.time += s.rng.int(1_000, 40_000);
  const entry: Record<string, unknown> = {
    parentUuid: s.parent,
    isSidechain: s.sidechain,
    userType: "external",
    cwd: s.cwd,
    sessionId: s.sessionId,
    version: VERSION,
    gitBranch: s.branch,
    type,
    uuid,
    timestamp: new Date(s.time).toISOString(),
  };
  if (s.agentId !== null) entry.agentId = s.agentId;
  s.parent = uuid;
  return entry;
}

const words = (s: SessionContext, median: number, max: number) => s.rng.skewed(median, max);

function userPrompt(s: SessionContext) {
  let text = paragraph(s.rng, s.vocabulary, words(s, 60, 500));
  if (s.rng.chance(0.15)) text += `\n\n${codeBlock(s.rng, s.vocabulary, s.rng.int(3, 15))}`;
  s.lines.push(JSON.stringify({ ...envelope(s, "user"), message: { role: "user", content: text } }));
}

function assistantBlock(s: SessionContext, messageId: string, block: Record<string, unknown>, stop: string | null) {
  const usage = {
    input_tokens: 3,
    cache_creation_input_tokens: s.rng.int(0, 4_000),
    cache_read_input_tokens: s.rng.int(10_000, 150_000),
    output_tokens: s.rng.int(5, 900),
  };
  const message = {
    model: "claude-opus-4-6",
    id: messageId,
    type: "message",
    role: "assistant",
    content: [block],
    stop_reason: stop,
    stop_sequence: null,
    usage,
  };
  s.lines.push(JSON.stringify({ ...envelope(s, "assistant"), message, requestId: `req_${s.rng.hex(24)}` }));
}

function progress(s: SessionContext, kind: string, count: number) {
  for (let i = 0; i < count; i++) {
    const data = {
      type: kind,
      output: paragraph(s.rng, s.vocabulary, s.rng.int(5, 40)),
      elapsedTimeSeconds: s.rng.int(1, 90),
    };
    s.lines.push(
      JSON.stringify({
        ...envelope(s, "progress"),
        data,
        toolUseID: `toolu_${s.rng.hex(24)}`,
        parentToolUseID: `toolu_${s.rng.hex(24)}`,
      }),
    );
  }
}

function toolCall(s: SessionContext, messageId: string) {
  const id = `toolu_${s.rng.hex(24)}`;
  const path = `${s.cwd}/${s.rng.pick(s.vocabulary.paths)}`;
  const tool = s.rng.pick(["Read", "Read", "Edit", "Bash", "Bash", "Grep", "Write"]);
  const input: Record<string, unknown> =
    tool === "Bash"
      ? {
          command: `${s.rng.pick(["npm test", "pnpm build", "git diff", "cargo check", "pytest -q"])} ${s.rng.pick(s.vocabulary.paths)}`,
          description: paragraph(s.rng, s.vocabulary, 6),
        }
      : tool === "Grep"
        ? { pattern: s.rng.pick(s.vocabulary.identifiers), path: s.cwd }
        : tool === "Edit"
          ? {
              file_path: path,
              old_string: codeBlock(s.rng, s.vocabulary, 3),
              new_string: codeBlock(s.rng, s.vocabulary, 4),
            }
          : tool === "Write"
            ? { file_path: path, content: codeBlock(s.rng, s.vocabulary, s.rng.int(5, 40)) }
            : { file_path: path };
  assistantBlock(s, messageId, { type: "tool_use", id, name: tool, input }, "tool_use");
  if (tool === "Bash") progress(s, "bash_progress", s.rng.int(0, 1));
  const output =
    tool === "Read" || tool === "Bash"
      ? codeBlock(s.rng, s.vocabulary, s.rng.skewed(3, 300))
      : "The file has been updated.";
  const toolUseResult =
    tool === "Read"
      ? { type: "text", file: { filePath: path, content: output, startLine: 1, numLines: 40, totalLines: 40 } }
      : tool === "Bash"
        ? { stdout: output, stderr: "", interrupted: false, isImage: false }
        : { filePath: path };
  s.lines.push(
    JSON.stringify({
      ...envelope(s, "user"),
      message: {
        role: "user",
        content: [{ type: "tool_result", tool_use_id: id, content: output, is_error: s.rng.chance(0.05) }],
      },
      toolUseResult,
    }),
  );
}

function exchange(s: SessionContext) {
  userPrompt(s);
  progress(s, "hook_progress", s.rng.int(0, 1));
  const rounds = s.rng.int(1, 3);
  for (let round = 0; round < rounds; round++) {
    const messageId = `msg_${s.rng.hex(24)}`;
    if (s.rng.chance(0.2))
      assistantBlock(
        s,
        messageId,
        { type: "thinking", thinking: paragraph(s.rng, s.vocabulary, words(s, 40, 300)), signature: s.rng.hex(64) },
        null,
      );
    let text = paragraph(s.rng, s.vocabulary, words(s, 260, 1500));
    if (s.rng.chance(0.3))
      text += `\n\n${codeBlock(s.rng, s.vocabulary, s.rng.int(4, 30))}\n\n${paragraph(s.rng, s.vocabulary, words(s, 20, 100))}`;
    const last = round === rounds - 1;
    assistantBlock(s, messageId, { type: "text", text }, last ? "end_turn" : null);
    if (!last) toolCall(s, messageId);
  }
  s.lines.push(
    JSON.stringify({
      ...envelope(s, "system"),
      subtype: "turn_duration",
      durationMs: s.rng.int(2_000, 300_000),
      isMeta: false,
    }),
  );
}

function compactBoundary(s: SessionContext) {
  const boundary = {
    ...envelope(s, "system"),
    parentUuid: null,
    logicalParentUuid: s.parent,
    subtype: "compact_boundary",
    content: "Conversation compacted",
    level: "info",
    compactMetadata: { trigger: "auto", preTokens: s.rng.int(150_000, 170_000) },
  };
  s.lines.push(JSON.stringify(boundary));
  const summary = `This session is being continued from a previous conversation that ran out of context. The conversation is summarized below:\n${paragraph(s.rng, s.vocabulary, words(s, 250, 900))}`;
  s.lines.push(
    JSON.stringify({
      ...envelope(s, "user"),
      message: { role: "user", content: summary },
      isCompactSummary: true,
      isVisibleInTranscriptOnly: true,
    }),
  );
}

function newContext(
  rng: Rng,
  vocabulary: Vocabulary,
  sessionId: string,
  cwd: string,
  time: number,
  sizeFactor: number,
): SessionContext {
  return {
    rng,
    vocabulary,
    sessionId,
    cwd,
    branch: rng.pick(["main", "main", "dev", `feat/${vocabulary.words[rng.int(60, 900)]}`]),
    sizeFactor,
    time,
    parent: null,
    sidechain: false,
    agentId: null,
    lines: [],
  };
}

export interface GeneratedSession {
  sessionId: string;
  main: string[];
  /** Subagent files by name (`agent-<id>.jsonl`, `agent-acompact-<id>.jsonl`). */
  subagents: Record<string, string[]>;
  compacted: boolean;
}

/** One session: a main transcript and, for some, subagent transcripts. */
export function generateSession(rng: Rng, vocabulary: Vocabulary, cwd: string, sizeFactor: number): GeneratedSession {
  const sessionId = rng.uuid();
  const start = BASE_TIME - rng.int(0, 365) * DAY - rng.int(0, DAY);
  const s = newContext(rng, vocabulary, sessionId, cwd, start, sizeFactor);
  s.lines.push(
    JSON.stringify({
      type: "file-history-snapshot",
      messageId: rng.uuid(),
      snapshot: { messageId: rng.uuid(), trackedFileBackups: {}, timestamp: new Date(start).toISOString() },
      isSnapshotUpdate: false,
    }),
  );
  const exchanges = rng.skewed(Math.max(1, Math.round(7 * sizeFactor)), Math.round(80 * sizeFactor) + 1);
  const compacted = exchanges > 14 && rng.chance(0.5);
  const subagents: Record<string, string[]> = {};
  for (let i = 0; i < exchanges; i++) {
    if (compacted && i === Math.floor(exchanges / 2)) {
      compactBoundary(s);
      const summariser = newContext(rng, vocabulary, sessionId, cwd, s.time, sizeFactor);
      summariser.sidechain = true;
      summariser.agentId = `acompact-${rng.hex(6)}`;
      exchange(summariser);
      subagents[`agent-${summariser.agentId}.jsonl`] = summariser.lines;
    }
    exchange(s);
    if (rng.chance(0.015)) {
      const agent = newContext(rng, vocabulary, sessionId, cwd, s.time, sizeFactor);
      agent.sidechain = true;
      agent.agentId = rng.hex(7);
      const count = rng.int(2, 6);
      for (let j = 0; j < count; j++) exchange(agent);
      subagents[`agent-${agent.agentId}.jsonl`] = agent.lines;
    }
  }
  if (rng.chance(0.6))
    s.lines.push(JSON.stringify({ type: "ai-title", aiTitle: paragraph(rng, vocabulary, rng.int(3, 8)), sessionId }));
  return { sessionId, main: s.lines, subagents, compacted };
}

/** Writes a corpus under `<root>/projects/` (a folder that plays the role of ~/.claude). */
export function writeSyntheticCorpus(root: string, scale: CorpusScale): CorpusStats {
  const started = Date.now();
  const rng = createRng(scale.seed);
  const vocabulary = buildVocabulary(rng);
  const projects = Array.from(
    { length: scale.projects ?? Math.max(1, Math.min(60, Math.ceil(scale.sessions / 150))) },
    (_, i) => `/home/dev/${vocabulary.words[100 + i * 7]}-${i}`,
  );
  const stats: CorpusStats = {
    ...scale,
    root,
    projects: projects.length,
    files: 0,
    subagentFiles: 0,
    compactedSessions: 0,
    bytes: 0,
    lines: 0,
    generatedMs: 0,
  };
  const write = (path: string, lines: string[]) => {
    const text = `${lines.join("\n")}\n`;
    writeFileSync(path, text);
    stats.files++;
    stats.lines += lines.length;
    stats.bytes += Buffer.byteLength(text);
  };
  for (let i = 0; i < scale.sessions; i++) {
    const cwd = projects[Math.min(projects.length - 1, Math.floor(projects.length * rng.next() ** 1.5))] as string;
    const projectDir = join(root, "projects", cwd.replace(/[^A-Za-z0-9]/g, "-"));
    mkdirSync(projectDir, { recursive: true });
    const session = generateSession(rng, vocabulary, cwd, scale.sizeFactor);
    write(join(projectDir, `${session.sessionId}.jsonl`), session.main);
    if (session.compacted) stats.compactedSessions++;
    const names = Object.keys(session.subagents);
    if (names.length > 0) mkdirSync(join(projectDir, session.sessionId, "subagents"), { recursive: true });
    for (const name of names) {
      write(join(projectDir, session.sessionId, "subagents", name), session.subagents[name] ?? []);
      stats.subagentFiles++;
    }
  }
  stats.generatedMs = Date.now() - started;
  return stats;
}

/** The cached corpus for this scale (generated on first use under os.tmpdir(), reused afterwards). */
export function ensureSyntheticCorpus(scale: CorpusScale, log: (line: string) => void = () => {}): CorpusStats {
  const folders = scale.projects === undefined ? "" : `-p${scale.projects}`;
  const root = join(tmpdir(), `ctx-bench-corpus-v1-${scale.sessions}-${scale.sizeFactor}-${scale.seed}${folders}`);
  const marker = join(root, "corpus.json");
  if (existsSync(marker)) return JSON.parse(readFileSync(marker, "utf8")) as CorpusStats;
  rmSync(root, { recursive: true, force: true });
  log(`generating ${scale.sessions} synthetic sessions (size factor ${scale.sizeFactor}) in ${root} …`);
  const stats = writeSyntheticCorpus(root, scale);
  writeFileSync(marker, JSON.stringify(stats));
  return stats;
}

/** Words of the corpus vocabulary for building search queries (same seed = same vocabulary). */
export function corpusVocabulary(seed: number): Vocabulary {
  return buildVocabulary(createRng(seed));
}
