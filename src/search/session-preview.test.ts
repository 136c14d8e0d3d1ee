// A session's preview from a real index of the fixture transcripts: finding it by the start of its id, its
// transcript streamed exchange by exchange, its subagents, and damage: a malformed line, a line cut short, a
// transcript that is gone.
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LONG_SESSION, layOutClaudeDir, SPOTTER_PROJECT } from "../../tests/helpers/claude-projects.ts";
import { rejectedCtxError, thrownCtxError } from "../../tests/helpers/ctx-error.ts";
import type { PreviewExchange } from "../core/library/preview.ts";
import type { SessionIndex } from "./session-index/session-index.ts";
import { readSessionChunks } from "./session-index/stored-rows.ts";
import { resolveSessionId } from "./session-naming.ts";
import { boundedPreviewOf, openIndexForPreview, previewTextFor, readSessionPreview } from "./session-preview.ts";
import { syncIndex } from "./sync/sync-index.ts";

const root = mkdtempSync(join(tmpdir(), "ctx-preview-"));
const claudeDir = layOutClaudeDir(root);
const spotter = join(claudeDir, "projects", SPOTTER_PROJECT);
const env = { HOME: join(root, "home"), CTX_HOME: join(root, "ctx-home") };
const dbPath = join(root, "ctx-home", "index.db");
let index: SessionIndex;

beforeAll(async () => {
  // Two more copies of the short session, to be damaged and removed after indexing.
  const short = readFileSync(join(spotter, "short.jsonl"), "utf8");
  writeFileSync(join(spotter, "damaged.jsonl"), short);
  writeFileSync(join(spotter, "gone.jsonl"), short);
  writeFileSync(join(spotter, "long-gone.jsonl"), readFileSync(join(spotter, `${LONG_SESSION}.jsonl`)));
  await syncIndex({ claudeDir, dbPath });
  index = openIndexForPreview(env);
});
afterAll(() => index?.close());

describe("resolveSessionId", () => {
  it("finds a session by its whole id or a unique start of it", () => {
    expect(resolveSessionId(LONG_SESSION, { index })).toBe(LONG_SESSION);
    expect(resolveSessionId("4d56", { index })).toBe(LONG_SESSION);
    expect(resolveSessionId("  tool_h ", { index })).toBe("tool_heavy");
  });

  it("says so for an unknown, an ambiguous and an empty id; `%` and `_` are plain characters", () => {
    expect(() => resolveSessionId("zzz", { index })).toThrow('no indexed session has an id starting with "zzz"');
    expect(() => resolveSessionId("%", { index })).toThrow(/no indexed session/);
    expect(() => resolveSessionId("_", { index })).toThrow(/no indexed session/);
    const ambiguous = thrownCtxError(() => resolveSessionId("s", { index }));
    expect(ambiguous).toMatchObject({ code: "USAGE", hint: "give more of the id" });
    expect(ambiguous.message).toContain("short, subagent");
    expect(() => resolveSessionId(" ", { index })).toThrow("the session id is empty");
  });
});

