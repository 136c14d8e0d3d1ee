import { describe, expect, it } from "vitest";
import { CTX_HOOK_SPECS } from "./hooks-spec.ts";
import type { JsonObject } from "./json-text.ts";
import { isCtxHookHandler, mergeCtxHooks, removeCtxHooks, sameMatcher } from "./settings-hooks.ts";

const cmd = { command: "ctx", prefixArgs: [] };
const FILE = ".claude/settings.json";
const lint = { type: "command", command: "npm run lint" };

function userSettings(): JsonObject {
  return {
    model: "opus",
    hooks: {
      PostToolUse: [{ matcher: "Edit|Write", hooks: [lint] }],
      Notification: [{ hooks: [{ type: "command", command: "notify-send hi" }] }],
    },
    permissions: { allow: ["Bash(ls)"] },
  };
}

describe("mergeCtxHooks", () => {
  it("adds one handler per event with matchers and timeouts in seconds", () => {
    const { value, details } = mergeCtxHooks({}, cmd, FILE);
    const hooks = value.hooks as Record<string, Array<{ matcher?: string; hooks: JsonObject[] }>>;
    expect(Object.keys(hooks)).toEqual(CTX_HOOK_SPECS.map((spec) => spec.event));
    expect(hooks.PreCompact).toEqual([
      {
        matcher: "manual|auto",
        hooks: [{ type: "command", command: "ctx", args: ["hook", "pre-compact"], timeout: 60 }],
      },
    ]);
    expect(hooks.UserPromptSubmit?.[0]).not.toHaveProperty("matcher");
    expect(hooks.SessionEnd?.[0]?.hooks[0]?.timeout).toBe(10);
    expect(details).toHaveLength(CTX_HOOK_SPECS.length);
  });

  it("keeps the user's hooks, groups, other settings and key order", () => {
    const { value } = mergeCtxHooks(userSettings(), cmd, FILE);
    expect(Object.keys(value)).toEqual(["model", "hooks", "permissions"]);
    const hooks = value.hooks as Record<string, unknown[]>;
    expect(hooks.PostToolUse?.[0]).toEqual({ matcher: "Edit|Write", hooks: [lint] });
    expect(hooks.PostToolUse).toHaveLength(2);
    expect(hooks.Notification).toEqual([{ hooks: [{ type: "command", command: "notify-send hi" }] }]);
  });

  it("is idempotent: a second merge changes nothing and reports nothing", () => {
    const once = mergeCtxHooks(userSettings(), cmd, FILE).value;
    const twice = mergeCtxHooks(once, cmd, FILE);
    expect(twice.value).toEqual(once);
    expect(twice.details).toEqual([]);
  });

  it("updates an older ctx handler in place, keeping fields the user added", () => {
    const old = {
      hooks: {
        Stop: [
          {
            hooks: [
              lint,
              { type: "command", command: "/old/bin/ctx", args: ["hook", "stop"], statusMessage: "saving" },
            ],
          },
        ],
      },
    };
    const { value, details } = mergeCtxHooks(old, cmd, FILE);
    const stop = (value.hooks as Record<string, Array<{ hooks: unknown[] }>>).Stop;
    expect(stop).toHaveLength(1);
    expect(stop?.[0]?.hooks).toEqual([
      lint,
      { type: "command", command: "ctx", args: ["hook", "stop"], statusMessage: "saving", timeout: 10 },
    ]);
    expect(details).toContain("~ hooks.Stop: stop hook command updated, timeout 10 s added");
  });

  it("moves a ctx handler out of a group with the wrong matcher and drops duplicates", () => {
    const settings = {
      hooks: {
        PreCompact: [
          {
            matcher: "auto",
            hooks: [{ type: "command", command: "ctx", args: ["hook", "pre-compact"], timeout: 60 }, lint],
          },
          {
            matcher: "manual|auto",
            hooks: [{ type: "command", command: "claude-ctx", args: ["hook", "pre-compact"] }],
          },
          { matcher: "manual|auto", hooks: [{ type: "command", command: "ctx", args: ["hook", "pre-compact"] }] },
        ],
      },
    };
    const { value } = mergeCtxHooks(settings, cmd, FILE);
    expect((value.hooks as JsonObject).PreCompact).toEqual([
      { matcher: "auto", hooks: [lint] },
      {
        matcher: "manual|auto",
        hooks: [{ type: "command", command: "ctx", args: ["hook", "pre-compact"], timeout: 60 }],
      },
    ]);
  });

  it("keeps a ctx handler the person narrowed (matcher, timeout) and reports no change", () => {
    const merged = mergeCtxHooks(userSettings(), cmd, FILE).value;
    const post = (merged.hooks as Record<string, Array<{ matcher?: string; hooks: JsonObject[] }>>).PostToolUse;
    const ours = post?.[1];
    if (ours === undefined) throw new Error("no ctx group");
    ours.matcher = "Bash";
    (ours.hooks[0] as JsonObject).timeout = 5;
    const again = mergeCtxHooks(merged, cmd, FILE);
    expect(again.value).toEqual(merged);
    expect(again.details).toEqual([]);
  });

  it("updates only the command of a narrowed handler, in its own group", () => {
    const old = { type: "command", command: "/old/bin/ctx", args: ["hook", "post-tool-use"], timeout: 5 };
    const settings = { hooks: { PostToolUse: [{ matcher: "Bash", hooks: [lint, old] }] } };
    const { value, details } = mergeCtxHooks(settings, cmd, FILE);
    expect((value.hooks as JsonObject).PostToolUse).toEqual([
      { matcher: "Bash", hooks: [lint, { ...old, command: "ctx" }] },
    ]);
    expect(details).toContain("~ hooks.PostToolUse: post-tool-use hook command updated");
  });

  it("--remove after a narrowed re-run still gives back exactly the user's settings", () => {
    const merged = mergeCtxHooks(userSettings(), cmd, FILE).value;
    const post = (merged.hooks as Record<string, Array<{ matcher?: string }>>).PostToolUse;
    if (post?.[1] === undefined) throw new Error("no ctx group");
    post[1].matcher = "Bash";
    const again = mergeCtxHooks(merged, cmd, FILE).value;
    expect(JSON.stringify(removeCtxHooks(again).value)).toBe(JSON.stringify(userSettings()));
  });

  it("takes out ctx handlers on events ctx no longer uses", () => {
    const settings = {
      hooks: { SubagentStop: [{ hooks: [{ type: "command", command: "ctx", args: ["hook", "subagent-stop"] }] }] },
    };
    const { value } = mergeCtxHooks(settings, cmd, FILE);
    expect(value.hooks).not.toHaveProperty("SubagentStop");
  });

  it("refuses settings whose hooks have a shape Claude Code would not accept", () => {
    expect(() => mergeCtxHooks({ hooks: [] }, cmd, FILE)).toThrow(/hooks is not an object/);
    expect(() => mergeCtxHooks({ hooks: { Stop: {} } }, cmd, FILE)).toThrow(/hooks.Stop is not an array/);
    expect(() => mergeCtxHooks({ hooks: { Stop: [{ command: "x" }] } }, cmd, FILE)).toThrow(/hooks.Stop\[0\]/);
  });
});

