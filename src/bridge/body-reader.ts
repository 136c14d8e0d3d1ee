// Reads a webhook body with a running cap (issue #22, break 6): never more than `cap` bytes are held, and the
// reading stops as soon as the `token` field shows a wrong token. The rest of a body is left unread, so a flood
// of large or unauthenticated bodies costs at most `cap` bytes each.
import { createTokenScanner } from "../core/bridge/webhook.ts";

export type CappedBody =
  | { kind: "whole"; body: Uint8Array }
  /** The first `cap` bytes of a larger body. */
  | { kind: "over-cap"; prefix: Uint8Array }
  | { kind: "wrong-token" };

/** The first buffer's size when the sender does not say (no Content-Length); it doubles as the body grows. */
const FIRST_BUFFER_BYTES = 64 * 1024;

/**
 * Reads `stream` into one buffer of at most `cap` bytes, sized from `declaredBytes` (Content-Length) when given,
 * so a body is held once, not as chunks plus their copy.
 */
export async function readBodyCapped(
  stream: ReadableStream<Uint8Array> | null,
  cap: number,
  declaredBytes: number | null,
  tokenIsWrong: (token: string) => boolean,
): Promise<CappedBody> {
  if (stream === null) return { kind: "whole", body: new Uint8Array(0) };
  const reader = stream.getReader();
  const scanner = createTokenScanner();
  let buffer = Buffer.allocUnsafe(Math.min(cap, declaredBytes ?? FIRST_BUFFER_BYTES));
  let size = 0;
  let token: string | undefined;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { kind: "whole", body: buffer.subarray(0, size) };
      const taken = value.length > cap - size ? value.subarray(0, cap - size) : value;
      if (size + taken.length > buffer.length) {
        const grown = Buffer.allocUnsafe(
          Math.min(cap, Math.max(buffer.length * 2, size + taken.length, FIRST_BUFFER_BYTES)),
        );
        buffer.copy(grown, 0, 0, size);
        buffer = grown;
      }
      buffer.set(taken, size);
      size += taken.length;
      if (token === undefined) {
        token = scanner.push(taken);
        if (token !== undefined && tokenIsWrong(token)) return { kind: "wrong-token" };
      }
      if (taken.length < value.length) return { kind: "over-cap", prefix: buffer.subarray(0, size) };
    }
  } finally {
    // Not cancelled: that would destroy the connection before the answer is sent. The answer closes it instead.
    reader.releaseLock();
  }
}
