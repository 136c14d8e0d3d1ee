// The every-call hooks' own build (src/bin/every-call.ts, tsup.config.ts): dist/ctx.js hands `ctx hook
// post-tool-use` and `ctx hook stop` to dist/hook/every-call.js, and what that loads on a tool call is a handful of
// files holding none of the other events' code, the CLI or the MCP SDK. The hooks themselves run through it in
// tests/e2e (guard-hook, hardening, compaction-hooks).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { EVERY_CALL_OUTPUT } from "../../build/every-call-entry.ts";

const dist = fileURLToPath(new URL("../../dist", import.meta.url));
const STATIC_IMPORT = /^(?:import|export)\b[^;]*?from\s*["'](\.[^"']+)["'];?$|^import\s*["'](\.[^"']+)["'];?$/gm;

/** The files a module loads before it runs: itself and its static imports, transitively. */
function staticClosure(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  for (const match of readFileSync(file, "utf8").matchAll(STATIC_IMPORT)) {
    staticClosure(join(dirname(file), match[1] ?? match[2] ?? ""), seen);
  }
  return seen;
}

const sourcesOf = (files: Iterable<string>) =>
  [...files].flatMap((file) => [...readFileSync(file, "utf8").matchAll(/^\/\/ (src\/\S+\.ts)$/gm)].map((m) => m[1]));

describe("the every-call entry", () => {
  it("is where dist/ctx.js sends the every-call hooks", () => {
    const entry = readFileSync(join(dist, "ctx.js"), "utf8");
    expect(entry).toContain(`import('${EVERY_CALL_OUTPUT}')`);
    expect(existsSync(join(dist, EVERY_CALL_OUTPUT))).toBe(true);
  });

  it("loads a handful of files on a tool call, with only the every-call hooks' code", () => {
    const entry = join(dist, EVERY_CALL_OUTPUT);
    // The entry turns the code cache on, then loads the rest in one dynamic import.
    const dynamic = [...readFileSync(entry, "utf8").matchAll(/import\(["'](\.[^"']+)["']\)/g)].map((m) => m[1] ?? "");
    expect(dynamic).toHaveLength(1);
    const loaded = staticClosure(join(dirname(entry), dynamic[0] ?? ""), staticClosure(entry));
    expect(loaded.size).toBeLessThanOrEqual(8);
    const sources = sourcesOf(loaded);
    expect(sources).toContain("src/hooks/every-call.ts");
    expect(sources).toContain("src/store/guard/context-guard.ts");
    for (const other of [
      "session-start",
      "session-end",
      "pre-compact",
      "post-compact",
      "user-prompt-submit",
      "table",
    ]) {
      expect(sources).not.toContain(`src/hooks/${other}.ts`);
    }
    expect(sources.filter((source) => /^src\/(cli|mcp|search|summaries|bridge)\//.test(source ?? ""))).toEqual([]);
  });

  it("holds no CLI, MCP SDK or other event's code anywhere in its build", () => {
    const files = readdirSync(join(dist, "hook"))
      .filter((name) => name.endsWith(".js"))
      .map((name) => join(dist, "hook", name));
    const text = files.map((file) => readFileSync(file, "utf8")).join("\n");
    expect(text).not.toMatch(/@modelcontextprotocol|from ["']commander["']/);
    expect(sourcesOf(files).filter((source) => /^src\/hooks\/(session-|pre-compact|table)/.test(source ?? ""))).toEqual(
      [],
    );
  });
});
