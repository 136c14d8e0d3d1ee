// Links a cloned repository commits (issue #21, break 3): `ctx init` and `init --remove` with a file or folder of
// theirs leading out of the repository, and a memory file leading out of Claude Code's memory folder. Safe outcome:
// refused with the link and where it leads named, before anything is written, inside the repository or outside. And
// the build's plugin folders committed as links (src/setup/plugin-folder.ts): refused before anything is removed.
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { defaultConfig } from "../../src/config/defaults.ts";
import { writePluginFolder } from "../../src/setup/plugin-folder.ts";
import { memoryDirFor } from "../../src/store/memory/memory-store.ts";
import {
  chownTree,
  ctxCommand,
  listTree,
  makeWorld,
  RUNNERS,
  runCtxIn,
  treeChanges,
  UNPRIVILEGED_ID,
  type World,
} from "./harness.ts";

/** ctx's own state folder in the home; the repository's `.ctx/` is compared too (init must not make it here). */
const CTX_FOLDERS = ["home/.ctx"];

/** A home like the user's: a shell profile and Claude Code's global settings. */
function plantHome(world: World): void {
  writeFileSync(join(world.home, ".bashrc"), "export PATH=$HOME/bin:$PATH\n");
  writeFileSync(join(world.claudeDir, "settings.json"), '{\n  "model": "opus"\n}\n');
  writeFileSync(join(world.base, "outside.json"), "{}\n");
}

/** The links of break 3, each planted alone: [what the repository commits, where it leads]. */
const LINKS: ReadonlyArray<readonly [string, (world: World) => string]> = [
  [".gitignore", (w) => join(w.home, ".bashrc")],
  [".claude/settings.json", (w) => join(w.claudeDir, "settings.json")],
  [".claude", (w) => w.claudeDir],
  [".mcp.json", (w) => join(w.base, "outside.json")],
];

describe.each(RUNNERS)("links in a repository, as the %s user", (runner) => {
  let world: World;
  beforeEach(() => {
    world = makeWorld(runner, "repo-links");
    plantHome(world);
    mkdirSync(join(world.repo, ".git"));
    writeFileSync(join(world.repo, "README.md"), "# a cloned repository\n");
  });
  afterEach(() => world.cleanup());

  const owned = () => {
    if (runner === "unprivileged") chownTree(world.base, UNPRIVILEGED_ID, UNPRIVILEGED_ID);
  };
  const snapshot = () => listTree(world.base, CTX_FOLDERS);

  it.each(LINKS)(
    "break 3: init and init --remove refuse %s leading out of the repository, writing nothing",
    async (link, to) => {
      const target = to(world);
      mkdirSync(dirname(join(world.repo, link)), { recursive: true });
      symlinkSync(target, join(world.repo, link));
      owned();
      const before = snapshot();
      for (const args of [["init"], ["init", "--remove"], ["init", "--dry-run"]]) {
        const run = await runCtxIn(world, [...args, "--command", "ctx"]);
        expect(run).toMatchObject({ code: 1, signal: null, stdout: "" });
        expect(run.stderr).toContain(`${link} is a symbolic link to ${target}`);
        expect(run.stderr).toContain(`outside the repository ${world.repo}`);
        // Nothing changed anywhere: not the target, not the repository (the plan is checked before the first write).
        expect(treeChanges(before, snapshot())).toEqual([]);
      }
      expect(readFileSync(join(world.home, ".bashrc"), "utf8")).toBe("export PATH=$HOME/bin:$PATH\n");
    },
  );

  it("break 3: a link that stays inside the repository is followed, and nothing outside it changes", async () => {
    mkdirSync(join(world.repo, "shared"));
    writeFileSync(join(world.repo, "shared", "mcp.json"), "{}\n");
    symlinkSync("shared/mcp.json", join(world.repo, ".mcp.json"));
    owned();
    const outside = listTree(world.base, [...CTX_FOLDERS, "repo"]);
    const run = await runCtxIn(world, ["init", "--command", "ctx"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(JSON.parse(readFileSync(join(world.repo, "shared", "mcp.json"), "utf8")).mcpServers.ctx.command).toBe("ctx");
    expect(treeChanges(outside, listTree(world.base, [...CTX_FOLDERS, "repo"]))).toEqual([]);
  });

  it("break 3: a memory file written through a link leaving the memory folder is refused", async () => {
    const memoryDir = memoryDirFor(world.repo, world.env, defaultConfig());
    mkdirSync(memoryDir, { recursive: true });
    symlinkSync(join(world.home, ".bashrc"), join(memoryDir, "retry_policy.md"));
    owned();
    const before = snapshot();
    const { command, args } = ctxCommand(world, ["serve"]);
    const transport = new StdioClientTransport({
      command,
      args,
      cwd: world.repo,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...world.env, CLAUDE_PROJECT_DIR: world.repo } as Record<
        string,
        string
      >,
      stderr: "pipe",
    });
    const client = new Client({ name: "adversarial", version: "1.0.0" });
    try {
      await client.connect(transport);
      const result = await client.callTool({
        name: "ctx_memory_write",
        arguments: { name: "retry policy", description: "how we retry", type: "project", content: "three times" },
      });
      expect(result.isError).toBe(true);
      const text = JSON.stringify(result.content);
      expect(text).toContain(`retry_policy.md is a symbolic link to ${join(world.home, ".bashrc")}`);
      expect(text).toContain("outside the memory folder");
    } finally {
      await client.close();
    }
    expect(treeChanges(before, snapshot())).toEqual([]);
    expect(readFileSync(join(world.home, ".bashrc"), "utf8")).toBe("export PATH=$HOME/bin:$PATH\n");
  });
});

/** The build's plugin folder names, each committed as a link: to the repository's own folders, and out of it. */
const PLUGIN_LINKS: ReadonlyArray<readonly [string, (world: World) => string]> = [
  ["plugin", (w) => join(w.repo, "src")],
  ["plugin.old", (w) => join(w.repo, "docs")],
  ["plugin.next", (w) => join(w.repo, ".git")],
  ["plugin.old", (w) => w.claudeDir],
];

describe("the plugin build in a repository that commits its folders as links", () => {
  let world: World;
  beforeEach(() => {
    world = makeWorld("current", "plugin-links");
    plantHome(world);
    for (const folder of ["src", "docs", ".git"]) {
      mkdirSync(join(world.repo, folder));
      writeFileSync(join(world.repo, folder, "keep.txt"), "mine\n");
    }
    writeFileSync(join(world.repo, "package.json"), JSON.stringify({ name: "claude-ctx", version: "0.1.0" }));
  });
  afterEach(() => world.cleanup());

  it.each(PLUGIN_LINKS)("refuses %s as a link, removing and writing nothing anywhere", async (name, to) => {
    symlinkSync(to(world), join(world.repo, name));
    const before = listTree(world.base);
    // A stand-in for pnpm deploy that would fill whatever folder it is given.
    const deploy = { command: process.execPath, args: ["-e", "require('node:fs').mkdirSync(process.argv.at(-1))"] };
    await expect(writePluginFolder(world.repo, deploy, process.execPath)).rejects.toMatchObject({
      code: "UNSAFE_PATH",
      message: expect.stringContaining(`${name} is a link`),
    });
    expect(treeChanges(before, listTree(world.base))).toEqual([]);
  });
});