describe("readSessionPreview", () => {
  it("hands each exchange on as it closes, then the subagents the index knows", async () => {
    const seen: number[] = [];
    let headerFirst = false;
    const preview = await readSessionPreview(index, LONG_SESSION, {
      keepExchanges: false,
      onHeader: () => {
        headerFirst = seen.length === 0;
      },
      onExchange: (exchange) => {
        seen.push(exchange.number);
      },
    });
    expect(headerFirst).toBe(true);
    expect(seen).toEqual([1, 2, 3]);
    expect(preview.exchanges).toEqual([]);
    expect(preview.header).toMatchObject({ sessionId: LONG_SESSION, branch: "spotter-dov", messageCount: 142 });
    // The compaction summariser's transcript is not indexed: one subagent.
    expect(preview.subagents.transcripts).toBe(1);
    expect(preview.read).toEqual({ transcript: "read", linesSkipped: 0, atFound: null, fromIndex: false });
  });

  it("counts the files an old transcript's inline subagent lines wrote as the subagents'", async () => {
    const preview = await readSessionPreview(index, resolveSessionId("fe5e1c67", { index }));
    expect(preview.subagents.transcripts).toBe(0);
    expect(preview.subagents.files).toContain("/path/to/Demo/components/TodoItem.tsx");
  });

  it("marks the --at exchange", async () => {
    const all = await readSessionPreview(index, LONG_SESSION);
    const at = (all.exchanges[1] as PreviewExchange).uuid;
    const marked = await readSessionPreview(index, LONG_SESSION, { atUuid: at });
    expect(marked.exchanges.map((exchange) => exchange.matched)).toEqual([false, true, false]);
    expect(marked.read.atFound).toBe(true);
  });

  it("skips and counts a malformed line and a line cut short, and shows the rest", async () => {
    const path = join(spotter, "damaged.jsonl");
    const lines = readFileSync(path, "utf8").split("\n");
    lines.splice(1, 0, '{"type":"assistant","message":{"content":[{"type":"text"');
    writeFileSync(path, lines.join("\n"));
    appendFileSync(path, '{"type":"user","message":{"role":"user","content":"cut sh');
    const preview = await readSessionPreview(index, "damaged");
    expect(preview.read.linesSkipped).toBe(2);
    expect(preview.exchanges.length).toBe(1);
    expect((preview.exchanges[0] as PreviewExchange).prompt).not.toBe("");
  });

  it("shows the index's record, and the conversation as the index kept it, when the transcript is gone", async () => {
    const before = await readSessionPreview(index, "gone");
    rmSync(join(spotter, "gone.jsonl"));
    const preview = await readSessionPreview(index, "gone");
    expect(preview.read).toMatchObject({ transcript: "missing", fromIndex: true });
    expect(preview.header).toEqual(before.header);
    expect(preview.exchanges.map((exchange) => exchange.prompt)).toEqual(before.exchanges.map((e) => e.prompt));
    const text = await boundedPreviewOf(index, "gone");
    expect(text).toContain("the transcript is gone");
    expect(text).toContain("the conversation above is what the session index kept of it");
  });

  it("rebuilds a long session's exchanges from its chunks, tools, files and the --at mark included", async () => {
    // A search's --at is a chunk's last line: the one of the chunk where "continue" is asked.
    const at =
      readSessionChunks(index, "long-gone").find((chunk) => chunk.text.includes("User: continue"))?.lastUuid ?? null;
    const before = await readSessionPreview(index, "long-gone", { atUuid: at });
    expect(before.exchanges.map((e) => e.matched)).toEqual([false, true, false]);
    rmSync(join(spotter, "long-gone.jsonl"));
    const after = await readSessionPreview(index, "long-gone", { atUuid: at });
    expect(after.read).toMatchObject({ transcript: "missing", fromIndex: true, atFound: true });
    expect(after.exchanges.map((e) => e.prompt)).toEqual(before.exchanges.map((e) => e.prompt));
    expect(after.exchanges.map((e) => e.matched)).toEqual([false, true, false]);
    const [was, is] = [before.exchanges[0], after.exchanges[0]] as [PreviewExchange, PreviewExchange];
    expect(is.files).toEqual(was.files);
    expect(is.tools.slice(0, 3)).toEqual(was.tools.slice(0, 3));
    expect(is.replies[0]).toBe(was.replies[0]);
  });
});

describe("previewTextFor", () => {
  it("is a few KB at most, found by the start of the id", async () => {
    const text = await previewTextFor("4d5611", { env });
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(3_000);
    expect(text).toContain(`session   ${LONG_SESSION}`);
    expect(text).toContain("── 1 ·");
  });

  it("says there is no index yet", async () => {
    const error = await rejectedCtxError(previewTextFor("4d56", { env: { CTX_HOME: join(root, "nothing") } }));
    expect(error).toMatchObject({ code: "NOT_FOUND", hint: "run `ctx index` first" });
  });
});
