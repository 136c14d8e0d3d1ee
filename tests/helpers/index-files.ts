// A transcript file's row in a session index, for tests that write chunks by hand (IndexWriter.insertChunk takes the
// file's id): as a sync records a file, with nothing of it read yet.
import type { IndexWriter } from "../../src/search/session-index/writer.ts";

/** The file's id, its row added (or kept) as `kind` of `sessionId`. */
export function putFileRow(
  writer: IndexWriter,
  path: string,
  sessionId: string,
  kind: "main" | "subagent" = "main",
): number {
  return writer.putFile({ path, sessionId, kind, size: 0, mtimeMs: 0, offset: 0, head: "", messages: 0 });
}
