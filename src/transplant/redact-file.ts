// A transcript redacted into a staged copy as it is read: pieces of whole lines through the redactor the team push
// uses (store/snapshots/redact-thread.ts redactTranscriptBytes: the same blocks, the same bytes), so memory holds a
// piece, never the transcript. Only the bytes there when it is opened are read (Claude Code may still be appending).
import { createHash } from "node:crypto";
import { open } from "node:fs/promises";
import { openForArchive } from "../store/archive/archive-container.ts";
import { redactTranscriptBytes } from "../store/snapshots/redact-thread.ts";

const PIECE_BYTES = 64 * 1024;

/** Writes `source` redacted to `target` (a new 0600 file); returns its size and SHA-256. */
export async function redactFileInto(
  source: string,
  target: string,
  allowlist: readonly string[],
): Promise<{ bytes: number; sha256: string }> {
  const input = await openForArchive(source);
  const output = await open(target, "wx", 0o600);
  const hash = createHash("sha256");
  let written = 0;
  const emit = async (raw: Uint8Array) => {
    if (raw.length === 0) return;
    const redacted = redactTranscriptBytes(raw, allowlist);
    hash.update(redacted);
    for (let at = 0; at < redacted.length; ) {
      at += (await output.write(redacted, at, redacted.length - at)).bytesWritten;
    }
    written += redacted.length;
  };
  try {
    const size = (await input.stat()).size;
    // One reused buffer: a fresh one per piece is garbage V8 collects late (bench/run.ts bundle).
    const piece = Buffer.allocUnsafe(PIECE_BYTES);
    let carry: Buffer = Buffer.alloc(0);
    for (let read = 0; read < size; ) {
      const { bytesRead } = await input.read(piece, 0, Math.min(piece.length, size - read), read);
      if (bytesRead === 0) break;
      read += bytesRead;
      const joined =
        carry.length === 0 ? piece.subarray(0, bytesRead) : Buffer.concat([carry, piece.subarray(0, bytesRead)]);
      // Whole lines only: a secret is never cut in two between pieces.
      const lastNewline = joined.lastIndexOf(0x0a);
      await emit(joined.subarray(0, lastNewline + 1));
      // Kept past the next read: copied out of the reused buffer.
      carry = Buffer.from(joined.subarray(lastNewline + 1));
    }
    await emit(carry);
    await output.sync();
  } finally {
    await input.close();
    await output.close();
  }
  return { bytes: written, sha256: hash.digest("hex") };
}
