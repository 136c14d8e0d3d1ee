// The lean entry built on its own (build/lean-entry.ts, tsup.config.ts): dist/ctx.js hands `ctx hook post-tool-use`
// and `stop` to dist/lean/lean.js, which loads a handful of files holding only those events' common path: no other
// event's handler, no CLI, no MCP SDK, none of the rare paths it takes through the door into the program's build
// (src/hooks/runtime/rare-paths.ts). The hooks themselves run through it in tests/e2e (guard-hook, hardening,
// hook-lean).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { DOOR_ENTRY, doorModules, LEAN_OUTPUT } from "../../build/lean-entry.ts";
import { HOOK_EVENT_NAMES, isLeanEvent, leanHookNames } from "../../src/core/hooks/events.ts";
import { sourcesOf, staticClosure } from "../helpers/built-files.ts";

const root = fileURLToPath(new URL("../..", import.meta.url));
const dist = join(root, "dist");
const lean = join(dist, "lean");
const DYNAMIC_IMPORT = /import\(["']([^"']+)["']\)/g;

const leanFiles = () =>
  readdirSync(lean)
    .filter((file) => file.endsWith(".js"))
    .map((file) => join(lean, file));

describe("the lean entry", () => {
  it("dist/ctx.js sends the lean events to dist/lean/, knowing their names without an import", () => {
    const ctx = readFileSync(join(dist, "ctx.js"), "utf8");
    expect(ctx).toContain(`import('${LEAN_OUTPUT}')`);
    expect(ctx).toContain(JSON.stringify(leanHookNames().join(" ")));
    // ctx.js imports nothing statically (it must run on any Node to say which Node it needs).
    expect(ctx).not.toMatch(/^import /m);
    expect(leanHookNames()).toEqual(expect.arrayContaining(["post-tool-use", "PostToolUse", "stop", "Stop"]));
    expect(existsSync(join(dist, LEAN_OUTPUT))).toBe(true);
  });

  it("loads a handful of files: the lean events' handlers and nothing of the other events", () => {
    const entry = join(dist, LEAN_OUTPUT);
    const dynamic = [...readFileSync(entry, "utf8").matchAll(DYNAMIC_IMPORT)].map((match) => match[1] ?? "");
    expect(dynamic).toEqual(["./lean-run.js"]);
    const loaded = staticClosure(join(lean, "lean-run.js"), staticClosure(entry));
    expect(loaded.size).toBeLessThanOrEqual(4);
    const sources = sourcesOf(loaded);
    for (const event of HOOK_EVENT_NAMES) {
      const handler = `src/hooks/handlers/${event}.hook.ts`;
      if (isLeanEvent(event)) expect(sources).toContain(handler);
      else expect(sources).not.toContain(handler);
    }
    expect(sources).not.toContain("src/hooks/runtime/table.ts");
    expect(sources.filter((source) => /^src\/(cli|mcp|search|summaries|bridge|team)\//.test(source))).toEqual([]);
  });

  it("holds no CLI, MCP SDK or zod anywhere, and its rare paths only as imports through the door", () => {
    const files = leanFiles();
    const text = files.map((file) => readFileSync(file, "utf8")).join("\n");
    expect(text).not.toMatch(/@modelcontextprotocol|from ["']commander["']|"ZodMiniObject"/);
    const door = [...doorModules(root)].map((path) => relative(root, path));
    const sources = sourcesOf(files);
    for (const source of door) expect(sources).not.toContain(source);
    const dynamic = new Set([...text.matchAll(DYNAMIC_IMPORT)].map((match) => match[1]));
    expect(dynamic).toEqual(new Set(["./lean-run.js", `../${DOOR_ENTRY}.js`]));
  });

  it("the door is a program entry that exports what the lean build asks of it", async () => {
    const file = join(dist, `${DOOR_ENTRY}.js`);
    expect(existsSync(file)).toBe(true);
    const door = await import(file);
    for (const name of ["validateLayers", "checkpointContext", "actOnNotice"])
      expect(typeof door[name]).toBe("function");
    expect(doorModules(root).size).toBe(3);
  });
});
