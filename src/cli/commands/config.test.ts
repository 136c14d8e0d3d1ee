// `ctx config` through the CLI, in a temp project with its own CTX_HOME: a value round-trips through every layer
// (default -> global -> project -> environment and back), a refused value writes nothing, files are 0600.
import { lstatSync, mkdirSync, mkdtempSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { runCliCaptured } from "../../../tests/helpers/cli-run.ts";
import { rejectedCtxError } from "../../../tests/helpers/ctx-error.ts";
import { SettingListSchema, SettingSchema } from "../../config/settings.ts";
import { ConfigEditResultSchema } from "./config-helpers.ts";

let root: string;
let home: string;
let env: NodeJS.ProcessEnv;
const run = (argv: string[], extraEnv: NodeJS.ProcessEnv = {}) =>
  runCliCaptured(["config", ...argv], { cwd: root, env: { ...env, ...extraEnv } });
const globalFile = () => join(home, "config.json");
const projectFile = () => join(root, ".ctx", "config.json");
const getJson = async (key: string, extraEnv: NodeJS.ProcessEnv = {}) =>
  SettingSchema.parse(JSON.parse((await run(["get", key, "--json"], extraEnv)).stdout));

beforeEach(() => {
  const base = mkdtempSync(join(tmpdir(), "ctx-config-cli-"));
  root = join(base, "repo");
  home = join(base, "ctx-home");
  mkdirSync(join(root, ".git"), { recursive: true });
  env = { CTX_HOME: home, HOME: base };
});

describe("ctx config", () => {
  it("round-trips one setting through every layer and back", async () => {
    expect((await run(["get", "search.minSimilarity"])).stdout).toBe("0.25\n");
    expect(await getJson("search.minSimilarity")).toMatchObject({ source: "default", value: 0.25 });

    expect((await run(["set", "search.minSimilarity", "0.3", "--global"])).stdout).toBe(
      `set search.minSimilarity = 0.3 in ${globalFile()}\n`,
    );
    expect(await getJson("search.minSimilarity")).toMatchObject({ source: "global", from: globalFile(), value: 0.3 });

    const project = ConfigEditResultSchema.parse(
      JSON.parse((await run(["set", "search.minSimilarity", "0.35", "--project", "--json"])).stdout),
    );
    expect(project).toMatchObject({
      file: projectFile(),
      scope: "project",
      after: 0.35,
      changed: true,
      overriddenBy: null,
    });
    expect(JSON.parse(readFileSync(projectFile(), "utf8"))).toEqual({ search: { minSimilarity: 0.35 } });
    expect(await getJson("search.minSimilarity")).toMatchObject({ source: "project", value: 0.35 });
    expect((await run(["get", "search.minSimilarity", "--global"])).stdout).toBe("0.3\n");

    const envSet = { CTX_SEARCH__MIN_SIMILARITY: "0.5" };
    expect(await getJson("search.minSimilarity", envSet)).toMatchObject({
      source: "environment",
      from: "CTX_SEARCH__MIN_SIMILARITY",
      value: 0.5,
    });
    const shadowed = await run(["set", "search.minSimilarity", "0.4", "--project"], envSet);
    expect(shadowed.stderr).toContain("still taken from the environment CTX_SEARCH__MIN_SIMILARITY");

    await run(["unset", "search.minSimilarity", "--project"]);
    expect(await getJson("search.minSimilarity")).toMatchObject({ source: "global", value: 0.3 });
    expect(JSON.parse(readFileSync(projectFile(), "utf8"))).toEqual({});
    await run(["unset", "search.minSimilarity"]);
    expect(await getJson("search.minSimilarity")).toMatchObject({ source: "default", value: 0.25 });
    expect((await run(["unset", "search.minSimilarity"])).stdout).toContain("was not set");
  });

  it("lists every setting with its source; --project lists only that file's", async () => {
    await run(["set", "guard.enabled", "false", "--project"]);
    await run(["set", "redaction.allowlist", "sk-test-1,sk-test-2"]);
    const all = SettingListSchema.parse(JSON.parse((await run(["list", "--json"])).stdout)).settings;
    expect(all.length).toBeGreaterThan(50);
    expect(all.find((s) => s.key === "guard.enabled")).toMatchObject({ value: false, source: "project" });
    expect(all.find((s) => s.key === "redaction.allowlist")).toMatchObject({
      value: ["sk-test-1", "sk-test-2"],
      source: "global",
    });
    const text = (await run(["list", "--project"])).stdout;
    expect(text.trim().split("\n")).toEqual([`guard.enabled  false  (project ${projectFile()})`]);
  });

  it("refuses an invalid key or value, naming the field and the allowed values, and writes nothing", async () => {
    await run(["set", "embedder.batchSize", "32"]);
    const before = readFileSync(globalFile(), "utf8");
    const mtime = statSync(globalFile()).mtimeMs;
    const bad = await rejectedCtxError(run(["set", "embedder.provider", "openai"]));
    expect(bad.message).toBe('embedder.provider: "openai" is refused (must be one of "none", "nomic", "ollama")');
    expect(bad.hint).toBe("embedder.provider takes one of none, nomic, ollama; nothing was written");
    const range = await rejectedCtxError(run(["set", "embedder.batchSize", "1000"]));
    expect(range.hint).toContain("a whole number greater than 0 and at most 256");
    expect((await rejectedCtxError(run(["set", "embedder.batchsize", "3"]))).hint).toContain("embedder.batchSize");
    expect(readFileSync(globalFile(), "utf8")).toBe(before);
    expect(statSync(globalFile()).mtimeMs).toBe(mtime);
    expect(() => lstatSync(projectFile())).toThrow();
    expect(await rejectedCtxError(run(["set", "guard.enabled", "true", "--global", "--project"]))).toMatchObject({
      code: "USAGE",
    });
  });

  it("writes the file 0600 in a 0700 folder and keeps the settings it did not touch", async () => {
    mkdirSync(home, { recursive: true });
    writeFileSync(globalFile(), JSON.stringify({ retention: { maxSnapshots: 9 } }));
    await run(["set", "retention.maxAgeDays", "60"]);
    expect(JSON.parse(readFileSync(globalFile(), "utf8"))).toEqual({ retention: { maxSnapshots: 9, maxAgeDays: 60 } });
    expect(statSync(globalFile()).mode & 0o777).toBe(0o600);
    await run(["set", "rules.reinject", "off", "--project"]);
    expect(statSync(join(root, ".ctx")).mode & 0o777).toBe(0o700);
    expect(statSync(projectFile()).mode & 0o777).toBe(0o600);
  });

  it("lets an unknown key a file holds be removed (the way to repair it), and refuses to follow a symlink", async () => {
    mkdirSync(home, { recursive: true });
    writeFileSync(globalFile(), JSON.stringify({ guard: { warnPercent: 3 } }));
    expect((await rejectedCtxError(run(["list"]))).message).toContain('unknown setting "warnPercent"');
    expect((await run(["unset", "guard.warnPercent"])).stdout).toContain("removed guard.warnPercent");
    expect((await run(["list"])).code).toBe(0);

    mkdirSync(join(root, ".ctx"), { recursive: true });
    const elsewhere = join(home, "elsewhere.json");
    writeFileSync(elsewhere, "{}");
    symlinkSync(elsewhere, projectFile());
    const refused = await rejectedCtxError(run(["set", "guard.enabled", "false", "--project"]));
    expect(refused.message).toContain("is not a regular file");
    expect(readFileSync(elsewhere, "utf8")).toBe("{}");
  });

  it("path names both files and says which exist", async () => {
    const paths = JSON.parse((await run(["path", "--json"])).stdout);
    expect(paths).toEqual({
      global: { file: globalFile(), exists: false },
      project: { file: projectFile(), exists: false, root },
    });
    expect((await run(["path", "--project"])).stdout).toBe(`${projectFile()}\n`);
  });
});

describe("ctx config trust and secrets (issue #21)", () => {
  it("break 1: a project file's sensitive settings count only once the user trusts that exact file", async () => {
    mkdirSync(join(root, ".ctx"), { recursive: true });
    writeFileSync(
      projectFile(),
      JSON.stringify({
        embedder: { provider: "ollama", ollamaUrl: "http://127.0.0.1:25555" },
        guard: { floorPercent: 4 },
      }),
    );
    expect(await getJson("embedder.ollamaUrl")).toMatchObject({ source: "default", value: "http://127.0.0.1:11434" });
    expect(await getJson("guard.floorPercent")).toMatchObject({ source: "project", value: 4 });
    const listed = await run(["list"]);
    expect(listed.stderr).toContain("embedder.ollamaUrl");
    expect(listed.stderr).toContain("ctx config trust");

    const trusted = await run(["trust", "--json"]);
    expect(JSON.parse(trusted.stdout)).toMatchObject({ trusted: true, changed: true });
    expect(statSync(globalFile()).mode & 0o777).toBe(0o600);
    expect(await getJson("embedder.ollamaUrl")).toMatchObject({ source: "project", value: "http://127.0.0.1:25555" });

    // One byte more and the trust is gone.
    writeFileSync(projectFile(), `${readFileSync(projectFile(), "utf8")} `);
    expect(await getJson("embedder.ollamaUrl")).toMatchObject({ source: "default" });
    await run(["trust"]);
    expect(await getJson("embedder.ollamaUrl")).toMatchObject({ source: "project" });
    expect((await run(["untrust"])).stdout).toContain("no longer trusted");
    expect(await getJson("embedder.ollamaUrl")).toMatchObject({ source: "default" });
    expect(JSON.parse(readFileSync(globalFile(), "utf8"))).toEqual({});
  });

  it("trust refuses a project with no config file", async () => {
    const error = await rejectedCtxError(run(["trust"]));
    expect(error.message).toContain("nothing to trust");
  });

  it("break 6: list and get show a credential as (set, N chars) unless --show-secrets", async () => {
    const token = "s3cr3t-token-0123456789abcdef";
    const url = "https://nas.example/webapi/entry.cgi?api=SYNO.Chat.External&token=%22abc%22";
    await run(["set", "bridge.synology.token", token]);
    await run(["set", "bridge.synology.incomingUrl", url]);
    const list = await run(["list"]);
    expect(list.stdout).not.toContain(token);
    expect(list.stdout).not.toContain("abc");
    expect(list.stdout).toContain(`(set, ${token.length} chars)`);
    const listJson = await run(["list", "--json"]);
    expect(listJson.stdout).not.toContain(token);
    expect((await run(["get", "bridge.synology.token"])).stdout).toBe(`(set, ${token.length} chars)\n`);
    expect((await run(["get", "bridge.synology.token", "--global"])).stdout).not.toContain(token);
    expect((await run(["get", "bridge.synology.incomingUrl", "--json"])).stdout).not.toContain("abc");
    expect((await run(["get", "bridge.synology.token", "--show-secrets"])).stdout).toBe(`${token}\n`);
    expect((await run(["list", "--show-secrets"])).stdout).toContain(token);
    const set = await run(["set", "bridge.synology.token", `${token}x`, "--json"]);
    expect(set.stdout).not.toContain(token);
    // An unset credential shows as empty, not as set.
    expect((await run(["get", "bridge.synology.token"], { CTX_HOME: join(home, "other") })).stdout).toBe('""\n');
  });
});
