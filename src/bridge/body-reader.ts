// Reads a webhook body with a running cap (issue #22, break 6): never more than `cap` bytes are held, and the
// reading stops as soon as the `token` field shows a wrong token. The rest of a body is left unread, so a flood
// of large or unauthenticated bodies costs at most `cap` bytes each. With a gate (issue 31), a body is held in a
// small buffer until its token shows, the gate decides whether it may go on (a slot for it), and the gate's signal
// stops a read whose token is late: a sender that trickles without the token holds a few KiB, not a slot.
import { createTokenScanner } from "../core/bridge/webhook.ts";

export type CappedBody =
  | { kind: "whole"; body: Uint8Array }
  /** The first `cap` bytes of a larger body. */
  | { kind: "over-cap"; prefix: Uint8Array }
  | { kind: "wrong-token" }
  /** The gate stopped the read (its token did not show in time, or it made room for a newer request). */
  | { kind: "dropped" }
  /** The gate had no slot for the body. */
  | { kind: "busy" };

/** Who may read on: what ./read-slots.ts hands a request. */
export interface ReadGate {
  signal: AbortSignal;
  /** Bytes held before the token shows; past them without one, `holdAsStranger` decides. */
  firstBytes: number;
  /** The right token showed; false: no slot for the body. */
  verify(): boolean;
  holdAsStranger(): boolean;
}

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
  gate: ReadGate | null = null,
): Promise<CappedBody> {
  if (stream === null) return { kind: "whole", body: new Uint8Array(0) };
  if (gate?.signal.aborted === true) return { kind: "dropped" };
  const reader = stream.getReader();
  const scanner = createTokenScanner();
  // Until the gate lets the body on, it is held in at most `firstBytes`; then sized from what the sender declared.
  let admitted = gate === null;
  const declared = Math.min(cap, declaredBytes ?? FIRST_BUFFER_BYTES);
  let buffer = Buffer.allocUnsafe(admitted ? declared : Math.min(declared, gate?.firstBytes ?? declared));
  let size = 0;
  let token: string | undefined;
  const stopped =
    gate === null
      ? null
      : new Promise<null>((resolve) => {
          if (gate.signal.aborted) resolve(null);
          gate.signal.addEventListener("abort", () => resolve(null), { once: true });
        });
  try {
    for (;;) {
      const reading = reader.read();
      const chunk = stopped === null ? await reading : await Promise.race([reading, stopped]);
      if (chunk === null) {
        // Released below with the read still pending: its rejection is expected.
        reading.catch(() => {});
        return { kind: "dropped" };
      }
      const { done, value } = chunk;
      if (done) return { kind: "whole", body: buffer.subarray(0, size) };
      const taken = value.length > cap - size ? value.subarray(0, cap - size) : value;
      // Decided before the bytes are kept: a body not let on never holds more than `firstBytes`.
      if (token === undefined) {
        token = scanner.push(taken);
        if (token !== undefined) {
          if (tokenIsWrong(token)) return { kind: "wrong-token" };
          // Verified the first time the token shows, even when already read as a stranger: that ends its deadline
          // and turns its strangers' slot into a verified one.
          if (gate !== null && !gate.verify()) return { kind: "busy" };
          admitted = true;
        }
      }
      if (!admitted && gate !== null && size + taken.length > gate.firstBytes) {
        if (!gate.holdAsStranger()) return { kind: "busy" };
        admitted = true;
      }
      if (size + taken.length > buffer.length) {
        const floor = admitted ? Math.max(FIRST_BUFFER_BYTES, declared) : 0;
        const grown = Buffer.allocUnsafe(Math.min(cap, Math.max(buffer.length * 2, size + taken.length, floor)));
        buffer.copy(grown, 0, 0, size);
        buffer = grown;
      }
      buffer.set(taken, size);
      size += taken.length;
      if (taken.length < value.length) return { kind: "over-cap", prefix: buffer.subarray(0, size) };
    }
  } finally {
    // Not cancelled: that would destroy the connection before the answer is sent. The answer closes it instead.
    reader.releaseLock();
  }
}
