// The events table is the source of docs/hooks.md's table: a change to one without the other fails here.
// `CTX_UPDATE_DOCS=1 npx vitest run src/core/hooks/events.test.ts` rewrites the section between the markers.
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { HOOK_EVENT_NAMES, HOOK_EVENTS, type HookEventSpec, hookEventNames, resolveHookEvent } from "./events.ts";

const doc = fileURLToPath(new URL("../../../docs/hooks.md", import.meta.url));
const START = "<!-- hook-events: generated from src/core/hooks/events.ts -->";
const END = "<!-- /hook-events -->";

function renderTable(): string {
  const rows = HOOK_EVENT_NAMES.map((event) => {
    const row: HookEventSpec = HOOK_EVENTS[event];
    const names = [`\`${event}\``, ...(row.aliases ?? []).map((alias) => `\`${alias}\``)].join(", ");
    const runs = row.lean === true ? "lean entry" : "program";
    const matcher = row.wiring.matcher === undefined ? "" : `\`${row.wiring.matcher.replaceAll("|", "\\|")}\``;
    const tool = row.wiring.mcpTool === undefined ? "" : `\`${row.wiring.mcpTool.tool}\``;
    return `| ${names} | ${row.claude} | ${runs} | ${matcher} | ${row.wiring.timeout} | ${tool} | ${row.summary} |`;
  });
  return [
    "| `ctx hook` | Claude Code event | Runs in | Matcher | Timeout (s) | `mcp_tool` wiring | What it does |",
    "| --- | --- | --- | --- | --- | --- | --- |",
    ...rows,
  ].join("\n");
}

describe("the hook events table", () => {
  it("docs/hooks.md shows it as it is", () => {
    const text = readFileSync(doc, "utf8");
    const start = text.indexOf(START);
    const end = text.indexOf(END);
    expect(start, `docs/hooks.md lacks ${START}`).toBeGreaterThan(-1);
    const current = text.slice(start + START.length, end).trim();
    const wanted = renderTable();
    if (process.env.CTX_UPDATE_DOCS === "1" && current !== wanted) {
      writeFileSync(doc, `${text.slice(0, start + START.length)}\n${wanted}\n${text.slice(end)}`);
      return;
    }
    expect(current, "run CTX_UPDATE_DOCS=1 npx vitest run src/core/hooks/events.test.ts").toBe(wanted);
  });

  it("every name resolves to its event, and the names are unique", () => {
    const names = hookEventNames();
    expect(new Set(names).size).toBe(names.length);
    for (const event of HOOK_EVENT_NAMES) {
      expect(resolveHookEvent(event)).toBe(event);
      expect(resolveHookEvent(HOOK_EVENTS[event].claude)).toBe(event);
    }
  });
});
