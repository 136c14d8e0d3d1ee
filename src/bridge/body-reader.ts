// Reads a webhook body with a running cap (issue #22, break 6): never more than `cap` bytes are held, and the
// reading stops as soon as the `token` field shows a wrong token. The rest of a body is left unread, so a flood
// of large or unauthenticated bodies costs at most `cap` bytes each.
import { createTokenScanner } from "../core/bridge/webhook.ts";

export type CappedBody =
  | { kind: "whole"; body: Uint8Array }
  /** The first `cap` bytes of a larger body. */
  | { kind: "over-cap"; prefix: Uint8Array }
  | { kind: "wrong-token" };

export async function readBodyCapped(
  stream: ReadableStream<Uint8Array> | null,
  cap: number,
  tokenIsWrong: (token: string) => boolean,
): Promise<CappedBody> {
  if (stream === null) return { kind: "whole", body: new Uint8Array(0) };
  const reader = stream.getReader();
  const scanner = createTokenScanner();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let token: string | undefined;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { kind: "whole", body: Buffer.concat(chunks, size) };
      const room = cap - size;
      const taken = value.length > room ? value.subarray(0, room) : value;
      chunks.push(taken);
      size += taken.length;
      if (token === undefined) {
        token = scanner.push(taken);
        if (token !== undefined && tokenIsWrong(token)) return { kind: "wrong-token" };
      }
      if (value.length > room) return { kind: "over-cap", prefix: Buffer.concat(chunks, size) };
    }
  } finally {
    // Not cancelled: that would destroy the connection before the answer is sent. The answer closes it instead.
    reader.releaseLock();
  }
}
