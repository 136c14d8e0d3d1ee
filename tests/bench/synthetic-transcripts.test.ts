import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { writeSyntheticCorpus } from "../../bench/synthetic-transcripts.ts";
import { buildChunks } from "../../src/core/search/chunker.ts";
import { isSkipped, parseTranscriptLine } from "../../src/core/transcript/entries.ts";
import { discoverTranscripts } from "../../src/search/sync/discover.ts";
import { readTranscriptFrom } from "../../src/search/sync/read-transcript.ts";

const root = mkdtempSync(join(tmpdir(), "ctx-synthetic-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function jsonlFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".jsonl"))
    .map((name) => join(dir, name));
}

describe("synthetic transcript corpus", () => {
  const stats = writeSyntheticCorpus(root, { sessions: 40, sizeFactor: 0.3, seed: 11 });
  const files = jsonlFiles(join(root, "projects"));

  it("writes the sessions it reports, deterministically for a seed", () => {
    expect(files.length).toBe(stats.files);
    expect(stats.files - stats.subagentFiles).toBe(40);
    const again = mkdtempSync(join(tmpdir(), "ctx-synthetic-"));
    try {
      const second = writeSyntheticCorpus(again, { sessions: 40, sizeFactor: 0.3, seed: 11 });
      expect({ ...second, root: "", generatedMs: 0 }).toEqual({ ...stats, root: "", generatedMs: 0 });
    } finally {
      rmSync(again, { recursive: true, force: true });
    }
  });

  it("every line parses as a Claude Code transcript entry or a known bookkeeping record", () => {
    const types = new Map<string, number>();
    for (const file of files) {
      for (const line of readFileSync(file, "utf8").split("\n")) {
        if (line === "") continue;
        const parsed = parseTranscriptLine(line);
        if (isSkipped(parsed)) expect(parsed.skipped).toBe("meta");
        const key = isSkipped(parsed) ? "meta" : parsed.type;
        types.set(key, (types.get(key) ?? 0) + 1);
      }
    }
    for (const type of ["user", "assistant", "system", "meta"]) expect(types.get(type)).toBeGreaterThan(0);
  });

  it("main files belong to their session; subagent files sit under the session with sidechain entries", () => {
    for (const file of files) {
      const entries = readFileSync(file, "utf8")
        .split("\n")
        .filter((line) => line !== "")
        .map((line) => JSON.parse(line) as { sessionId?: string; isSidechain?: boolean; type: string });
      const subagent = file.includes(`${join("subagents", "agent-")}`);
      const sessionId = subagent
        ? (file.split("/").at(-3) ?? "")
        : (file.split("/").at(-1) ?? "").replace(".jsonl", "");
      for (const entry of entries) {
        if (entry.sessionId !== undefined) expect(entry.sessionId).toBe(sessionId);
        if (entry.type === "user" || entry.type === "assistant") expect(entry.isSidechain).toBe(subagent);
      }
    }
    expect(stats.subagentFiles).toBeGreaterThan(0);
    expect(files.some((f) => f.includes("agent-acompact-"))).toBe(stats.compactedSessions > 0);
  });

  it("ingests with nothing skipped: mains and subagents discovered (never agent-acompact), every session chunks", async () => {
    const discovered = await discoverTranscripts(root);
    expect(discovered.filter((f) => f.kind === "main").length).toBe(40);
    expect(discovered.some((f) => f.kind === "subagent")).toBe(true);
    expect(discovered.some((f) => f.path.includes("agent-acompact-"))).toBe(false);
    let messages = 0;
    let withTools = 0;
    for (const file of discovered) {
      const increment = await readTranscriptFrom(file.path, 0);
      expect(increment.skippedLines).toBe(0);
      expect(increment.unknownEntries).toBe(0);
      expect(increment.meta.sessionId).toBe(file.sessionId);
      messages += increment.messages.length;
      if (file.kind === "main") expect(buildChunks(file.sessionId, increment.messages).length).toBeGreaterThan(0);
      withTools += increment.messages.filter((m) => m.tools.length > 0).length;
    }
    expect(messages).toBeGreaterThan(40 * 5);
    expect(withTools).toBeGreaterThan(40);
  });
});
