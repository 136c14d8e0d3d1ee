// Random hex for names that must not collide (temp files, lock tokens, id suffixes), never for secrets or anything
// an attacker must not guess: it comes from Math.random (V8 seeds its generator per process), because loading
// node:crypto for randomBytes costs a hook process about 6 ms (bench/run.ts hooks, builtinCostMs["node:crypto"]).

/** `bytes` random bytes as 2 × `bytes` lowercase hex digits. */
export function randomHex(bytes: number): string {
  let out = "";
  for (let i = 0; i < bytes; i++)
    out += Math.floor(Math.random() * 256)
      .toString(16)
      .padStart(2, "0");
  return out;
}
