import { spawnSync } from "node:child_process";
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { applyInitPlan, type InitOptions, planProjectInit } from "./init-project.ts";

let project: string;
const options = (mode: InitOptions["mode"] = "install"): InitOptions => ({ mode, env: { PATH: "" }, command: "ctx" });

beforeEach(() => {
  project = mkdtempSync(join(tmpdir(), "ctx-init-"));
});
afterEach(() => rmSync(project, { recursive: true, force: true }));

/** Every file under the project with its bytes and mode, to compare before/after. */
function tree(root = project): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    const key = relative(project, path);
    const mode = (statSync(path).mode & 0o777).toString(8);
    out[key] = entry.isFile() ? `${mode}:${readFileSync(path, "utf8")}` : `${mode}:dir`;
  }
  return out;
}

async function init(mode: InitOptions["mode"] = "install") {
  const result = await planProjectInit(project, options(mode));
  await applyInitPlan(project, result.changes);
  return result;
}

describe("init on disk", () => {
  it("writes the files, .ctx/ as 0700 and new repository files as 0644", async () => {
    await init();
    const files = tree();
    expect(Object.keys(files).sort()).toEqual([
      ".claude",
      ".claude/commands",
      ".claude/commands/clear-summaries.md",
      ".claude/commands/context-stats.md",
      ".claude/commands/fork-detect.md",
      ".claude/commands/reindex.md",
      ".claude/commands/stats.md",
      ".claude/commands/summarize-all.md",
      ".claude/commands/summarize-from.md",
      ".claude/settings.json",
      ".claude/settings.local.json",
      ".ctx",
      ".gitignore",
      ".mcp.json",
    ]);
    expect(files[".ctx"]).toBe("700:dir");
    expect(files[".mcp.json"]?.startsWith("644:")).toBe(true);
  });

  it("keeps .ctx/ and the personal .claude/settings.local.json out of git, and the shared files in", async () => {
    spawnSync("git", ["init", "-q", project]);
    await init();
    const ignored = (path: string) => spawnSync("git", ["check-ignore", "-q", path], { cwd: project }).status === 0;
    expect(ignored(".claude/settings.local.json")).toBe(true);
    expect(ignored(".ctx/state.ctx")).toBe(true);
    expect(ignored(".claude/settings.json")).toBe(false);
    expect(ignored(".mcp.json")).toBe(false);
  });

  it("keeps the mode of a file it updates", async () => {
    writeFileSync(join(project, ".gitignore"), "dist/\n");
    chmodSync(join(project, ".gitignore"), 0o600);
    await init();
    expect(statSync(join(project, ".gitignore")).mode & 0o777).toBe(0o600);
  });

  it("changes nothing on a second run", async () => {
    await init();
    const first = tree();
    const again = await init();
    expect(tree()).toEqual(first);
    expect(again.changes.every((change) => change.action === "unchanged")).toBe(true);
  });

  it("planning (the dry run) writes nothing", async () => {
    writeFileSync(join(project, ".gitignore"), "dist/\n");
    const before = tree();
    const result = await planProjectInit(project, options());
    expect(result.changes.some((change) => change.action === "create")).toBe(true);
    expect(tree()).toEqual(before);
  });

  it("writes nothing anywhere when one file is not valid JSON", async () => {
    mkdirSync(join(project, ".claude"));
    writeFileSync(join(project, ".claude", "settings.json"), '{ "hooks": { } ');
    const before = tree();
    await expect(planProjectInit(project, options())).rejects.toThrow(
      /\.claude\/settings\.json is not valid JSON.*line 1/,
    );
    expect(tree()).toEqual(before);
  });

  it("stops while planning, with nothing written, when .ctx is a file (another tool's)", async () => {
    writeFileSync(join(project, ".ctx"), "someone else's ctx\n");
    const before = tree();
    const attempt = planProjectInit(project, options());
    await expect(attempt).rejects.toMatchObject({
      code: "INIT_CONFLICT",
      message: expect.stringContaining(`${join(project, ".ctx")} exists but is a file, not a folder`),
      hint: expect.stringContaining("rename or remove it"),
    });
    expect(tree()).toEqual(before);
    // --remove has nothing to do with it and leaves it alone.
    const removed = await init("remove");
    expect(removed.changes.find((change) => change.file === ".ctx/")?.action).toBe("unchanged");
    expect(tree()).toEqual(before);
  });

  it("stops while planning on a .ctx that is a link to nothing, and on a .claude that is a file", async () => {
    symlinkSync(join(project, "gone"), join(project, ".ctx"));
    await expect(planProjectInit(project, options())).rejects.toMatchObject({
      code: "INIT_CONFLICT",
      message: expect.stringContaining("a symbolic link to something that does not exist"),
    });
    rmSync(join(project, ".ctx"));
    writeFileSync(join(project, ".claude"), "");
    await expect(planProjectInit(project, options())).rejects.toMatchObject({
      code: "INIT_CONFLICT",
      message: ".claude is not a folder",
    });
  });

  it("refuses a project folder that does not exist", async () => {
    await expect(planProjectInit(join(project, "nope"), options())).rejects.toThrow(/does not exist/);
  });

  it("--remove restores a project byte for byte, except the kept .ctx/", async () => {
    mkdirSync(join(project, ".claude"));
    writeFileSync(join(project, ".claude", "settings.json"), '{\n  "model": "opus"\n}\n');
    writeFileSync(join(project, ".gitignore"), "node_modules/\n");
    const before = tree();
    await init();
    const removed = await init("remove");
    const after = tree();
    expect(after[".ctx"]).toBe("700:dir");
    delete after[".ctx"];
    expect(after).toEqual(before);
    expect(removed.changes.find((change) => change.file === ".ctx/")?.action).toBe("skip");
  });

  it("--remove leaves a compact file without ctx's entries byte for byte (no re-pretty-printing)", async () => {
    const compact = '{"mcpServers":{"db":{"command":"db-mcp"}}}';
    writeFileSync(join(project, ".mcp.json"), compact);
    const removed = await init("remove");
    expect(removed.changes.find((change) => change.file === ".mcp.json")?.action).toBe("unchanged");
    expect(readFileSync(join(project, ".mcp.json"), "utf8")).toBe(compact);
  });

  it("--remove deletes the .claude/ folders it emptied, not ones holding the user's files", async () => {
    await init();
    writeFileSync(join(project, ".claude", "commands", "mine.md"), "hello\n");
    await init("remove");
    expect(readdirSync(join(project, ".claude"))).toEqual(["commands"]);
    rmSync(join(project, ".claude", "commands", "mine.md"));
    await init();
    await init("remove");
    expect(() => statSync(join(project, ".claude"))).toThrow();
  });
});

