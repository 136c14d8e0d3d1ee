// ctx_memory_search with scope "all": every project's auto-memory topics, from the session index (opened
// read-only). No index yet, or a damaged or outdated one, is an answer ("run `ctx index`"), not an error.
import { existsSync } from "node:fs";
import { dirname } from "node:path";
import * as z from "zod/mini";
import { isCtxError } from "../../errors.ts";
import { resolveIndexPath } from "../../search/paths.ts";
import { searchMemoryTopics } from "../../search/session-index/memory-topics.ts";
import { openSessionIndex } from "../../search/session-index/session-index.ts";

export const CROSS_PROJECT_LIMIT = 10;

export const CrossProjectSearchSchema = z.object({
  indexPath: z.string(),
  /** False when there is no usable session index: `note` says what to do. */
  available: z.boolean(),
  note: z.nullable(z.string()),
  hits: z.array(
    z.object({
      project: z.string(),
      name: z.string(),
      description: z.string(),
      type: z.string(),
      path: z.string(),
      similarity: z.number(),
    }),
  ),
});
export type CrossProjectSearch = z.infer<typeof CrossProjectSearchSchema>;

/** Topics of every project but the one in `ownDir` (searched from its folder directly), best first. */
export function searchAllProjects(env: NodeJS.ProcessEnv, query: string, ownDir: string): CrossProjectSearch {
  const indexPath = resolveIndexPath(env);
  const unavailable = (note: string): CrossProjectSearch => ({ indexPath, available: false, note, hits: [] });
  if (!existsSync(indexPath)) {
    return unavailable(`There is no session index at ${indexPath} yet: run \`ctx index\` to search every project.`);
  }
  let index: ReturnType<typeof openSessionIndex>;
  try {
    index = openSessionIndex(indexPath, { readonly: true });
  } catch (error) {
    if (!isCtxError(error)) throw error;
    return unavailable(`The session index cannot be searched (${error.message}): ${error.hint ?? "run `ctx index`"}.`);
  }
  try {
    const hits = searchMemoryTopics(index, query, { limit: CROSS_PROJECT_LIMIT + 20 })
      .filter((hit) => dirname(hit.path) !== ownDir)
      .slice(0, CROSS_PROJECT_LIMIT);
    return { indexPath, available: true, note: null, hits };
  } finally {
    index.close();
  }
}
