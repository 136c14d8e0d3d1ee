// The chain-quality lift of fork history (docs/forks.md "Ranking") on a real index: it decides a near tie, and never
// lifts a session above one that is clearly more relevant.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { layOutClaudeDir } from "../../tests/helpers/claude-projects.ts";
import { defaultConfig } from "../config/defaults.ts";
import { searchSessions } from "./search-sessions.ts";
import { openSessionIndex, type SessionIndex } from "./session-index/session-index.ts";
import { syncIndex } from "./sync/sync-index.ts";

const search = defaultConfig().search;
const NOW = Date.UTC(2026, 11, 2);
const SOURCE = readFileSync(new URL("../../tests/fixtures/forks/source.jsonl", import.meta.url), "utf8");
const ORIGINAL_ID = "d2e2675e-9085-415a-b095-cefa3b4cb8f2";
// Two sessions with the same conversation in two projects: every uuid differs (two families, not a fork), the text
// does not, so their relevance ties and only the near-tie lift can order them.
const TWINS = ["11111111-1111-4111-8111-111111111111", "22222222-2222-4222-8222-222222222222"];

let root: string;
let twins: SessionIndex;
let fixtures: SessionIndex;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "ctx-paid-off-"));
  const claudeDir = join(root, "claude");
  TWINS.forEach((id, i) => {
    const folder = join(claudeDir, "projects", `-home-user-app${i}`);
    mkdirSync(folder, { recursive: true });
    const text = SOURCE.replaceAll(ORIGINAL_ID, id).replace(
      /"([0-9a-f]{8})-([0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})"/g,
      (_, head: string, tail: string) => `"${head.slice(0, 7)}${i}-${tail}"`,
    );
    writeFileSync(join(folder, `${id}.jsonl`), text);
  });
  await syncIndex({ claudeDir, dbPath: join(root, "twins.db") });
  twins = openSessionIndex(join(root, "twins.db"), { readonly: true });
  await syncIndex({ claudeDir: layOutClaudeDir(join(root, "fixtures")), dbPath: join(root, "fixtures.db") });
  fixtures = openSessionIndex(join(root, "fixtures.db"), { readonly: true });
});
afterAll(() => {
  twins.close();
  fixtures.close();
  rmSync(root, { recursive: true, force: true });
});

describe("a source whose forks paid off", () => {
  it("rises above its twin in a tie, and only by the lift", async () => {
    const plain = await searchSessions(twins, "write notes", { search, now: NOW });
    expect(plain.map((r) => r.session.id).sort()).toEqual([...TWINS].sort());
    expect(plain[0]?.components.relevance).toBeCloseTo(plain[1]?.components.relevance ?? -1, 10);
    const last = plain[1]?.session.id ?? "";
    const lifted = await searchSessions(twins, "write notes", { search, now: NOW, paidOffForks: new Map([[last, 1]]) });
    expect(lifted[0]?.session.id).toBe(last);
    expect(lifted[0]?.components.chainQuality).toBeCloseTo(0.75);
    expect(lifted[0]?.components.relevance).toBeCloseTo(plain[1]?.components.relevance ?? -1, 10);
  });

  it.each([
    ["credo dialyzer mix_audit igniter", "subagent"],
    ["init analyze codebase CLAUDE.md future instances", "1af7fc5e-8455-4414-9ccd-011d40f70b2a"],
    ["start phoenix in the background", "tool_heavy"],
  ])("never lifts another session above the clear answer to %s", async (query, expected) => {
    const plain = await searchSessions(fixtures, query, { search, now: NOW, limit: 10 });
    // Every other session has three forks that paid off: chain quality 0.94 against the answer's 0.5.
    const everyOther = new Map(plain.filter((r) => r.session.id !== expected).map((r) => [r.session.id, 3]));
    const lifted = await searchSessions(fixtures, query, { search, now: NOW, paidOffForks: everyOther });
    expect(lifted[0]?.session.id).toBe(expected);
  });
});