describe("init through symbolic links", () => {
  // Links that stay inside the repository (a shared folder of it) are followed; see below for links that leave.
  let elsewhere: string;
  beforeEach(() => {
    elsewhere = join(project, "dotfiles");
    mkdirSync(elsewhere);
  });

  it("updates the targets of linked .mcp.json and .claude/settings.json and keeps the links", async () => {
    const userSettings = '{\n  "model": "opus"\n}\n';
    writeFileSync(join(elsewhere, "mcp.json"), "");
    writeFileSync(join(elsewhere, "settings.json"), userSettings);
    mkdirSync(join(project, ".claude"));
    symlinkSync(join(elsewhere, "mcp.json"), join(project, ".mcp.json"));
    symlinkSync(join(elsewhere, "settings.json"), join(project, ".claude", "settings.json"));
    const isLink = (path: string) => lstatSync(join(project, path)).isSymbolicLink();

    await init();
    expect(isLink(".mcp.json") && isLink(".claude/settings.json")).toBe(true);
    expect(readlinkSync(join(project, ".mcp.json"))).toBe(join(elsewhere, "mcp.json"));
    expect(JSON.parse(readFileSync(join(elsewhere, "mcp.json"), "utf8")).mcpServers.ctx.command).toBe("ctx");
    expect(JSON.parse(readFileSync(join(elsewhere, "settings.json"), "utf8")).hooks.Stop).toHaveLength(1);
    expect((await init()).changes.every((change) => change.action === "unchanged")).toBe(true);

    const removed = await init("remove");
    expect(isLink(".mcp.json") && isLink(".claude/settings.json")).toBe(true);
    expect(readFileSync(join(elsewhere, "settings.json"), "utf8")).toBe(userSettings);
    // Nothing but ctx was in it: emptied, not deleted, since the link is the person's.
    expect(readFileSync(join(elsewhere, "mcp.json"), "utf8")).toBe("{}\n");
    expect(removed.changes.find((change) => change.file === ".mcp.json")?.action).toBe("update");
  });

  it("--remove keeps a linked .claude/ folder", async () => {
    mkdirSync(join(elsewhere, "claude"));
    symlinkSync(join(elsewhere, "claude"), join(project, ".claude"));
    await init();
    expect(readdirSync(join(elsewhere, "claude")).sort()).toEqual(["commands", "settings.json", "settings.local.json"]);
    await init("remove");
    expect(lstatSync(join(project, ".claude")).isSymbolicLink()).toBe(true);
    expect(readdirSync(join(elsewhere, "claude"))).toEqual([]);
  });

  it("stops while planning on a linked file whose target does not exist", async () => {
    symlinkSync(join(elsewhere, "missing.json"), join(project, ".mcp.json"));
    await expect(planProjectInit(project, options())).rejects.toMatchObject({
      code: "INIT_CONFLICT",
      message: expect.stringContaining(".mcp.json is a symbolic link to"),
    });
  });
});

