// The events table (core/hooks/events.ts) and the handler files agree: each row has its handlers/<event>.hook.ts
// exporting a definition, each handler file has its row, and the lean entry runs exactly the lean rows.
import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { HOOK_EVENT_NAMES, isLeanEvent, resolveHookEvent } from "../../core/hooks/events.ts";
import { LEAN_EVENTS, loadLeanHook } from "./lean.ts";
import { loadHook } from "./table.ts";

const handlers = fileURLToPath(new URL("../handlers/", import.meta.url));

describe("hook events and their handlers", () => {
  it("each row has a handler file, and each handler file a row", () => {
    const files = readdirSync(handlers)
      .filter((file) => file.endsWith(".hook.ts"))
      .map((file) => file.slice(0, -".hook.ts".length));
    expect(files.sort()).toEqual([...HOOK_EVENT_NAMES].sort());
  });

  it.each(HOOK_EVENT_NAMES)("%s loads a definition with a check and a handler", async (event) => {
    const definition = await loadHook(event);
    expect(typeof definition?.check).toBe("function");
    expect(typeof definition?.handle).toBe("function");
    expect(definition?.check({})).toMatchObject({ ok: false });
  });

  it("the lean entry runs exactly the lean rows, with the same definitions", async () => {
    expect([...LEAN_EVENTS].sort()).toEqual(HOOK_EVENT_NAMES.filter(isLeanEvent).sort());
    for (const event of HOOK_EVENT_NAMES) {
      expect(await loadLeanHook(event)).toBe(isLeanEvent(event) ? await loadHook(event) : undefined);
    }
  });

  it("resolves ctx's names, Claude Code's and the aliases, and nothing else", () => {
    expect(resolveHookEvent("SessionStart")).toBe("session-start");
    expect(resolveHookEvent("prompt")).toBe("user-prompt-submit");
    expect(resolveHookEvent("stop")).toBe("stop");
    expect(resolveHookEvent("toString")).toBeNull();
    expect(resolveHookEvent("")).toBeNull();
  });
});
