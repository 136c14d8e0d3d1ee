import { describe, expect, it } from "vitest";
import { checkUserWiring, isCtxPluginEnabled, type UserFacts } from "./doctor-user.ts";
import { mergeCtxHooks } from "./init/settings-hooks.ts";

const settingsWith = (command: string) =>
  JSON.stringify(mergeCtxHooks({}, { command, prefixArgs: [] }, "settings.json").value);

const facts = (overrides: Partial<UserFacts> = {}): UserFacts => ({
  project: "/work/p",
  settingsPath: "/h/.claude/settings.json",
  settings: null,
  claudeJsonPath: "/h/.claude.json",
  claudeJson: JSON.stringify({ projects: { "/work/p": { hasTrustDialogAccepted: true } } }),
  projectSettings: settingsWith("ctx"),
  ...overrides,
});
const byId = (f: UserFacts, plugin = false) => Object.fromEntries(checkUserWiring(f, plugin).map((x) => [x.id, x]));

describe("checkUserWiring", () => {
  it("is quiet when ctx is wired per project only", () => {
    const findings = byId(facts());
    expect(findings["user-hooks"]?.status).toBe("ok");
    expect(findings["user-mcp"]?.status).toBe("ok");
    expect(findings.trust).toBeUndefined();
  });

  it("informs about identical user-level hooks (they run once)", () => {
    expect(byId(facts({ settings: settingsWith("ctx") }))["user-hooks"]).toMatchObject({
      status: "ok",
      message: expect.stringContaining("run once"),
    });
  });

  it("warns when user-level ctx hooks differ from the project's (they run twice)", () => {
    const finding = byId(facts({ settings: settingsWith("claude-ctx") }))["user-hooks"];
    expect(finding).toMatchObject({ status: "warn", fix: expect.stringContaining("/h/.claude/settings.json") });
  });

  it("warns about a local-scope ctx server that shadows .mcp.json", () => {
    const claudeJson = JSON.stringify({ projects: { "/work/p": { mcpServers: { ctx: { command: "old" } } } } });
    expect(byId(facts({ claudeJson }))["user-mcp"]).toMatchObject({
      status: "warn",
      fix: "claude mcp remove ctx -s local",
    });
  });

  it("mentions the trust prompt when the folder is not trusted yet", () => {
    expect(byId(facts({ claudeJson: "{}" })).trust?.status).toBe("ok");
  });

  it("warns when the plugin and ctx init both wire the hooks", () => {
    expect(byId(facts(), true).plugin?.status).toBe("warn");
    expect(byId(facts({ projectSettings: null }), true).plugin?.status).toBe("ok");
  });

  it("warns (does not throw) on a broken ~/.claude.json", () => {
    expect(byId(facts({ claudeJson: "{oops" }))["user-mcp"]?.status).toBe("warn");
  });
});

describe("isCtxPluginEnabled", () => {
  it("finds ctx@<marketplace> set to true in any settings file", () => {
    expect(isCtxPluginEnabled([null, '{"enabledPlugins": {"ctx@ctx": true}}'])).toBe(true);
    expect(isCtxPluginEnabled(['{"enabledPlugins": {"ctx@ctx": false, "ctxx@m": true}}', "{bad"])).toBe(false);
  });
});
