// Loads the LoCoMo-derived session-retrieval set (../shared/eval/locomo, CC BY-NC 4.0: read at run time, never
// copied into this repository). CTX_EVAL_DIR points elsewhere (the folder holding `locomo/`, or `locomo/` itself).
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import * as z from "zod/mini";

const SessionLineSchema = z.looseObject({
  sessionId: z.string(),
  conversation: z.string(),
  session: z.number(),
  project: z.string(),
  projectDir: z.string(),
  start: z.string(),
  path: z.string(),
});
export type LocomoSession = z.infer<typeof SessionLineSchema>;

const QueryLineSchema = z.looseObject({
  id: z.string(),
  query: z.string(),
  relevant_session_ids: z.array(z.string()),
  category: z.number(),
  category_name: z.string(),
  conversation: z.string(),
  project: z.string(),
  evidence: z.array(z.string()),
});
export type LocomoQuery = z.infer<typeof QueryLineSchema> & {
  /** One session id per evidence item (dialog ids `D<session>:<turn>`). */
  evidenceSessions: string[];
};

export interface LocomoData {
  dir: string;
  /** The folder that plays the role of ~/.claude. */
  claudeDir: string;
  sessions: LocomoSession[];
  queries: LocomoQuery[];
}

const repoRoot = resolve(fileURLToPath(new URL(".", import.meta.url)), "..");

/** The locomo folder, or null when the data is absent (the benchmark then skips with a message). */
export function findLocomoDir(env: NodeJS.ProcessEnv = process.env): string | null {
  const roots = env.CTX_EVAL_DIR
    ? [env.CTX_EVAL_DIR]
    : [join(repoRoot, "../shared/eval"), join(repoRoot, "../../shared/eval")];
  for (const root of roots) {
    for (const dir of [join(root, "locomo"), root]) {
      if (existsSync(join(dir, "queries.jsonl")) && existsSync(join(dir, "claude", "projects"))) return dir;
    }
  }
  return null;
}

function readLines<T>(path: string, schema: z.ZodMiniType<T>): T[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line, i) => {
      const parsed = schema.safeParse(JSON.parse(line));
      if (!parsed.success) throw new Error(`${path}:${i + 1}: ${parsed.error.message}`);
      return parsed.data;
    });
}

/**
 * Evidence dialog ids name their session: `D8:6` is session 8. A few items in the source are irregular
 * (`D8:6; D9:17`, `D:11:26`, a bare `D`): every `D<n>:<turn>` found counts once, the rest is ignored.
 */
export function evidenceSessionNumbers(evidence: readonly string[]): number[] {
  const numbers: number[] = [];
  for (const item of evidence) {
    for (const match of item.matchAll(/D:?(\d+):\d+/g)) numbers.push(Number(match[1]));
  }
  return numbers;
}

export function loadLocomo(dir: string): LocomoData {
  const sessions = readLines(join(dir, "sessions.jsonl"), SessionLineSchema);
  const byNumber = new Map(sessions.map((s) => [`${s.conversation}#${s.session}`, s.sessionId]));
  const queries = readLines(join(dir, "queries.jsonl"), QueryLineSchema).map((q) => {
    const mapped = evidenceSessionNumbers(q.evidence)
      .map((n) => byNumber.get(`${q.conversation}#${n}`))
      .filter((id): id is string => id !== undefined);
    return { ...q, evidenceSessions: mapped.length > 0 ? mapped : [...q.relevant_session_ids] };
  });
  return { dir, claudeDir: join(dir, "claude"), sessions, queries };
}
