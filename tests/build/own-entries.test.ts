// The hook entries built on their own (build/own-entries.ts, tsup.config.ts): dist/ctx.js hands `ctx hook
// post-tool-use`, `stop` and `session-start` to dist/<entry>/<entry>.js, and what each loads is a handful of files
// holding only its own events' code: no other event's handler, no CLI, no MCP SDK. The hooks themselves run
// through them in tests/e2e (guard-hook, hardening, compaction-hooks, hook-lean).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { borrowedEntries, borrowedName, OWN_ENTRIES, type OwnEntry, ownEntryOutput } from "../../build/own-entries.ts";

const dist = fileURLToPath(new URL("../../dist", import.meta.url));
const STATIC_IMPORT = /^(?:import|export)\b[^;]*?from\s*["'](\.[^"']+)["'];?$|^import\s*["'](\.[^"']+)["'];?$/gm;
const HANDLERS = ["session-start", "session-end", "pre-compact", "post-compact", "user-prompt-submit", "every-call"];

/** The files a module loads before it runs: itself and its static imports, transitively. */
function staticClosure(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  for (const match of readFileSync(file, "utf8").matchAll(STATIC_IMPORT)) {
    staticClosure(join(dirname(file), match[1] ?? match[2] ?? ""), seen);
  }
  return seen;
}

const sourcesOf = (files: Iterable<string>): string[] =>
  [...files].flatMap((file) =>
    [...readFileSync(file, "utf8").matchAll(/^\/\/ (src\/\S+\.ts)$/gm)].map((match) => match[1] ?? ""),
  );

/** The files an entry loads before its handler runs: the entry, then (code cache on) its one dynamic import. */
function loadedBy(name: OwnEntry): Set<string> {
  const entry = join(dist, ownEntryOutput(name));
  const dynamic = [...readFileSync(entry, "utf8").matchAll(/import\(["'](\.[^"']+)["']\)/g)].map((m) => m[1] ?? "");
  expect(dynamic).toHaveLength(1);
  return staticClosure(join(dirname(entry), dynamic[0] ?? ""), staticClosure(entry));
}

describe("hook entries built on their own", () => {
  it.each(Object.keys(OWN_ENTRIES))("dist/ctx.js sends its events to dist/%s/", (name) => {
    const output = ownEntryOutput(name as OwnEntry);
    expect(readFileSync(join(dist, "ctx.js"), "utf8")).toContain(`import('${output}')`);
    expect(existsSync(join(dist, output))).toBe(true);
  });

  it.each([
    ["every-call", "src/hooks/handlers/post-tool-use.hook.ts", 4],
    ["session-start", "src/hooks/handlers/session-start.hook.ts", 8],
    ["pre-compact", "src/hooks/handlers/pre-compact.hook.ts", 12],
    ["session-end", "src/hooks/handlers/session-end.hook.ts", 12],
  ] as const)("%s loads a handful of files with only its own events' code", (name, handler, most) => {
    const loaded = loadedBy(name);
    expect(loaded.size).toBeLessThanOrEqual(most);
    const sources = sourcesOf(loaded);
    expect(sources).toContain(handler);
    const others = HANDLERS.map((event) => `src/hooks/${event}.ts`).filter((source) => source !== handler);
    expect(sources.filter((source) => others.includes(source) || source === "src/hooks/runtime/table.ts")).toEqual([]);
    // SessionEnd queues the session's indexing (a detached child; the queue itself loads no SQLite: hook-lean.test.ts).
    const shells = sources.filter((source) => /^src\/(cli|mcp|search|summaries|bridge)\//.test(source));
    expect(shells.filter((source) => source !== "src/search/sync/queue-index.ts")).toEqual([]);
  });

  it.each(Object.keys(OWN_ENTRIES))("dist/%s/ holds no CLI or MCP SDK code anywhere", (name) => {
    const folder = join(dist, name);
    const text = readdirSync(folder)
      .filter((file) => file.endsWith(".js"))
      .map((file) => readFileSync(join(folder, file), "utf8"))
      .join("\n");
    expect(text).not.toMatch(/@modelcontextprotocol|from ["']commander["']/);
    expect(text).not.toContain("// src/hooks/runtime/table.ts");
  });

  it("each borrowed module is a program entry its borrower's import() reaches, and nothing else is borrowed", () => {
    const sources = new Set(Object.values(OWN_ENTRIES).flatMap((entry) => [...entry.borrowed]));
    expect(new Set([...sources].map(borrowedName)).size).toBe(sources.size);
    expect(Object.keys(borrowedEntries())).toHaveLength(sources.size);
    for (const [name, entry] of Object.entries(OWN_ENTRIES)) {
      const folder = join(dist, name);
      const imports = readdirSync(folder)
        .filter((file) => file.endsWith(".js"))
        .flatMap((file) => [
          ...readFileSync(join(folder, file), "utf8").matchAll(/import\(["']\.\.\/borrowed\/([\w-]+)\.js["']\)/g),
        ])
        .map((match) => match[1]);
      expect(new Set(imports)).toEqual(new Set(entry.borrowed.map(borrowedName)));
      for (const borrowed of imports) expect(existsSync(join(dist, "borrowed", `${borrowed}.js`))).toBe(true);
      // The borrowed code itself is not in the entry's build.
      const sources = sourcesOf(
        readdirSync(folder)
          .filter((file) => file.endsWith(".js"))
          .map((file) => join(folder, file)),
      );
      for (const source of entry.borrowed) expect(sources).not.toContain(source);
    }
  });
});
