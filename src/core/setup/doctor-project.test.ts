import { describe, expect, it } from "vitest";
import { checkProjectWiring } from "./doctor-project.ts";
import { CTX_HOOK_SPECS } from "./init/hooks-spec.ts";
import { INIT_FILES, type InitFileKey, type PlannedChange, planInit } from "./init/plan.ts";

const cmd = { command: "ctx", prefixArgs: [] };
const NONE: Record<InitFileKey, string | null> = {
  mcpJson: null,
  settings: null,
  settingsLocal: null,
  forkDetect: null,
  summarizeAll: null,
  summarizeFrom: null,
  clearSummaries: null,
  contextStats: null,
  stats: null,
  reindex: null,
  gitignore: null,
};

function initialisedFiles(): Record<InitFileKey, string | null> {
  const changes: PlannedChange[] = planInit({ files: NONE, ctxDir: { kind: "missing" } }, "install", cmd);
  const files = { ...NONE };
  for (const key of Object.keys(INIT_FILES) as InitFileKey[]) {
    const operation = changes.find((change) => change.file === INIT_FILES[key])?.operation;
    if (operation?.kind === "write") files[key] = operation.content;
  }
  return files;
}

const resolvable = () => null;
const byId = (
  files: Record<InitFileKey, string | null>,
  pluginEnabled = false,
  problem: () => string | null = resolvable,
) => Object.fromEntries(checkProjectWiring({ files, pluginEnabled, commandProblem: problem }).map((f) => [f.id, f]));

describe("checkProjectWiring", () => {
  it("is all ok right after ctx init", () => {
    const findings = byId(initialisedFiles());
    expect(Object.values(findings).map((finding) => finding.status)).toEqual(["ok", "ok", "ok", "ok", "ok"]);
    expect(findings["project-hooks"]?.message).toContain(`all ${CTX_HOOK_SPECS.length} wired`);
  });

  it("fails a project where ctx init never ran, each with `ctx init` as the fix", () => {
    const findings = byId(NONE);
    expect(findings["project-mcp"]).toMatchObject({ status: "fail", fix: "ctx init" });
    expect(findings["project-hooks"]).toMatchObject({ status: "fail", fix: "ctx init" });
    expect(findings.gitignore).toMatchObject({ status: "warn", fix: "ctx init" });
  });

  it("accepts the plugin as the wiring", () => {
    const findings = byId({ ...NONE, gitignore: ".ctx/\n" }, true);
    expect(Object.values(findings).every((finding) => finding.status === "ok")).toBe(true);
  });

  it("fails an MCP command that does not resolve", () => {
    const findings = byId(initialisedFiles(), false, () => "`ctx` is not on PATH");
    expect(findings["project-mcp"]).toMatchObject({ status: "fail", message: expect.stringContaining("not on PATH") });
    expect(findings["project-hooks"]?.status).toBe("fail");
  });

  it("flags a hook without a timeout and a timeout given in milliseconds", () => {
    const files = initialisedFiles();
    const settings = JSON.parse(files.settings ?? "{}");
    delete settings.hooks.Stop[0].hooks[0].timeout;
    settings.hooks.SessionEnd[0].hooks[0].timeout = 30000;
    const message = byId({ ...files, settings: JSON.stringify(settings) })["project-hooks"]?.message ?? "";
    expect(message).toContain("Stop has no timeout");
    expect(message).toContain("SessionEnd timeout 30000 s");
  });

  it("turns a broken settings file into a failing finding instead of throwing", () => {
    const findings = checkProjectWiring({
      files: { ...initialisedFiles(), settings: "{" },
      pluginEnabled: false,
      commandProblem: resolvable,
    });
    expect(findings.find((finding) => finding.message.includes("settings.json is not valid JSON"))?.status).toBe(
      "fail",
    );
  });

  it("fails when ctx is disabled for this project", () => {
    const files = { ...initialisedFiles(), settingsLocal: '{"disabledMcpjsonServers": ["ctx"]}' };
    expect(byId(files)["project-mcp-approval"]?.status).toBe("fail");
  });
});
