// `ctx hook --help` shows the events table (core/hooks/events.ts) in full; docs/hooks.md points to it, and its
// example lines must be the help's own.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runCliCaptured } from "../../../tests/helpers/cli-run.ts";
import { HOOK_EVENT_NAMES, HOOK_EVENTS, type HookEventSpec } from "../../core/hooks/events.ts";
import { describeHookEvents } from "./hook.ts";

describe("ctx hook --help", () => {
  it("lists every event with its Claude Code name, where it runs, its wiring and what it does", async () => {
    const { stdout, code } = await runCliCaptured(["hook", "--help"], { cwd: process.cwd(), env: {} });
    expect(code).toBe(0);
    expect(stdout).toContain("Events (src/core/hooks/events.ts):");
    for (const event of HOOK_EVENT_NAMES) {
      const row: HookEventSpec = HOOK_EVENTS[event];
      expect(stdout).toContain(`  ${event}`);
      expect(stdout).toContain(`(${row.claude}; runs in ${row.lean === true ? "the lean entry" : "the program"};`);
      expect(stdout).toContain(`timeout ${row.wiring.timeout} s`);
      expect(stdout).toContain(row.summary);
    }
    expect(stdout).toContain("or mcp_tool ctx_guard_tick");
  });

  it("is what docs/hooks.md quotes", () => {
    const doc = readFileSync(fileURLToPath(new URL("../../../docs/hooks.md", import.meta.url)), "utf8");
    const example = doc.slice(doc.indexOf("$ ctx hook --help"), doc.indexOf("```", doc.indexOf("$ ctx hook --help")));
    const quoted = example.split("\n").filter((line) => line.startsWith("  ") && !line.trim().startsWith("…"));
    expect(quoted.length).toBeGreaterThan(0);
    const help = describeHookEvents();
    for (const line of quoted) expect(help).toContain(line);
  });
});
