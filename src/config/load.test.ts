import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { thrownCtxError } from "../../tests/helpers/ctx-error.ts";
import { globalConfigPath, loadConfig, readEnvironmentLayer } from "./load.ts";

let home: string;
let project: string;
let env: NodeJS.ProcessEnv;

beforeEach(() => {
  const base = mkdtempSync(join(tmpdir(), "ctx-config-"));
  home = join(base, "home");
  project = join(base, "project");
  mkdirSync(join(project, ".ctx"), { recursive: true });
  mkdirSync(home, { recursive: true });
  env = { CTX_HOME: home };
});

describe("loadConfig", () => {
  it("gives every documented default when no file or variable is set", () => {
    const config = loadConfig({ projectRoot: project, env });
    expect(config.retention).toEqual({
      maxSnapshots: 5,
      maxAgeDays: 30,
      maxTotalMegabytes: 500,
      archiveSnapshots: true,
      maxTranscriptMegabytes: 64,
    });
    expect(config.guard.warningPercent).toBe(30);
    expect(config.guard.criticalPercent).toBe(3);
    expect(config.search.weights.bestSimilarity).toBe(1);
    expect(config.search.tieMargin).toBe(0.05);
    expect(config.embedder.provider).toBe("none");
    expect(config.hooks.blockCompactionOnSaveFailure).toBe(true);
  });

  it("layers global <- project <- environment", () => {
    writeFileSync(globalConfigPath(env), JSON.stringify({ retention: { maxSnapshots: 8, maxAgeDays: 60 } }));
    writeFileSync(join(project, ".ctx", "config.json"), JSON.stringify({ retention: { maxSnapshots: 9 } }));
    const config = loadConfig({
      projectRoot: project,
      env: { ...env, CTX_RETENTION__MAX_AGE_DAYS: "90", CTX_EMBEDDER__PROVIDER: "ollama" },
    });
    expect(config.retention.maxSnapshots).toBe(9);
    expect(config.retention.maxAgeDays).toBe(90);
    expect(config.retention.maxTotalMegabytes).toBe(500);
    expect(config.embedder.provider).toBe("ollama");
  });

  it("names the file and the field of an invalid value", () => {
    const file = join(project, ".ctx", "config.json");
    writeFileSync(file, JSON.stringify({ guard: { warningPercent: 140 } }));
    const error = thrownCtxError(() => loadConfig({ projectRoot: project, env }));
    expect(error.code).toBe("CONFIG_INVALID");
    expect(error.message).toContain(file);
    expect(error.message).toContain("guard.warningPercent");
    expect(error.message).toContain("at most 100");
  });

  it("takes the prompt part's weight from a project's config and refuses a negative one, naming it", () => {
    expect(loadConfig({ projectRoot: project, env }).search.weights.promptSimilarity).toBe(0.4);
    const file = join(project, ".ctx", "config.json");
    writeFileSync(file, JSON.stringify({ search: { weights: { promptSimilarity: 0 } } }));
    expect(loadConfig({ projectRoot: project, env }).search.weights.promptSimilarity).toBe(0);
    writeFileSync(file, JSON.stringify({ search: { weights: { promptSimilarity: -0.5 } } }));
    const error = thrownCtxError(() => loadConfig({ projectRoot: project, env }));
    expect(error.code).toBe("CONFIG_INVALID");
    expect(error.message).toContain(file);
    expect(error.message).toContain("search.weights.promptSimilarity");
  });

  it("refuses a team timeout PostgreSQL would refuse at every connection's start, naming the setting", () => {
    const error = thrownCtxError(() =>
      loadConfig({ projectRoot: project, env: { ...env, CTX_TEAM__STATEMENT_TIMEOUT_MS: "3000000000" } }),
    );
    expect(error.code).toBe("CONFIG_INVALID");
    expect(error.message).toContain("team.statementTimeoutMs");
    expect(error.message).toContain("at most 2147483647");
  });

  it("names the global file when the bad value comes from there, not the project", () => {
    writeFileSync(globalConfigPath(env), JSON.stringify({ retention: { maxSnapshots: -1 } }));
    writeFileSync(join(project, ".ctx", "config.json"), JSON.stringify({ retention: { maxAgeDays: 10 } }));
    const error = thrownCtxError(() => loadConfig({ projectRoot: project, env }));
    expect(error.message).toContain(globalConfigPath(env));
    expect(error.message).toContain("retention.maxSnapshots");
  });

  it("rejects unknown settings by name, and malformed JSON with the file path", () => {
    const file = join(project, ".ctx", "config.json");
    writeFileSync(file, JSON.stringify({ retention: { maxSnapshot: 3 } }));
    expect(thrownCtxError(() => loadConfig({ projectRoot: project, env })).message).toMatch(
      /unknown setting "maxSnapshot"/,
    );
    writeFileSync(file, "{ not json");
    const error = thrownCtxError(() => loadConfig({ projectRoot: project, env }));
    expect(error.message).toContain(file);
    expect(error.message).toContain("not valid JSON");
  });

  it("names the environment variable of a bad value", () => {
    const error = thrownCtxError(() => loadConfig({ env: { ...env, CTX_GUARD__WARNING_PERCENT: "lots" } }));
    expect(error.message).toContain("CTX_GUARD__WARNING_PERCENT");
    const range = thrownCtxError(() => loadConfig({ env: { ...env, CTX_SUMMARIES__PROVIDER: "gpt" } }));
    expect(range.message).toContain("CTX_SUMMARIES__PROVIDER");
    expect(range.message).toContain('"extractive"');
  });
});

describe("error attribution", () => {
  it("blames the file holding an unknown top-level key, not the environment", () => {
    const file = join(project, ".ctx", "config.json");
    writeFileSync(file, JSON.stringify({ bogus: 1 }));
    const error = thrownCtxError(() =>
      loadConfig({ projectRoot: project, env: { ...env, CTX_GUARD__WARNING_PERCENT: "20" } }),
    );
    expect(error.message).toContain(file);
    expect(error.message).toContain('unknown setting "bogus"');
  });

  it("says 'greater than' for settings that must be positive", () => {
    writeFileSync(join(project, ".ctx", "config.json"), JSON.stringify({ retention: { maxSnapshots: 0 } }));
    expect(thrownCtxError(() => loadConfig({ projectRoot: project, env })).message).toContain("must be greater than 0");
  });
});

describe("readEnvironmentLayer", () => {
  it.each([" ", "0x1E", "1e3", "30%", "thirty"])("rejects %j for a number setting", (value) => {
    expect(() => readEnvironmentLayer({ CTX_GUARD__WARNING_PERCENT: value })).toThrow(/CTX_GUARD__WARNING_PERCENT/);
  });

  it("maps nested keys, including snake_case compartments, and types values by their default", () => {
    const layer = readEnvironmentLayer({
      CTX_BUDGET__CAPS__ACTIVE_TASK: "5000",
      CTX_HOOKS__AUTO_RESTORE: "false",
      CTX_UNRELATED: "x",
      CTX_REDACTION__ALLOWLIST: "AKIAIOSFODNN7EXAMPLE, sk_test_public ,",
    });
    expect(layer.value).toEqual({
      budget: { caps: { active_task: 5000 } },
      hooks: { autoRestore: false },
      redaction: { allowlist: ["AKIAIOSFODNN7EXAMPLE", "sk_test_public"] },
    });
  });
});
