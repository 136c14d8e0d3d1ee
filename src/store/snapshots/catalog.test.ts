import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { encodeContainer } from "../files/container.ts";
import { readCatalog, reconcileCatalog, scanSnapshotFolder } from "./catalog.ts";

const ID = "20261122T031100123Z-0a1b2c";
const meta = {
  id: ID,
  sessionId: "s",
  trigger: "manual",
  createdAt: "2026-11-22T03:11:00.123Z",
  transcript: null,
  stateSummary: {},
};

let dir: string;
beforeEach(() => {
  dir = join(mkdtempSync(join(tmpdir(), "ctx-snapshot-catalog-")), "snapshots");
  mkdirSync(dir);
});
afterEach(() => {
  rmSync(join(dir, ".."), { recursive: true, force: true });
});

describe("readCatalog", () => {
  it.each([
    ["not JSON", "{"],
    ["another version", JSON.stringify({ version: 2, snapshots: [] })],
    ["a bad entry", JSON.stringify({ version: 1, snapshots: [{ id: ID }] })],
  ])("treats an index holding %s as missing", async (_, text) => {
    writeFileSync(join(dir, "index.json"), text);
    expect(await readCatalog(dir)).toBeNull();
  });
});

describe("reconcileCatalog", () => {
  it("builds entries from the files, with pins from the markers, and drops markers without a snapshot", async () => {
    writeFileSync(join(dir, `${ID}.ctx`), encodeContainer({ meta, state: {}, transcript: new Uint8Array(0) }, "lz4"));
    writeFileSync(join(dir, `${ID}.pin`), "");
    writeFileSync(join(dir, "20261122T000000000Z-ffffff.pin"), "");
    writeFileSync(join(dir, "notes.txt"), "not ours");
    const result = await reconcileCatalog(dir);
    expect(result.entries).toEqual([expect.objectContaining({ id: ID, pinned: true, codec: "lz4" })]);
    expect(result).toMatchObject({ changed: true, damaged: [] });
    expect(readdirSync(dir).sort()).toEqual([`${ID}.ctx`, `${ID}.pin`, "notes.txt"]);
  });

  it("sets aside a file that holds something other than its snapshot", async () => {
    const other = { ...meta, id: "20261122T031100124Z-0a1b2c" };
    writeFileSync(
      join(dir, `${ID}.ctx`),
      encodeContainer({ meta: other, state: {}, transcript: new Uint8Array(0) }, "lz4"),
    );
    const result = await reconcileCatalog(dir);
    expect(result.entries).toEqual([]);
    expect(result.damaged[0]?.problem).toContain(`holds snapshot ${other.id}`);
    expect(existsSync(join(dir, `${ID}.ctx.damaged`))).toBe(true);
  });

  it("leaves a file written by a newer ctx in place, unlisted", async () => {
    const bytes = encodeContainer({ meta, state: {}, transcript: new Uint8Array(0) }, "lz4");
    bytes[4] = 99; // format version 99
    writeFileSync(join(dir, `${ID}.ctx`), bytes);
    expect((await reconcileCatalog(dir)).entries).toEqual([]);
    expect((await scanSnapshotFolder(dir)).files.has(ID)).toBe(true);
  });
});
