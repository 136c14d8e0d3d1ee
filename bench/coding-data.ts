// Loads the coding split of the retrieval benchmark (../shared/eval/coding: real Claude Code sessions and the queries
// a developer would type to get one back; read at run time, never copied here; CTX_CODING_EVAL_DIR points elsewhere),
// plus our own queries from bench/coding-queries.jsonl when that file exists (reported apart). A query's `repo` names
// whose history it belongs to; "tests/fixtures/claude" is this repository's fixture folder, a person of its own.
import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import * as z from "zod/mini";

const repoRoot = resolve(fileURLToPath(new URL(".", import.meta.url)), "..");

/** The `repo` of a query over this repository's own fixture transcripts. */
export const FIXTURE_REPO = "tests/fixtures/claude";
export const OWN_QUERIES_PATH = join(repoRoot, "bench", "coding-queries.jsonl");

const SessionRowSchema = z.looseObject({ repo: z.string(), sessionId: z.string(), folder: z.string() });

const QueryLineSchema = z.looseObject({
  id: z.string(),
  query: z.string().check(z.minLength(1)),
  kind: z.string(),
  relevant_session_ids: z.array(z.string()).check(z.minLength(1)),
  repo: z.string(),
});

/** One transcript, where it is read from and the project folder it sits in. */
export interface CodingSession {
  repo: string;
  sessionId: string;
  folder: string;
  /** The transcript file. */
  path: string;
}

export type CodingQuery = z.infer<typeof QueryLineSchema> & {
  /** `given`: the eval folder's queries.jsonl; `own`: bench/coding-queries.jsonl. */
  source: "given" | "own";
};

export interface CodingData {
  dir: string;
  /** Every session a query can be asked of: the split's, and the fixtures' when an own query names them. */
  sessions: CodingSession[];
  queries: CodingQuery[];
  /** The own queries' file when it was read. */
  ownQueries: string | null;
}

/** The coding folder, or null when the data is absent (the benchmark then skips it with a message). */
export function findCodingDir(env: NodeJS.ProcessEnv = process.env): string | null {
  const roots = env.CTX_CODING_EVAL_DIR
    ? [env.CTX_CODING_EVAL_DIR]
    : [join(repoRoot, "../shared/eval"), join(repoRoot, "../../shared/eval")];
  for (const root of roots) {
    for (const dir of [join(root, "coding"), root]) {
      if (
        existsSync(join(dir, "queries.jsonl")) &&
        existsSync(join(dir, "sessions.tsv")) &&
        existsSync(join(dir, "claude", "projects"))
      ) {
        return dir;
      }
    }
  }
  return null;
}

/** Rows of a tab-separated file with a header line, as objects keyed by the header's names. */
export function readTsv(path: string): Record<string, string>[] {
  const [header, ...rows] = readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "");
  const names = (header ?? "").split("\t");
  return rows.map((row) => {
    const cells = row.split("\t");
    return Object.fromEntries(names.map((name, i) => [name, cells[i] ?? ""]));
  });
}

function readQueries(path: string, source: CodingQuery["source"]): CodingQuery[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .map((line, i) => ({ line, number: i + 1 }))
    .filter(({ line }) => line.trim() !== "")
    .map(({ line, number }) => {
      let json: unknown;
      try {
        json = JSON.parse(line);
      } catch (error) {
        throw new Error(`${path}:${number}: not JSON (${(error as Error).message})`);
      }
      const parsed = QueryLineSchema.safeParse(json);
      if (!parsed.success) throw new Error(`${path}:${number}: ${parsed.error.message}`);
      return { ...parsed.data, source };
    });
}

/** The fixture folder's sessions: every transcript directly under a project folder (subagents travel with theirs). */
export function fixtureSessions(claudeDir: string, repo = FIXTURE_REPO): CodingSession[] {
  const projects = join(claudeDir, "projects");
  return readdirSync(projects, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((folder) =>
      readdirSync(join(projects, folder.name), { withFileTypes: true })
        .filter((entry) => entry.isFile() && entry.name.endsWith(".jsonl"))
        .map((entry) => ({
          repo,
          sessionId: entry.name.slice(0, -".jsonl".length),
          folder: folder.name,
          path: join(projects, folder.name, entry.name),
        })),
    )
    .sort((a, b) => (a.sessionId < b.sessionId ? -1 : 1));
}

export interface LoadCodingOptions {
  /** Our own queries; absent or missing: none. */
  ownQueries?: string;
  /** Where FIXTURE_REPO is read from (this repository's tests/fixtures/claude). */
  fixtureDir?: string;
}

export function loadCoding(dir: string, options: LoadCodingOptions = {}): CodingData {
  const sessions: CodingSession[] = readTsv(join(dir, "sessions.tsv")).map((row, i) => {
    const parsed = SessionRowSchema.safeParse(row);
    if (!parsed.success) throw new Error(`${join(dir, "sessions.tsv")}:${i + 2}: ${parsed.error.message}`);
    const { repo, sessionId, folder } = parsed.data;
    return { repo, sessionId, folder, path: join(dir, "claude", "projects", folder, `${sessionId}.jsonl`) };
  });
  const ownPath = options.ownQueries !== undefined && existsSync(options.ownQueries) ? options.ownQueries : null;
  const queries = [...readQueries(join(dir, "queries.jsonl"), "given")];
  if (ownPath !== null) queries.push(...readQueries(ownPath, "own"));
  if (queries.some((q) => q.repo === FIXTURE_REPO)) {
    sessions.push(...fixtureSessions(options.fixtureDir ?? join(repoRoot, FIXTURE_REPO)));
  }
  // An answer key that names a session its person does not have would score a miss that is no one's: stop instead.
  const known = new Set(sessions.map((s) => `${s.repo}\n${s.sessionId}`));
  for (const q of queries) {
    const unknown = q.relevant_session_ids.filter((id) => !known.has(`${q.repo}\n${id}`));
    if (unknown.length > 0) {
      throw new Error(`coding query ${q.id} (${q.source}): ${unknown.join(", ")} is not a session of ${q.repo}`);
    }
  }
  for (const s of sessions) {
    if (!existsSync(s.path)) throw new Error(`coding session ${s.sessionId}: ${s.path} is missing`);
  }
  return { dir, sessions, queries, ownQueries: ownPath };
}

/**
 * A folder that plays the role of ~/.claude holding these sessions only, as Claude Code lays them out
 * (`projects/<folder>/<id>.jsonl`, a session's subagents beside it). Copies: the indexer does not follow symlinks.
 */
export function layoutClaudeDir(target: string, sessions: readonly CodingSession[]): string {
  for (const session of sessions) {
    const folder = join(target, "projects", session.folder);
    mkdirSync(folder, { recursive: true });
    copyFileSync(session.path, join(folder, `${session.sessionId}.jsonl`));
    const companion = session.path.slice(0, -".jsonl".length);
    if (existsSync(companion)) cpSync(companion, join(folder, session.sessionId), { recursive: true });
  }
  return target;
}

/** Each person's sessions and queries (the repositories that have queries), in query order. */
export function personsOf(data: CodingData): { repo: string; sessions: CodingSession[]; queries: CodingQuery[] }[] {
  const repos = [...new Set(data.queries.map((q) => q.repo))];
  return repos.map((repo) => ({
    repo,
    sessions: data.sessions.filter((s) => s.repo === repo),
    queries: data.queries.filter((q) => q.repo === repo),
  }));
}
