// Checks our own coding-session queries (bench/coding-queries.jsonl): each is well formed, its id unique, its kind
// known, its relevant sessions present, and it shares no run of four words with its relevant session's text (user
// and assistant messages, tool inputs and results, summaries), so a query tests retrieval, not copying.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import * as z from "zod/mini";
import { FIXTURE_REPO, findCodingDir, readTsv } from "./coding-data.ts";

export const CODING_QUERY_KINDS = ["same-task", "continue", "error", "vague"] as const;

const CodingQuerySchema = z.looseObject({
  id: z.string(),
  query: z.string(),
  kind: z.string(),
  relevant_session_ids: z.array(z.string()),
  repo: z.string(),
  part: z.optional(z.string()),
});
export type CodingQuery = z.infer<typeof CodingQuerySchema>;

export type CodingQueryProblem =
  | { kind: "bad-line"; line: number; message: string }
  | { kind: "duplicate-id"; id: string }
  | { kind: "unknown-kind"; id: string; value: string }
  | { kind: "bad-part"; id: string; value: string }
  | { kind: "no-relevant-session"; id: string }
  | { kind: "unknown-session"; id: string; sessionId: string }
  | { kind: "wrong-repo"; id: string; sessionId: string; expected: string; actual: string }
  | { kind: "copied-words"; id: string; sessionId: string; words: string };

/** Runs of this many words may not be shared between a query and its session. */
export const MAX_SHARED_RUN = 4;

/** Lower-cased words with punctuation dropped: apostrophes join (`don't` -> `dont`), anything else separates. */
export function queryWords(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/['\u2019]/g, "")
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== "");
}

/** Parses the JSONL text of a query file; a line that is not a query object is reported, not thrown. */
export function parseCodingQueries(text: string): { queries: CodingQuery[]; problems: CodingQueryProblem[] } {
  const queries: CodingQuery[] = [];
  const problems: CodingQueryProblem[] = [];
  text.split("\n").forEach((line, i) => {
    if (line.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      problems.push({ kind: "bad-line", line: i + 1, message: (error as Error).message });
      return;
    }
    const parsed = CodingQuerySchema.safeParse(value);
    if (parsed.success) queries.push(parsed.data);
    else problems.push({ kind: "bad-line", line: i + 1, message: parsed.error.message });
  });
  return { queries, problems };
}

/**
 * Session id -> its transcript files, for every `<folder>/<id>.jsonl` under the given Claude `projects` folders.
 * A session's subagent transcripts (`<folder>/<id>/subagents/*.jsonl`) belong to it: their words count as its own.
 */
export function findSessionFiles(projectsDirs: readonly string[]): Map<string, string[]> {
  const sessions = new Map<string, string[]>();
  for (const projects of projectsDirs) {
    for (const folder of readdirSync(projects, { withFileTypes: true })) {
      if (!folder.isDirectory()) continue;
      const folderPath = join(projects, folder.name);
      for (const entry of readdirSync(folderPath, { withFileTypes: true })) {
        if (!entry.isFile() || !entry.name.endsWith(".jsonl")) continue;
        const id = entry.name.slice(0, -".jsonl".length);
        const files = sessions.get(id) ?? [];
        files.push(join(folderPath, entry.name));
        const subagents = join(folderPath, id, "subagents");
        if (existsSync(subagents)) {
          for (const name of readdirSync(subagents).sort()) {
            if (name.endsWith(".jsonl")) files.push(join(subagents, name));
          }
        }
        sessions.set(id, files);
      }
    }
  }
  return sessions;
}

function collectStrings(value: unknown, into: string[]): void {
  if (typeof value === "string") {
    into.push(value);
  } else if (value !== null && typeof value === "object") {
    for (const item of Object.values(value)) collectStrings(item, into);
  }
}

