// The committed golden files pin the v1 container format: each decodes to exactly GOLDEN_VALUE, and
// encoding GOLDEN_VALUE again gives the same bytes. If this fails, the on-disk format changed: that
// needs a format version bump, a migration (src/store/files/migrate.ts) and new golden files, not a new snapshot.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CODECS } from "../../src/store/files/codecs.ts";
import { decodeContainer, encodeContainer, HEADER_BYTES } from "../../src/store/files/container.ts";
import { GOLDEN_VALUE } from "../golden/golden-value.ts";

const goldenFolder = join(import.meta.dirname, "..", "golden");

describe.each(CODECS)("tests/golden/v1-%s.ctx", (codec) => {
  const path = join(goldenFolder, `v1-${codec}.ctx`);
  const golden = new Uint8Array(readFileSync(path));

  it("decodes to the exact golden value", () => {
    const decoded = decodeContainer(golden, path);
    expect(decoded.formatVersion).toBe(1);
    expect(decoded.codec).toBe(codec);
    expect(decoded.value).toStrictEqual(GOLDEN_VALUE);
  });

  it("has the same header (hence the same msgpack bytes) when the value is encoded again", () => {
    const again = encodeContainer(GOLDEN_VALUE, codec);
    // Bytes 0-11 (magic, version, codec, flags, uncompressed length) and 16-47 (SHA-256 of the msgpack).
    expect(Buffer.from(again.subarray(0, 12)).equals(golden.subarray(0, 12))).toBe(true);
    expect(Buffer.from(again.subarray(16, HEADER_BYTES)).equals(golden.subarray(16, HEADER_BYTES))).toBe(true);
  });
});

// lz4js is pure JavaScript pinned in the lockfile, so its output is fixed. zstd output depends on the
// libzstd inside Node, which may change between Node releases: for zstd only the msgpack bytes are pinned.
describe.each(["none", "lz4"] as const)("tests/golden/v1-%s.ctx (deterministic codec)", (codec) => {
  it("is what encoding the golden value gives, byte for byte", () => {
    const golden = readFileSync(join(goldenFolder, `v1-${codec}.ctx`));
    expect(Buffer.from(encodeContainer(GOLDEN_VALUE, codec)).equals(golden)).toBe(true);
  });
});
