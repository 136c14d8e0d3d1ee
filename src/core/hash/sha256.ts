// SHA-256, the same digest either way: small inputs are hashed in JavaScript (@noble/hashes), larger ones by
// node:crypto, and every one after the first larger one (a PreCompact's state and snapshot). Loading node:crypto costs
// a process more than hashing the small state files a hook reads and writes (it brings node:stream and crypto's own
// modules: bench/run.ts hooks, builtinCostMs["node:crypto"]); past the threshold, the native hash repays its loading.
// The build loads node:crypto at createHash's first call (build/builtin-imports.ts).
import { createHash } from "node:crypto";
import { sha256 as sha256Js } from "@noble/hashes/sha2.js";

/**
 * Inputs this long or longer go to node:crypto. A new process hashes slowly in JavaScript before its code is optimized
 * (a first 16 KiB about 3 ms, 128 KiB about 9 ms), so only the small state files a hook reads and writes are worth it.
 */
export const NATIVE_SHA256_FROM_BYTES = 16 * 1024;

/** Set once this process has loaded node:crypto for a hash: from then on the native hash is the faster one. */
let nativeLoaded = false;

/** The 32-byte SHA-256 digest of `bytes`. */
export function sha256(bytes: Uint8Array): Uint8Array {
  if (!nativeLoaded && bytes.byteLength < NATIVE_SHA256_FROM_BYTES) return sha256Js(bytes);
  nativeLoaded = true;
  return createHash("sha256").update(bytes).digest();
}