/**
 * The text a session shows a reader or an index: every string value under `message` (prompts, replies, tool inputs,
 * tool results), `toolUseResult`, a summary line's `summary` and a system line's `content`. Lines that are not
 * JSON (some published transcripts were hand-redacted) are skipped.
 */
export function sessionStrings(files: readonly string[]): string[] {
  const strings: string[] = [];
  for (const file of files) {
    for (const line of readFileSync(file, "utf8").split("\n")) {
      if (line.trim() === "") continue;
      let record: Record<string, unknown>;
      try {
        record = JSON.parse(line) as Record<string, unknown>;
      } catch {
        continue;
      }
      if (record === null || typeof record !== "object") continue;
      collectStrings(record.message, strings);
      collectStrings(record.toolUseResult, strings);
      if (typeof record.summary === "string") strings.push(record.summary);
      if (record.type === "system" && typeof record.content === "string") strings.push(record.content);
    }
  }
  return strings;
}

/** Every run of `n` consecutive words inside one string (runs never cross from one string into the next). */
export function wordRuns(strings: readonly string[], n = MAX_SHARED_RUN): Set<string> {
  const runs = new Set<string>();
  for (const text of strings) {
    const words = queryWords(text);
    for (let i = 0; i + n <= words.length; i++) runs.add(words.slice(i, i + n).join(" "));
  }
  return runs;
}

/** The runs of `n` words of `query` that also occur in `runs`, in query order. */
export function sharedRuns(query: string, runs: ReadonlySet<string>, n = MAX_SHARED_RUN): string[] {
  const words = queryWords(query);
  const shared: string[] = [];
  for (let i = 0; i + n <= words.length; i++) {
    const run = words.slice(i, i + n).join(" ");
    if (runs.has(run) && !shared.includes(run)) shared.push(run);
  }
  return shared;
}

export interface CheckOptions {
  /** Session id -> its source repository; when given, a query's `repo` must match its sessions'. */
  repoBySession?: ReadonlyMap<string, string>;
}

/**
 * Every problem with `queries` against the sessions under `projectsDirs` (Claude `projects` folders). An empty list
 * means the set is usable. Each session's text is read once however many queries name it.
 */
export function checkCodingQueries(
  projectsDirs: string | readonly string[],
  queries: readonly CodingQuery[],
  options: CheckOptions = {},
): CodingQueryProblem[] {
  const sessionFiles = findSessionFiles(typeof projectsDirs === "string" ? [projectsDirs] : projectsDirs);
  const problems: CodingQueryProblem[] = [];
  const seen = new Set<string>();
  const runsBySession = new Map<string, Set<string>>();
  for (const query of queries) {
    if (seen.has(query.id)) problems.push({ kind: "duplicate-id", id: query.id });
    seen.add(query.id);
    if (!(CODING_QUERY_KINDS as readonly string[]).includes(query.kind)) {
      problems.push({ kind: "unknown-kind", id: query.id, value: query.kind });
    }
    if (query.part !== undefined && query.part !== "late") {
      problems.push({ kind: "bad-part", id: query.id, value: query.part });
    }
    if (query.relevant_session_ids.length === 0) problems.push({ kind: "no-relevant-session", id: query.id });
    for (const sessionId of query.relevant_session_ids) {
      const files = sessionFiles.get(sessionId);
      if (files === undefined) {
        problems.push({ kind: "unknown-session", id: query.id, sessionId });
        continue;
      }
      const expected = options.repoBySession?.get(sessionId);
      if (expected !== undefined && expected !== query.repo) {
        problems.push({ kind: "wrong-repo", id: query.id, sessionId, expected, actual: query.repo });
      }
      let runs = runsBySession.get(sessionId);
      if (runs === undefined) {
        runs = wordRuns(sessionStrings(files));
        runsBySession.set(sessionId, runs);
      }
      for (const words of sharedRuns(query.query, runs)) {
        problems.push({ kind: "copied-words", id: query.id, sessionId, words });
      }
    }
  }
  return problems;
}

