// The events table's names: each resolves to its event, none twice. (`ctx hook --help` shows the table:
// src/cli/commands/hook.test.ts.)
import { describe, expect, it } from "vitest";
import { HOOK_EVENT_NAMES, HOOK_EVENTS, hookEventNames, resolveHookEvent } from "./events.ts";

describe("the hook events table", () => {
  it("every name resolves to its event, and the names are unique", () => {
    const names = hookEventNames();
    expect(new Set(names).size).toBe(names.length);
    for (const event of HOOK_EVENT_NAMES) {
      expect(resolveHookEvent(event)).toBe(event);
      expect(resolveHookEvent(HOOK_EVENTS[event].claude)).toBe(event);
    }
  });
});
