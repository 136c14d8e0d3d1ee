import { describe, expect, it } from "vitest";
import { packUuid, readUuid } from "./uuid-value.ts";

const UUID = "0f8e2b6c-41d3-4a7e-9c15-b2a4d6e8f013";

describe("a chunk's last uuid as stored", () => {
  it("keeps a uuid of Claude Code's form as its 16 bytes and reads back the same string", () => {
    const packed = packUuid(UUID);
    expect(packed).toBeInstanceOf(Uint8Array);
    expect((packed as Uint8Array).length).toBe(16);
    expect(readUuid(packed)).toBe(UUID);
    expect(readUuid(packUuid("00000000-0000-0000-0000-000000000000"))).toBe("00000000-0000-0000-0000-000000000000");
  });

  it("keeps any other value as the text it is, so it reads back exactly", () => {
    for (const other of ["u1", UUID.toUpperCase(), `${UUID} `, UUID.replaceAll("-", ""), `{${UUID}}`, ""]) {
      expect(packUuid(other)).toBe(other);
      expect(readUuid(packUuid(other))).toBe(other);
    }
    expect(packUuid(null)).toBeNull();
    expect(readUuid(null)).toBeNull();
  });

  it("reads a value no writer stores as no uuid", () => {
    expect(readUuid(new Uint8Array(15))).toBeNull();
    expect(readUuid(new Uint8Array(17))).toBeNull();
    expect(readUuid(42)).toBeNull();
    // A view into a larger buffer reads only its own bytes.
    const larger = new Uint8Array(20);
    larger.set(packUuid(UUID) as Uint8Array, 4);
    expect(readUuid(larger.subarray(4))).toBe(UUID);
  });
});