/** One line per problem, for a person. */
export function describeProblem(problem: CodingQueryProblem): string {
  switch (problem.kind) {
    case "bad-line":
      return `line ${problem.line}: not a query (${problem.message})`;
    case "duplicate-id":
      return `${problem.id}: id used more than once`;
    case "unknown-kind":
      return `${problem.id}: unknown kind "${problem.value}" (one of ${CODING_QUERY_KINDS.join(", ")})`;
    case "bad-part":
      return `${problem.id}: unknown part "${problem.value}" (only "late")`;
    case "no-relevant-session":
      return `${problem.id}: no relevant session`;
    case "unknown-session":
      return `${problem.id}: session ${problem.sessionId} is not in the corpus`;
    case "wrong-repo":
      return `${problem.id}: repo "${problem.actual}" but session ${problem.sessionId} is from "${problem.expected}"`;
    case "copied-words":
      return `${problem.id}: shares "${problem.words}" with session ${problem.sessionId}`;
  }
}

/** Counts by a field's value, for the summary the script prints. */
function countBy<T>(items: readonly T[], key: (item: T) => string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) counts[key(item)] = (counts[key(item)] ?? 0) + 1;
  return counts;
}

const repoRoot = resolve(fileURLToPath(new URL(".", import.meta.url)), "..");
export const FIXTURE_PROJECTS = join(repoRoot, FIXTURE_REPO, "projects");

/** Session id -> repository, from sessions.tsv. */
export function readSessionRepos(tsvPath: string): Map<string, string> {
  return new Map(readTsv(tsvPath).flatMap((row) => (row.sessionId ? [[row.sessionId, row.repo ?? ""] as const] : [])));
}

function main(): number {
  const queriesPath = process.argv[2] ?? join(repoRoot, "bench/coding-queries.jsonl");
  const { queries, problems } = parseCodingQueries(readFileSync(queriesPath, "utf8"));
  const evalDir = findCodingDir();
  const projects = [FIXTURE_PROJECTS];
  const repoBySession = new Map<string, string>();
  for (const id of findSessionFiles([FIXTURE_PROJECTS]).keys()) repoBySession.set(id, FIXTURE_REPO);
  let checked = queries;
  if (evalDir === null) {
    console.error("ctx: ../shared/eval/coding not found; checking the tests/fixtures/claude queries only");
    checked = queries.filter((q) => q.repo === FIXTURE_REPO);
  } else {
    projects.push(join(evalDir, "claude", "projects"));
    for (const [id, repo] of readSessionRepos(join(evalDir, "sessions.tsv"))) repoBySession.set(id, repo);
    // Our ids and texts must not collide with the given set's.
    const given = parseCodingQueries(readFileSync(join(evalDir, "queries.jsonl"), "utf8")).queries;
    const givenIds = new Set(given.map((q) => q.id));
    const givenTexts = new Set(given.map((q) => queryWords(q.query).join(" ")));
    for (const q of queries) {
      if (givenIds.has(q.id)) problems.push({ kind: "duplicate-id", id: q.id });
      if (givenTexts.has(queryWords(q.query).join(" "))) {
        problems.push({ kind: "copied-words", id: q.id, sessionId: "(given queries.jsonl)", words: q.query });
      }
    }
  }
  problems.push(...checkCodingQueries(projects, checked, { repoBySession }));
  const sessions = new Set(checked.flatMap((q) => q.relevant_session_ids));
  const summary = {
    queries: checked.length,
    sessionsCovered: sessions.size,
    byKind: countBy(checked, (q) => q.kind),
    byRepo: countBy(checked, (q) => q.repo),
    late: checked.filter((q) => q.part === "late").length,
    problems: problems.length,
  };
  for (const problem of problems) console.log(describeProblem(problem));
  console.log(JSON.stringify(summary, null, 2));
  return problems.length === 0 ? 0 : 1;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = main();
}
