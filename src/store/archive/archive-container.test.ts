import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, statSync, truncateSync, writeFileSync } from "node:fs";
import { open } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { zstdCompressSync } from "node:zlib";
import { beforeEach, describe, expect, it } from "vitest";
import { encodeContainer } from "../files/container.ts";
import { writeArchiveContainer } from "./archive-container.ts";
import { fzstdChunks, readArchiveContainer } from "./archive-container-read.ts";
import { PullError, PullReader } from "./pull-reader.ts";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "ctx-archive-container-"));
});

const sha = (data: Uint8Array) => createHash("sha256").update(data).digest("hex");

/** Bytes that compress poorly, so zstd's output is as large as its input: every buffer is crossed many times. */
function noisy(bytes: number, seed: number): Buffer {
  const out = Buffer.alloc(bytes);
  let x = seed;
  for (let i = 0; i < bytes; i++) {
    x = (x * 1_103_515_245 + 12_345) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}

async function write(target: string, files: { name: string; data: Buffer }[]): Promise<void> {
  const sources = files.map((file, i) => {
    const path = join(dir, `source-${i}`);
    writeFileSync(path, file.data);
    return { name: file.name, path, bytes: file.data.length };
  });
  const handle = await open(target, "w");
  try {
    await writeArchiveContainer(handle, sources, (streamed) => ({ streamed }));
  } finally {
    await handle.close();
  }
}

describe("the archive container as a stream", () => {
  it("round-trips files larger than every buffer it uses, byte for byte, into a sink", async () => {
    // 3 MiB: more than the 256 KiB read piece, the 16 KiB zstd chunk and the 1 MiB restore staging.
    const big = noisy(3 * 1024 * 1024 + 17, 7);
    const files = [
      { name: "projects/-p/s.jsonl", data: big },
      { name: "projects/-p/s/empty.jsonl", data: Buffer.alloc(0) },
      { name: "projects/-p/s/subagents/a.jsonl", data: Buffer.from('{"a":1}\n') },
    ];
    const target = join(dir, "s.ctx");
    await write(target, files);
    const received = new Map<string, Buffer[]>();
    let current = "";
    const read = await readArchiveContainer(target, {
      open: async (name) => {
        current = name;
        received.set(name, []);
      },
      write: async (chunk) => {
        received.get(current)?.push(Buffer.from(chunk));
      },
      close: async () => undefined,
    });
    expect(read.files.map((f) => [f.name, f.bytes, f.sha256])).toEqual(
      files.map((f) => [f.name, f.data.length, sha(f.data)]),
    );
    for (const file of files) expect(Buffer.concat(received.get(file.name) ?? []).equals(file.data)).toBe(true);
    // The meta is made from what was read, and comes back whole.
    const streamed = (read.meta as { streamed: { name: string; bytes: number; sha256: string }[] }).streamed;
    expect(streamed.map((f) => [f.name, f.bytes, f.sha256])).toEqual(
      read.files.map((f) => [f.name, f.bytes, f.sha256]),
    );
  });

  it("reads an archive written before streaming ({ meta, files } in one zstd buffer)", async () => {
    const data = Buffer.from('{"type":"user","cwd":"/w"}\n'.repeat(1000));
    const target = join(dir, "old.ctx");
    writeFileSync(
      target,
      encodeContainer({ meta: { sessionId: "old" }, files: [{ path: "projects/-p/old.jsonl", data }] }, "zstd"),
    );
    const read = await readArchiveContainer(target);
    expect(read.meta).toEqual({ sessionId: "old" });
    expect(read.files).toEqual([{ name: "projects/-p/old.jsonl", bytes: data.length, sha256: sha(data), mtimeMs: 0 }]);
  });

  it("says clearly what is wrong with a truncated or corrupt container", async () => {
    const target = join(dir, "s.ctx");
    await write(target, [{ name: "projects/-p/s.jsonl", data: noisy(200_000, 3) }]);
    const whole = readFileSync(target);

    truncateSync(target, whole.length - 100);
    await expect(readArchiveContainer(target)).rejects.toThrow(/truncated: header says \d+ payload bytes/);

    // Cut, with the header's length made to agree: the zstd frame itself ends early.
    const cut = Buffer.from(whole.subarray(0, whole.length - 100));
    cut.writeUInt32LE(cut.length - 48, 12);
    writeFileSync(target, cut);
    await expect(readArchiveContainer(target)).rejects.toThrow(/zstd payload does not decompress/);

    const flipped = Buffer.from(whole);
    flipped[flipped.length - 500] = (flipped[flipped.length - 500] ?? 0) ^ 0xff;
    writeFileSync(target, flipped);
    await expect(readArchiveContainer(target)).rejects.toThrow(/decompress|checksum|payload/);

    writeFileSync(target, Buffer.from("not a container at all, just text\n".repeat(3)));
    await expect(readArchiveContainer(target)).rejects.toThrow(/not a ctx container/);
    writeFileSync(target, "");
    await expect(readArchiveContainer(target)).rejects.toThrow(/empty file/);
    expect(statSync(target).size).toBe(0);
  });

  it("decodes with fzstd where Node has no zstd, a piece at a time, and notices a cut frame", async () => {
    const data = Buffer.concat([Buffer.from('{"a":1}\n'), Buffer.alloc(5_000_000), noisy(300_000, 9)]);
    const frame = zstdCompressSync(data);
    const feed = async function* (bytes: Uint8Array) {
      for (let at = 0; at < bytes.length; at += 4096) yield bytes.subarray(at, at + 4096);
    };
    const parts: Uint8Array[] = [];
    let largest = 0;
    for await (const part of fzstdChunks(feed(frame))) {
      parts.push(part);
      largest = Math.max(largest, part.length);
    }
    expect(Buffer.concat(parts).equals(data)).toBe(true);
    // Never the whole output at once (5 MB of zeros are a handful of compressed bytes).
    expect(largest).toBeLessThanOrEqual(1 << 20);
    const drain = async () => {
      for await (const _ of fzstdChunks(feed(frame.subarray(0, frame.length - 50)))) {
        // decoding
      }
    };
    await expect(drain()).rejects.toThrow(/zstd payload does not decompress/);
  });
});

describe("the msgpack pull reader", () => {
  const chunks = async function* (bytes: Uint8Array, size: number) {
    for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
  };

  it("streams a bin across chunk borders and bounds what it takes into memory", async () => {
    const bin = Uint8Array.of(0xc5, 0x01, 0x00, ...new Uint8Array(256).fill(7));
    const reader = new PullReader(chunks(bin, 3)[Symbol.asyncIterator]());
    const length = await reader.binHeader();
    let total = 0;
    for await (const part of reader.stream(length)) total += part.length;
    expect(total).toBe(256);
    expect(await reader.atEnd()).toBe(true);

    const string = Uint8Array.of(0xd9, 200, ...new Uint8Array(200).fill(0x61));
    await expect(new PullReader(chunks(string, 7)[Symbol.asyncIterator]()).string(64)).rejects.toThrow(PullError);
    await expect(new PullReader(chunks(string, 7)[Symbol.asyncIterator]()).rawValue(100)).rejects.toThrow(
      /over the 100 bytes/,
    );
    await expect(new PullReader(chunks(string.subarray(0, 50), 7)[Symbol.asyncIterator]()).string(300)).rejects.toThrow(
      /cut short/,
    );
  });
});
