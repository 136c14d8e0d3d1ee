// SHA-256, the same digest either way: small inputs are hashed in JavaScript (@noble/hashes, about 240 MB/s here),
// large ones by node:crypto (about 1.8 GB/s). Loading node:crypto costs a process more than hashing the small state
// files a hook reads and writes (it brings node:stream and crypto's own modules: bench/run.ts hooks,
// builtinCostMs["node:crypto"]); past the threshold, the native hash's speed repays its loading. The build loads
// node:crypto at createHash's first call (build/builtin-imports.ts).
import { createHash } from "node:crypto";
import { sha256 as sha256Js } from "@noble/hashes/sha2.js";

/** Inputs this long or longer go to node:crypto: about 2 ms in JavaScript, about what loading node:crypto costs. */
export const NATIVE_SHA256_FROM_BYTES = 512 * 1024;

/** The 32-byte SHA-256 digest of `bytes`. */
export function sha256(bytes: Uint8Array): Uint8Array {
  if (bytes.byteLength < NATIVE_SHA256_FROM_BYTES) return sha256Js(bytes);
  return createHash("sha256").update(bytes).digest();
}
