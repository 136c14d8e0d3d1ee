// readHead, the hash of a file's first bytes that tells a grown transcript from a rewritten one: it opens only a
// regular file, as the transcript reader does (a FIFO put in a transcript's place after discovery would block it).
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readHead } from "./sync-file.ts";

describe("readHead", () => {
  it("hashes a regular file's first bytes, says what is missing or short, and refuses a FIFO without blocking", async () => {
    const dir = mkdtempSync(join(tmpdir(), "read-head-"));
    const file = join(dir, "s1.jsonl");
    writeFileSync(file, "0123456789abcdef");
    expect(await readHead(file, 10)).toBe(`10:${createHash("sha1").update("0123456789").digest("hex")}`);
    expect(await readHead(file, 32)).toBe("short:16");
    expect(await readHead(join(dir, "gone.jsonl"), 10)).toBe("missing");
    const fifo = join(dir, "s2.jsonl");
    execFileSync("mkfifo", [fifo]);
    // A plain open of a FIFO for reading waits for a writer: this would hang, not fail, before.
    await expect(readHead(fifo, 10)).rejects.toMatchObject({ code: "UNSAFE_PATH" });
    await expect(readHead(dir, 10)).rejects.toMatchObject({ code: "UNSAFE_PATH" });
  });
});
