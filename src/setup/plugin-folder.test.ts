import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { deployArgs, pnpmCommand, writePluginFolder } from "./plugin-folder.ts";

const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A repository folder with the package.json the build reads its name and version from. */
function repoWithPackage(): string {
  const base = mkdtempSync(join(tmpdir(), "ctx-plugin-folder-"));
  temps.push(base);
  writeFileSync(join(base, "package.json"), JSON.stringify({ name: "claude-ctx", version: "0.1.0" }));
  return base;
}

describe("pnpmCommand", () => {
  it("runs the pnpm script that runs the build with this Node", () => {
    const env = { npm_execpath: "/opt/pnpm/bin/pnpm.cjs" };
    expect(pnpmCommand(env, "/usr/bin/node")).toEqual({ command: "/usr/bin/node", args: ["/opt/pnpm/bin/pnpm.cjs"] });
  });

  it("runs a pnpm binary itself, and pnpm from PATH when npm or nothing runs the build", () => {
    expect(pnpmCommand({ npm_execpath: "/usr/local/bin/pnpm" }, "node")).toEqual({
      command: "/usr/local/bin/pnpm",
      args: [],
    });
    expect(pnpmCommand({ npm_execpath: "/usr/lib/node_modules/npm/bin/npm-cli.js" }, "node").command).toBe("pnpm");
    expect(pnpmCommand({}, "node").command).toBe("pnpm");
  });
});

describe("deployArgs", () => {
  it("copies only the production packages, from the store, with no network", () => {
    const args = deployArgs("claude-ctx", "/r/plugin");
    expect(args).toEqual(expect.arrayContaining(["deploy", "--filter=claude-ctx", "--prod", "--offline", "/r/plugin"]));
    expect(args.at(-1)).toBe("/r/plugin");
  });
});

describe("writePluginFolder", () => {
  it.each([
    ["plugin", "src"],
    ["plugin.old", "docs"],
    ["plugin.next", ".git"],
  ])("refuses %s as a link to the repository's own %s, and removes nothing there", async (name, target) => {
    const base = repoWithPackage();
    mkdirSync(join(base, target));
    writeFileSync(join(base, target, "keep.txt"), "mine\n");
    symlinkSync(target, join(base, name));
    const deploy = { command: process.execPath, args: ["-e", "0"] };
    await expect(writePluginFolder(base, deploy, "node")).rejects.toThrow(`${name} is a link`);
    expect(readdirSync(join(base, target))).toEqual(["keep.txt"]);
  });

  it("refuses a plugin folder that is a link out of the repository, and removes nothing there", async () => {
    const base = mkdtempSync(join(tmpdir(), "ctx-plugin-folder-"));
    temps.push(base);
    const repo = join(base, "repo");
    const outside = join(base, "outside");
    mkdirSync(repo);
    mkdirSync(outside);
    writeFileSync(join(outside, "keep.txt"), "mine\n");
    writeFileSync(join(repo, "package.json"), JSON.stringify({ name: "claude-ctx", version: "0.1.0" }));
    symlinkSync(outside, join(repo, "plugin"));
    await expect(writePluginFolder(repo, { command: "false", args: [] }, "node")).rejects.toThrow("plugin is a link");
    expect(readdirSync(outside)).toEqual(["keep.txt"]);
  });

  it("says what pnpm printed when the deploy fails, and leaves the last build as it was", async () => {
    const base = repoWithPackage();
    mkdirSync(join(base, "plugin"));
    writeFileSync(join(base, "plugin", "built.txt"), "the last build\n");
    const failing = { command: process.execPath, args: ["-e", "console.error('no store here'); process.exit(3)"] };
    await expect(writePluginFolder(base, failing, "node")).rejects.toThrow(
      /pnpm deploy into plugin\/ failed \(exit 3\):\nno store here/,
    );
    expect(readdirSync(join(base, "plugin"))).toEqual(["built.txt"]);
    expect(readdirSync(base).sort()).toEqual(["package.json", "plugin"]);
  });

  it("swaps the new build in whole: the last build's files are gone, the rendered files are there", async () => {
    const base = repoWithPackage();
    mkdirSync(join(base, "plugin"));
    writeFileSync(join(base, "plugin", "stale.txt"), "the last build\n");
    // A stand-in for pnpm deploy: writes dist/ctx.js into the folder it is given (its last argument).
    const deploy = [
      "const folder = process.argv.at(-1);",
      "require('node:fs').mkdirSync(folder + '/dist', { recursive: true });",
      "require('node:fs').writeFileSync(folder + '/dist/ctx.js', '// built');",
    ].join(" ");
    const written = await writePluginFolder(
      base,
      { command: process.execPath, args: ["-e", deploy] },
      "/opt/node/bin/node",
    );
    expect(written).toContain("plugin/.claude-plugin/plugin.json");
    // The commands run the Node it was given.
    const hooks = readFileSync(join(base, "plugin", "hooks", "hooks.json"), "utf8");
    expect(JSON.parse(hooks).hooks.SessionStart[0].hooks[0].command).toBe("/opt/node/bin/node");
    expect(readdirSync(join(base, "plugin")).sort()).toEqual([".claude-plugin", "commands", "dist", "hooks"]);
    expect(readdirSync(base).sort()).toEqual(["package.json", "plugin"]);
  });
});
