// Capturing a session's context from its transcript on disk: read from the last compaction boundary
// (tail-first, so the cost follows what came after it, not the file's size), extract, merge onto the
// previously saved state of the same session, hash the project files it touched (for `ctx diff`), and
// redact secrets. The result is what ctx persists, injects and returns.
import { createHash } from "node:crypto";
import { type ContextState, ContextStateBuilder, type FileAccess } from "../../core/context/extract.ts";
import { boundForExtraction } from "../../core/context/extract-bounds.ts";
import { mergeContextStates } from "../../core/context/merge.ts";
import { redactValue } from "../../core/redact/redact.ts";
import { openRegularFile } from "../files/open-regular.ts";
import { readSinceLastCompaction } from "../transcript/reader.ts";

/** Files larger than this are not hashed (their diff shows "not tracked"). */
const MAX_HASHED_BYTES = 8 * 1024 * 1024;
const MAX_HASHED_FILES = 200;

export interface CaptureInput {
  projectRoot: string;
  sessionId: string;
  transcriptPath: string;
  now: Date;
  /** The saved state, merged under the new extraction when it belongs to the same session. */
  previous: ContextState | null;
  allowlist: readonly string[];
}

export interface CaptureResult {
  state: ContextState;
  redactions: number;
  boundaryOffset: number | null;
  bytesRead: number;
}

export async function captureContextState(input: CaptureInput): Promise<CaptureResult> {
  const since = await readSinceLastCompaction(input.transcriptPath);
  const builder = new ContextStateBuilder({
    sessionId: input.sessionId,
    projectRoot: input.projectRoot,
    transcriptPath: input.transcriptPath,
    now: input.now,
  });
  let redactions = 0;
  // Each entry is redacted before extraction: extraction trims long texts, and a secret cut in half by a
  // trim no longer matches its pattern. Redacting before the merge also keeps the merge's de-duplication
  // working (the saved state is already redacted).
  // Only what extraction can read is redacted (core/context/extract-bounds.ts): a tool's long output is cut first.
  for await (const line of since.entries) {
    const { value, count } = redactValue(boundForExtraction(line.entry), { allowlist: input.allowlist });
    redactions += count;
    builder.add(value);
  }
  // Both sides are redacted already: the entries above, and the saved state when it was captured.
  const merged = mergeContextStates(input.previous, builder.build());
  return {
    state: { ...merged, files: await hashProjectFiles(merged.files) },
    redactions,
    boundaryOffset: since.boundaryOffset,
    bytesRead: since.entries.stats.bytesRead,
  };
}

/** sha256 of each in-project file as it is on disk now; null for a file gone, unreadable or too large. */
export async function hashProjectFiles(files: readonly FileAccess[]): Promise<FileAccess[]> {
  const recent = new Set(
    files
      .filter((f) => f.inProject)
      .slice(-MAX_HASHED_FILES)
      .map((f) => f.path),
  );
  return Promise.all(
    files.map(async (file) => (recent.has(file.path) ? { ...file, contentHash: await hashFile(file.path) } : file)),
  );
}

export async function hashFile(path: string): Promise<string | null> {
  // Regular files only: a named pipe the session wrote to would block a plain open until a writer came.
  const handle = await openRegularFile(path).catch(() => null);
  if (handle === null) return null;
  try {
    const info = await handle.stat();
    if (!info.isFile() || info.size > MAX_HASHED_BYTES) return null;
    return `sha256:${createHash("sha256")
      .update(await handle.readFile())
      .digest("hex")}`;
  } catch {
    return null;
  } finally {
    await handle.close();
  }
}
