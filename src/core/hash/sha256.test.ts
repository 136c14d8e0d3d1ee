import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { NATIVE_SHA256_FROM_BYTES, sha256 } from "./sha256.ts";

const native = (bytes: Uint8Array) => new Uint8Array(createHash("sha256").update(bytes).digest());

describe("sha256", () => {
  it("gives node:crypto's digest on both sides of the threshold", () => {
    for (const size of [0, 1, 55, 56, 64, 1000, NATIVE_SHA256_FROM_BYTES - 1, NATIVE_SHA256_FROM_BYTES, 3_000_001]) {
      const bytes = new Uint8Array(size);
      for (let i = 0; i < size; i++) bytes[i] = (i * 31 + 7) & 0xff;
      expect(new Uint8Array(sha256(bytes)), `size ${size}`).toEqual(native(bytes));
    }
  });

  it("hashes a view into a larger buffer, not the whole buffer", () => {
    const whole = new TextEncoder().encode("xxabcxx");
    expect(Buffer.from(sha256(whole.subarray(2, 5))).toString("hex")).toBe(
      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
    );
  });

  it("hashes a small input after a large one (node:crypto's turn by then) the same", () => {
    const small = new Uint8Array(100).fill(7);
    const large = new Uint8Array(NATIVE_SHA256_FROM_BYTES).fill(3);
    expect(new Uint8Array(sha256(large))).toEqual(native(large));
    expect(new Uint8Array(sha256(small))).toEqual(native(small));
  });
});
