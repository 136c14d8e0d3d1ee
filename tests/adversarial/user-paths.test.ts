// Hostile paths the person names (issue #21, break 2): `ctx report --out` into folders that are not ctx's, onto
// special files and through links. Safe outcome: no folder's mode changes, only a regular file is ever written
// (new ones 0600), anything else is refused at once with the path and what it is, and nothing else changed.
import { execFileSync, spawnSync } from "node:child_process";
import {
  chmodSync,
  chownSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readlinkSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:net";
import { homedir } from "node:os";
import { join, relative } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { listTree, makeWorld, RUNNERS, runCtxIn, treeChanges, UNPRIVILEGED_ID, type World } from "./harness.ts";

/** ctx's own folders, which a run may create or change; everything else is compared before and after. */
const CTX_FOLDERS = ["home/.ctx", "repo/.ctx"];
/** A refusal must come at once: far below the harness's kill (which would show as a signal). */
const QUICK_MS = 15_000;

describe.each(RUNNERS)("user-named output paths, as the %s user", (runner) => {
  let world: World;
  let uid: number;
  beforeEach(() => {
    world = makeWorld(runner, "user-paths");
    uid = runner === "unprivileged" ? UNPRIVILEGED_ID : (process.getuid?.() ?? 0);
  });
  afterEach(() => world.cleanup());

  const snapshot = () => listTree(world.base, CTX_FOLDERS);
  const give = (path: string) => {
    if (runner === "unprivileged") chownSync(path, UNPRIVILEGED_ID, UNPRIVILEGED_ID);
  };
  const report = (out: string, ...more: string[]) =>
    runCtxIn(world, ["report", "--out", out, ...more], { timeoutMs: QUICK_MS });

  it("break 2: report --out into the home folder, a 1777 folder and a shared 0775 folder leaves their modes; the page is 0600", async () => {
    const sticky = join(world.base, "tmp");
    const shared = join(world.base, "shared");
    mkdirSync(sticky);
    chmodSync(sticky, 0o1777); // root's, like /tmp
    mkdirSync(shared);
    give(shared);
    chmodSync(shared, 0o775);
    chmodSync(world.home, 0o755);
    const before = snapshot();
    const outs = [join(world.home, "report.html"), join(sticky, "report.html"), join(shared, "report.html")];
    for (const out of outs) {
      const run = await report(out);
      expect(run.stderr).toBe("");
      expect(run).toMatchObject({ code: 0, stdout: `${out}\n` });
    }
    const changes = treeChanges(before, snapshot());
    // Exactly the three pages appeared, each this user's and 0600; no folder line changed.
    expect(changes).toHaveLength(3);
    for (const out of outs) {
      const rel = relative(world.base, out);
      expect(changes.some((line) => line.startsWith(`+ f 0600 ${uid}:${uid} ${rel} `))).toBe(true);
    }
    expect(readFileSync(outs[0] ?? "", "utf8")).toContain("<html");
  });

  it("break 2: report --out onto the null device is refused; it stays the same character device and its folder keeps its mode", async () => {
    // As root the probe makes its own null device (mknod c 1 3) in a 0755 folder of the world, so that a regression
    // can never replace the machine's /dev/null or chmod /dev (the code before this fix did both); a user who is not
    // root probes the real /dev/null, which they cannot replace anyway.
    let devFolder = "/dev";
    if (process.getuid?.() === 0) {
      devFolder = join(world.base, "dev");
      mkdirSync(devFolder);
      give(devFolder);
      chmodSync(devFolder, 0o755);
      execFileSync("mknod", ["-m", "666", join(devFolder, "null"), "c", "1", "3"]);
    }
    const nullDevice = join(devFolder, "null");
    const facts = () => {
      const dev = lstatSync(devFolder);
      const nul = lstatSync(nullDevice);
      return {
        dev: dev.mode,
        devIno: dev.ino,
        nul: nul.mode,
        nulIno: nul.ino,
        rdev: nul.rdev,
        char: nul.isCharacterDevice(),
      };
    };
    const before = facts();
    const tree = snapshot();
    const run = await report(nullDevice);
    expect(run).toMatchObject({ code: 1, signal: null, stdout: "" });
    expect(run.stderr).toContain(`${nullDevice} is a character device; ctx writes only regular files`);
    expect(facts()).toEqual(before);
    expect(before.char).toBe(true);
    expect(treeChanges(tree, snapshot())).toEqual([]);
  });

  it("break 2: a FIFO, a folder and a socket as --out are refused without blocking, each left as it was", async () => {
    const fifo = join(world.home, "pipe");
    execFileSync("mkfifo", [fifo]);
    give(fifo);
    const folder = join(world.home, "folder");
    mkdirSync(folder, { mode: 0o755 });
    give(folder);
    const socket = join(world.home, "s.sock");
    const server = createServer();
    await new Promise<void>((done) => server.listen(socket, done));
    try {
      give(socket);
      const before = snapshot();
      for (const [out, what] of [
        [fifo, "a FIFO"],
        [folder, "a folder"],
        [socket, "a socket"],
      ] as const) {
        const started = Date.now();
        const run = await report(out);
        expect(run).toMatchObject({ code: 1, signal: null, stdout: "" });
        expect(run.stderr).toContain(`${out} is ${what}`);
        expect(Date.now() - started).toBeLessThan(QUICK_MS);
      }
      expect(treeChanges(before, snapshot())).toEqual([]);
      expect(lstatSync(fifo).isFIFO() && lstatSync(socket).isSocket()).toBe(true);
    } finally {
      await new Promise((done) => server.close(done));
    }
  });

  it("break 2: a symbolic link as --out is refused without --force and written through with --force", async () => {
    const target = join(world.home, "real.html");
    writeFileSync(target, "mine");
    chmodSync(target, 0o644);
    give(target);
    const link = join(world.home, "link.html");
    symlinkSync("real.html", link);
    const before = snapshot();
    const refused = await report(link);
    expect(refused).toMatchObject({ code: 1, signal: null });
    expect(refused.stderr).toContain(`${link} is a symbolic link (to real.html)`);
    expect(refused.stderr).toContain("--force");
    expect(treeChanges(before, snapshot())).toEqual([]);

    const forced = await report(link, "--force");
    expect(forced).toMatchObject({ code: 0, stdout: `${target}\n` });
    expect(readlinkSync(link)).toBe("real.html");
    expect(readFileSync(target, "utf8")).toContain("<html");
    // Only the target's bytes changed: same owner, same mode, every folder as it was.
    const changes = treeChanges(before, snapshot());
    expect(changes).toHaveLength(2);
    expect(changes.every((line) => line.includes(" home/real.html "))).toBe(true);
    expect(changes[1]).toMatch(new RegExp(`^\\+ f 0644 ${uid}:${uid} home/real.html `));
  });
});

describe("the launcher scripts/install-launcher.sh writes into a folder the person names", () => {
  const script = new URL("../../scripts/install-launcher.sh", import.meta.url).pathname;
  const toolchain =
    process.env.CTX_TOOLCHAIN_DIR ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "ctx-toolchain");

  it("break 2: a FIFO or a link leading out as <dir>/ctx is refused at once; nothing in the tree changes", () => {
    const world = makeWorld("current", "launcher");
    try {
      const fifoDir = join(world.home, "fifo-bin");
      mkdirSync(fifoDir, { mode: 0o775 });
      execFileSync("mkfifo", [join(fifoDir, "ctx")]);
      const linkDir = join(world.home, "link-bin");
      mkdirSync(linkDir, { mode: 0o755 });
      writeFileSync(join(world.base, "outside"), "someone else's file\n");
      symlinkSync(join(world.base, "outside"), join(linkDir, "ctx"));
      // The toolchain script asks npm for its config, and npm keeps ~/.npm: not the launcher's doing.
      const before = listTree(world.base, ["home/.npm"]);
      for (const [dir, what] of [
        [fifoDir, "a FIFO"],
        [linkDir, "a symbolic link"],
      ] as const) {
        const started = Date.now();
        const run = spawnSync("bash", [script, "--dir", dir], {
          env: { HOME: world.home, PATH: process.env.PATH ?? "/usr/bin:/bin", CTX_TOOLCHAIN_DIR: toolchain },
          encoding: "utf8",
          timeout: QUICK_MS,
        });
        expect(run.status, run.stderr).toBe(1);
        expect(run.stderr).toContain(`${join(dir, "ctx")} is ${what}`);
        expect(Date.now() - started).toBeLessThan(QUICK_MS);
      }
      expect(treeChanges(before, listTree(world.base, ["home/.npm"]))).toEqual([]);
      expect(readFileSync(join(world.base, "outside"), "utf8")).toBe("someone else's file\n");
    } finally {
      world.cleanup();
    }
  });
});