describe("removeCtxHooks", () => {
  it("gives back exactly the user's settings", () => {
    const merged = mergeCtxHooks(userSettings(), cmd, FILE).value;
    const { value, details } = removeCtxHooks(merged);
    expect(value).toEqual(userSettings());
    expect(JSON.stringify(value)).toBe(JSON.stringify(userSettings()));
    expect(details).toHaveLength(CTX_HOOK_SPECS.length);
  });

  it("removes `hooks` entirely when only ctx was in it", () => {
    const merged = mergeCtxHooks({ theme: "dark" }, cmd, FILE).value;
    expect(removeCtxHooks(merged).value).toEqual({ theme: "dark" });
  });

  it("leaves groups and events that were already empty alone", () => {
    const settings = { hooks: { Stop: [], PreCompact: [{ matcher: "auto", hooks: [] }] } };
    expect(removeCtxHooks(settings)).toEqual({ value: settings, details: [] });
  });

  it("keeps a user's group that also held a ctx handler", () => {
    const settings = {
      hooks: { Stop: [{ hooks: [{ type: "command", command: "ctx", args: ["hook", "stop"] }, lint] }] },
    };
    expect(removeCtxHooks(settings).value).toEqual({ hooks: { Stop: [{ hooks: [lint] }] } });
  });
});