describe("break 3: init and --remove through links that leave the repository", () => {
  let home: string;
  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), "ctx-init-home-"));
    mkdirSync(join(home, ".claude"));
    writeFileSync(join(home, ".bashrc"), "export PATH\n");
    writeFileSync(join(home, "elsewhere.json"), "{}\n");
    writeFileSync(join(home, ".claude", "settings.json"), '{ "model": "opus" }\n');
  });
  afterEach(() => rmSync(home, { recursive: true, force: true }));

  const homeTree = () =>
    Object.fromEntries(
      ["/.bashrc", "/.claude/settings.json", "/elsewhere.json"].map((p) => [p, readFileSync(home + p, "utf8")]),
    );

  it.each([
    [".gitignore", "/.bashrc"],
    [".claude/settings.json", "/.claude/settings.json"],
    [".claude", "/.claude"],
    [".mcp.json", "/elsewhere.json"],
  ])("refuses %s -> <home>%s while planning, for install and remove, writing nothing", async (link, target) => {
    mkdirSync(dirname(join(project, link)), { recursive: true });
    symlinkSync(home + target, join(project, link));
    const before = tree();
    const homeBefore = homeTree();
    for (const mode of ["install", "remove"] as const) {
      await expect(planProjectInit(project, options(mode))).rejects.toMatchObject({
        code: "UNSAFE_PATH",
        message: expect.stringContaining(`${link} is a symbolic link to ${home}${target}`),
      });
    }
    expect(tree()).toEqual(before);
    expect(homeTree()).toEqual(homeBefore);
  });

  it("applyInitPlan checks the whole plan before its first write", async () => {
    const plan = await planProjectInit(project, options());
    symlinkSync(home, join(project, ".claude")); // planted after planning
    await expect(applyInitPlan(project, plan.changes)).rejects.toMatchObject({ code: "UNSAFE_PATH" });
    expect(readdirSync(project)).toEqual([".claude"]);
    expect(readdirSync(home).sort()).toEqual([".bashrc", ".claude", "elsewhere.json"]);
    expect(readdirSync(join(home, ".claude"))).toEqual(["settings.json"]);
  });
});
