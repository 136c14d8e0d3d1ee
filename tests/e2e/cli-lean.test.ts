// The person's commands load only what they run (their start-up is `node bench/run.ts cli`): `ctx --version` no
// commander, `ctx --help` no command's module, `ctx status` its own alone, and `ctx search` of the index as it is no
// MCP SDK, no bridge, no index sync and no embedder. Checked on the built bundle by recording every module the process resolves, then
// reading ctx's own chunks among them (their names are hashed): the functions they define, and the source files
// they name (`// src/…` comments; a chunk of one file may lack its own).
import { mkdirSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { writeSampleClaudeDir } from "../helpers/sample-claude-dir.ts";
import { runCtx } from "./ctx-process.ts";

const recorder = fileURLToPath(new URL("./record-imports.mjs", import.meta.url));
const root = mkdtempSync(join(tmpdir(), "ctx-cli-lean-"));
const project = join(root, "repo");
mkdirSync(join(project, ".git"), { recursive: true });
const claudeDir = join(root, "claude");
writeSampleClaudeDir(claudeDir);
const env = { HOME: join(root, "home"), CTX_HOME: join(root, "ctx-home"), CLAUDE_CONFIG_DIR: claudeDir };

interface Loaded {
  stdout: string;
  /** Every module URL the process resolved. */
  modules: string[];
  /** The source files ctx's own chunks it loaded name (`src/search/sync/sync-index.ts`, …; bundled packages as
   *  `node_modules/.pnpm/<name>@…`). */
  sources: string[];
  /** The functions they define (`createProgram`, `registerStatusCommand`, …). */
  functions: string[];
}

async function loadedBy(args: string[], okCodes: number[] = [0], more: Record<string, string> = {}): Promise<Loaded> {
  const list = join(mkdtempSync(join(root, "imports-")), "imports.txt");
  const run = await runCtx(args, {
    cwd: project,
    env: { ...env, ...more, CTX_RECORD_IMPORTS: list, NODE_OPTIONS: `--import=${recorder}` },
  });
  expect(okCodes, run.stderr).toContain(run.code);
  const modules = readFileSync(list, "utf8").split("\n");
  const chunks = modules
    .filter((url) => url.startsWith("file:") && url.includes("/dist/"))
    .map((url) => fileURLToPath(url));
  const texts = chunks.map((file) => readFileSync(file, "utf8"));
  const all = (pattern: RegExp) => [
    ...new Set(texts.flatMap((text) => [...text.matchAll(pattern)].map((m) => m[1] as string))),
  ];
  return {
    stdout: run.stdout,
    modules,
    sources: all(/^\/\/ ((?:src|node_modules)\/\S+\.[jt]s)$/gm),
    functions: all(/^(?:async )?function (\w+)\(/gm),
  };
}

/** node-postgres and its helpers, by their module URLs or (bundled: tsup.config.ts) their sources in ctx's chunks. */
const PG_CLIENT = /(?:^|\/)node_modules\/(?:\.pnpm\/)?(?:pg|pg-connection-string|pgpass)[@/]/;
const pgClient = (loaded: Loaded) => [
  ...matching(loaded, PG_CLIENT),
  ...loaded.sources.filter((source) => PG_CLIENT.test(source)),
];
/** The team's side of a search (src/team/search-port.ts, which loads them, is the port itself). */
const TEAM_FETCH = /^src\/team\/(?:search-fetch|search|connect)\.ts$/;

/** The commands whose module was loaded, by their register functions (./src/cli/program.ts). */
const commandModules = (loaded: Loaded) => loaded.functions.filter((name) => /^register\w+Commands?$/.test(name));
const matching = (loaded: Loaded, pattern: RegExp) => loaded.modules.filter((url) => pattern.test(url));

/** Modules of the hooks' groups: the state files, the saved context, the config's schema. */
const HOOK_GROUP_MODULES = [
  "src/store/files/state-file.ts",
  "src/store/files/container.ts",
  "src/core/context/extract.ts",
  "src/config/schema.ts",
  "src/config/load.ts",
];

describe("the CLI loads only what it runs", () => {
  it("`ctx --version` loads no commander and nothing of the CLI", async () => {
    const loaded = await loadedBy(["--version"]);
    expect(loaded.stdout).toMatch(/^\d+\.\d+\.\d+\S*\n$/);
    // commander is bundled into ctx's chunks (tsup.config.ts), so it shows as their sources, not as a module.
    expect(matching(loaded, /\/commander\//)).toEqual([]);
    expect(loaded.sources.filter((source) => source.includes("/commander@"))).toEqual([]);
    expect(loaded.functions).not.toContain("createProgram");
    expect(commandModules(loaded)).toEqual([]);
    // Nor the hooks' groups (build/chunk-groups.ts), which hold the state files and the config schema. (The cached
    // config's reader is main.ts's group: tsup.config.ts `withMain`.)
    for (const heavy of HOOK_GROUP_MODULES) expect(loaded.sources).not.toContain(heavy);
    expect(matching(loaded, /\/dist\//).length).toBeLessThanOrEqual(4);
  });

  it("`ctx --help` lists every command and loads none of their modules", async () => {
    const loaded = await loadedBy(["--help"]);
    expect(loaded.stdout).toContain("search [options] <query...>");
    // The recorder works: the program itself was loaded.
    expect(loaded.functions).toContain("createProgram");
    expect(commandModules(loaded)).toEqual([]);
  });

  it("`ctx status` loads its own command's module alone, and no MCP SDK", async () => {
    const loaded = await loadedBy(["status"]);
    expect(commandModules(loaded)).toEqual(["registerStatusCommand"]);
    expect(matching(loaded, /@modelcontextprotocol/)).toEqual([]);
  });

  it("`ctx search --no-refresh` loads no MCP SDK, bridge, index sync or embedder", async () => {
    // The checks would catch them: the first search catches the (empty) index up, which loads the sync.
    const first = await loadedBy(["search", "phoenix server", "--json"], [0, 1]);
    expect(first.functions).toContain("syncIndex");
    const loaded = await loadedBy(["search", "phoenix server", "--json", "--no-refresh"], [0, 1]);
    expect(JSON.parse(loaded.stdout)).toMatchObject({ indexedSessions: 7 });
    expect(commandModules(loaded)).toEqual(["registerSearchCommand"]);
    expect(matching(loaded, /@modelcontextprotocol|\/yaml\//)).toEqual([]);
    const unused = /^src\/(mcp|bridge|core\/bridge|search\/sync|search\/embedders)\//;
    expect(loaded.sources.filter((source) => unused.test(source))).toEqual([]);
    for (const name of ["syncIndex", "createEmbedder", "vectorSearchFor", "createServer"])
      expect(loaded.functions).not.toContain(name);
    // Nor the team's code or the PostgreSQL client: fork detection asks the team through its port, which loads them
    // only for a search whose scope asks for the team (below).
    expect(pgClient(loaded)).toEqual([]);
    expect(loaded.sources.filter((source) => TEAM_FETCH.test(source))).toEqual([]);
    // Nor zod: the config comes from the cache the first search filled, and the report's schemas are the MCP tool's.
    expect(loaded.sources.filter((source) => source.includes("/zod@"))).toEqual([]);
    expect(first.sources.filter((source) => source.includes("/zod@"))).not.toEqual([]);
  });

  it("`ctx search --scope all` loads the team's fetch and the PostgreSQL client through the port", async () => {
    // An unreachable team server: the local results come back with one notice.
    const port = "postgresql://ctx@127.0.0.1:9/library";
    const loaded = await loadedBy(["search", "phoenix server", "--json", "--no-refresh", "--scope", "all"], [0, 1], {
      CTX_TEAM__URL: port,
      CTX_TEAM__NAME: "web",
      CTX_TEAM__CONNECT_TIMEOUT_MS: "2000",
    });
    expect(JSON.parse(loaded.stdout).notices).toEqual([expect.stringContaining("team results left out")]);
    expect(pgClient(loaded)).not.toEqual([]);
    expect(loaded.sources.filter((source) => TEAM_FETCH.test(source))).not.toEqual([]);
    // Bundled into ctx's chunks, not loaded file by file from node_modules (a cold team search's ~40 modules).
    expect(loaded.sources).toContainEqual(expect.stringMatching(/\/pg\/lib\/client\.js$/));
    expect(matching(loaded, /\/node_modules\//)).toEqual([]);
  });

  it("`ctx completion` loads every command: its script lists each one's options", async () => {
    const loaded = await loadedBy(["completion", "bash"]);
    expect(commandModules(loaded)).toContain("registerTeamCommand");
    expect(loaded.stdout).toContain("--no-refresh");
  });
});