describe("helpers", () => {
  it("treats *, empty and no matcher as the same", () => {
    expect(sameMatcher("*", undefined)).toBe(true);
    expect(sameMatcher("", "*")).toBe(true);
    expect(sameMatcher("auto", "manual|auto")).toBe(false);
  });

  it("recognises ctx's command handlers and mcp_tool handlers calling a ctx tool on the ctx server", () => {
    expect(isCtxHookHandler({ type: "http", command: "ctx", args: ["hook", "stop"] })).toBe(false);
    expect(isCtxHookHandler({ type: "command", command: "ctx", args: ["hook", "stop"] })).toBe(true);
    expect(isCtxHookHandler({ type: "mcp_tool", server: "ctx", tool: "ctx_guard_tick" })).toBe(true);
    expect(isCtxHookHandler({ type: "mcp_tool", server: "other", tool: "ctx_guard_tick" })).toBe(false);
    expect(isCtxHookHandler({ type: "mcp_tool", server: "ctx", tool: "lint" })).toBe(false);
  });
});

describe("mergeCtxHooks with the mcp wiring (PostToolUse through ctx's MCP server)", () => {
  const fromHook = (field: string) => `\${${field}}`;
  const guardInput = {
    session_id: fromHook("session_id"),
    transcript_path: fromHook("transcript_path"),
    tool_use_id: fromHook("tool_use_id"),
  };
  const userMcpHook = { type: "mcp_tool", server: "github", tool: "notify", input: { s: fromHook("session_id") } };

  it("wires PostToolUse as an mcp_tool call of ctx_guard_tick and every other event as a command", () => {
    const { value, details } = mergeCtxHooks({}, cmd, FILE, "mcp");
    const hooks = value.hooks as Record<string, Array<{ matcher?: string; hooks: JsonObject[] }>>;
    expect(hooks.PostToolUse).toEqual([
      {
        matcher: "*",
        hooks: [
          {
            type: "mcp_tool",
            server: "ctx",
            tool: "ctx_guard_tick",
            input: guardInput,
            timeout: 10,
          },
        ],
      },
    ]);
    expect(hooks.Stop?.[0]?.hooks[0]).toMatchObject({ type: "command", args: ["hook", "stop"] });
    expect(details.find((line) => line.includes("PostToolUse"))).toContain("via ctx's MCP server");
  });

  it("turns an existing command handler into the mcp_tool one in place (and back), keeping the person's timeout and keys", () => {
    const commandWired = mergeCtxHooks(userSettings(), cmd, FILE, "command").value;
    const groups = (commandWired.hooks as Record<string, Array<{ hooks: JsonObject[] }>>).PostToolUse ?? [];
    const ours = groups[1]?.hooks[0] as JsonObject;
    ours.timeout = 5;
    ours.statusMessage = "ticking";
    const viaServer = mergeCtxHooks(commandWired, cmd, FILE, "mcp");
    const after = (viaServer.value.hooks as Record<string, Array<{ hooks: JsonObject[] }>>).PostToolUse ?? [];
    expect(after).toHaveLength(2);
    expect(after[0]?.hooks).toEqual([lint]);
    expect(after[1]?.hooks[0]).toEqual({
      type: "mcp_tool",
      server: "ctx",
      tool: "ctx_guard_tick",
      input: guardInput,
      timeout: 5,
      statusMessage: "ticking",
    });
    expect(viaServer.details).toEqual([
      "~ hooks.PostToolUse: post-tool-use hook now a call to ctx's MCP server (no process)",
    ]);
    expect(mergeCtxHooks(viaServer.value, cmd, FILE, "mcp").details).toEqual([]);
    const back = mergeCtxHooks(viaServer.value, cmd, FILE, "command").value;
    const backGroups = (back.hooks as Record<string, Array<{ hooks: JsonObject[] }>>).PostToolUse ?? [];
    expect(backGroups[1]?.hooks[0]).toEqual({
      type: "command",
      command: "ctx",
      args: ["hook", "post-tool-use"],
      timeout: 5,
      statusMessage: "ticking",
    });
  });

  it("--remove takes the mcp_tool handler out and leaves the person's own mcp_tool hooks", () => {
    const settings = userSettings();
    (settings.hooks as Record<string, unknown[]>).PostToolUse?.push({ hooks: [userMcpHook] });
    const wired = mergeCtxHooks(settings, cmd, FILE, "mcp").value;
    expect(removeCtxHooks(wired).value).toEqual(settings);
  });
});
