import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openSessionIndex } from "./session-index.ts";
import { findSessionIds } from "./session-lookup.ts";
import { IndexWriter } from "./writer.ts";

function indexWith(ids: readonly string[]) {
  const index = openSessionIndex(join(mkdtempSync(join(tmpdir(), "ctx-lookup-")), "index.db"));
  const writer = new IndexWriter(index);
  index.writeTransaction(() => {
    for (const id of ids) writer.ensureSession(id, "p", `/t/${id}.jsonl`);
  });
  return index;
}

describe("findSessionIds", () => {
  const ids = [
    "4d5611e5-241a-462a-8d15-5122611a9569",
    "4d5611e5-9999-462a-8d15-5122611a9569",
    "4d5700aa-0000-0000-0000-000000000000",
    "a_b%c",
    "axbyc",
    "é-session",
    "éz",
  ];

  it("the exact id alone, else the ids that start with it, in order, at most the limit", () => {
    const index = indexWith(ids);
    try {
      expect(findSessionIds(index, "4d5700aa-0000-0000-0000-000000000000")).toEqual([
        "4d5700aa-0000-0000-0000-000000000000",
      ]);
      expect(findSessionIds(index, "4d57")).toEqual(["4d5700aa-0000-0000-0000-000000000000"]);
      expect(findSessionIds(index, "4d5611e5")).toEqual([
        "4d5611e5-241a-462a-8d15-5122611a9569",
        "4d5611e5-9999-462a-8d15-5122611a9569",
      ]);
      expect(findSessionIds(index, "4d", 5)).toHaveLength(3);
      expect(findSessionIds(index, "4d", 1)).toEqual(["4d5611e5-241a-462a-8d15-5122611a9569"]);
      expect(findSessionIds(index, "4e")).toEqual([]);
      expect(findSessionIds(index, "")).toEqual([]);
    } finally {
      index.close();
    }
  });

  it("matches %, _ and characters beyond ASCII as themselves", () => {
    const index = indexWith(ids);
    try {
      expect(findSessionIds(index, "a_b")).toEqual(["a_b%c"]);
      expect(findSessionIds(index, "a%")).toEqual([]);
      expect(findSessionIds(index, "a_")).toEqual(["a_b%c"]);
      expect(findSessionIds(index, "é")).toEqual(["é-session", "éz"]);
      expect(findSessionIds(index, "é-")).toEqual(["é-session"]);
    } finally {
      index.close();
    }
  });
});
