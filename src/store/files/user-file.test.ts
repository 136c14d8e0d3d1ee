import { execFileSync } from "node:child_process";
import {
  chmodSync,
  chownSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { requireUserFolder, userFileTarget, writeUserNamedFile } from "./user-file.ts";

/** A null device (c 1 3) of the test's own, in a 0755 folder below `dir` (root only). */
function nullDeviceIn(dir: string): string {
  const folder = join(dir, "dev");
  mkdirSync(folder, { recursive: true, mode: 0o755 });
  const device = join(folder, "null");
  try {
    lstatSync(device);
  } catch {
    execFileSync("mknod", ["-m", "666", device, "c", "1", "3"]);
  }
  return device;
}

let dir: string;
const mode = (path: string) => statSync(path).mode & 0o7777;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "ctx-user-file-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("writeUserNamedFile", () => {
  it.each([0o755, 0o775, 0o1777])("makes a new file 0600 and leaves a %o folder's mode alone", async (folderMode) => {
    const folder = join(dir, "shared");
    mkdirSync(folder);
    chmodSync(folder, folderMode);
    const written = await writeUserNamedFile(join(folder, "report.html"), "<html>");
    expect(written).toBe(join(folder, "report.html"));
    expect(mode(written)).toBe(0o600);
    expect(readFileSync(written, "utf8")).toBe("<html>");
    expect(mode(folder)).toBe(folderMode);
  });

  it("replaces an existing file of this user's, keeping its mode", async () => {
    const file = join(dir, "page.html");
    writeFileSync(file, "old");
    chmodSync(file, 0o644);
    await writeUserNamedFile(file, "new");
    expect(readFileSync(file, "utf8")).toBe("new");
    expect(mode(file)).toBe(0o644);
  });

  it("rewrites a hard-linked file in place, so every name sees the new bytes", async () => {
    const file = join(dir, "a.html");
    writeFileSync(file, "old old old");
    linkSync(file, join(dir, "b.html"));
    const inode = statSync(file).ino;
    await writeUserNamedFile(file, "new");
    expect(readFileSync(join(dir, "b.html"), "utf8")).toBe("new");
    expect(statSync(file).ino).toBe(inode);
  });

  it.runIf(process.getuid?.() === 0)("as root, rewrites another user's file in place, keeping its owner", async () => {
    const file = join(dir, "theirs.html");
    writeFileSync(file, "old");
    chmodSync(file, 0o640);
    chownSync(file, 65_534, 65_534);
    await writeUserNamedFile(file, "new");
    expect(readFileSync(file, "utf8")).toBe("new");
    expect(statSync(file)).toMatchObject({ uid: 65_534, gid: 65_534 });
    expect(mode(file)).toBe(0o640);
  });

  it("does not create a missing folder", async () => {
    await expect(writeUserNamedFile(join(dir, "missing", "deeper", "r.html"), "x")).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: expect.stringContaining(join(dir, "missing", "deeper")),
    });
    expect(() => lstatSync(join(dir, "missing"))).toThrow();
  });

  it("refuses a folder, naming it", async () => {
    mkdirSync(join(dir, "folder"), { mode: 0o755 });
    await expect(writeUserNamedFile(join(dir, "folder"), "x")).rejects.toMatchObject({
      code: "UNSAFE_PATH",
      message: `${join(dir, "folder")} is a folder; ctx writes only regular files`,
    });
    expect(mode(join(dir, "folder"))).toBe(0o755);
  });

  it("refuses a FIFO without blocking, and leaves it a FIFO", async () => {
    const fifo = join(dir, "pipe");
    execFileSync("mkfifo", [fifo]);
    await expect(writeUserNamedFile(fifo, "x")).rejects.toMatchObject({
      code: "UNSAFE_PATH",
      message: expect.stringContaining("is a FIFO"),
    });
    expect(lstatSync(fifo).isFIFO()).toBe(true);
  });

  it("refuses a socket", async () => {
    const path = join(dir, "s.sock");
    const server: Server = createServer();
    await new Promise<void>((done) => server.listen(path, done));
    try {
      await expect(writeUserNamedFile(path, "x")).rejects.toMatchObject({
        message: expect.stringContaining("a socket"),
      });
      expect(lstatSync(path).isSocket()).toBe(true);
    } finally {
      await new Promise((done) => server.close(done));
    }
  });

  it("refuses a character device (a null device) before touching it or its folder", async () => {
    // Root makes its own null device in a temp folder: a regression must never replace the machine's /dev/null.
    const device = process.getuid?.() === 0 ? nullDeviceIn(dir) : "/dev/null";
    const folder = join(device, "..");
    const folderMode = mode(folder);
    await expect(writeUserNamedFile(device, "x")).rejects.toMatchObject({
      message: `${device} is a character device; ctx writes only regular files`,
    });
    expect(lstatSync(device).isCharacterDevice()).toBe(true);
    expect(mode(folder)).toBe(folderMode);
  });

  it("refuses a symbolic link without force and writes its target with force, keeping the link", async () => {
    const target = join(dir, "real.html");
    writeFileSync(target, "old");
    const link = join(dir, "link.html");
    symlinkSync("real.html", link);
    await expect(writeUserNamedFile(link, "new")).rejects.toMatchObject({
      code: "UNSAFE_PATH",
      message: expect.stringContaining(`${link} is a symbolic link (to real.html)`),
    });
    expect(readFileSync(target, "utf8")).toBe("old");
    expect(await writeUserNamedFile(link, "new", { force: true })).toBe(target);
    expect(readFileSync(target, "utf8")).toBe("new");
    expect(readlinkSync(link)).toBe("real.html");
  });

  it("with force, creates a dangling link's target 0600, and still refuses a link to a FIFO or a device", async () => {
    symlinkSync(join(dir, "new.html"), join(dir, "dangling"));
    await writeUserNamedFile(join(dir, "dangling"), "x", { force: true });
    expect(mode(join(dir, "new.html"))).toBe(0o600);
    execFileSync("mkfifo", [join(dir, "pipe")]);
    symlinkSync(join(dir, "pipe"), join(dir, "to-pipe"));
    symlinkSync(process.getuid?.() === 0 ? nullDeviceIn(dir) : "/dev/null", join(dir, "to-null"));
    for (const name of ["to-pipe", "to-null"])
      await expect(writeUserNamedFile(join(dir, name), "x", { force: true })).rejects.toMatchObject({
        code: "UNSAFE_PATH",
      });
    expect(lstatSync(join(dir, "pipe")).isFIFO()).toBe(true);
  });

  it("gives up on a loop of links", async () => {
    symlinkSync(join(dir, "b"), join(dir, "a"));
    symlinkSync(join(dir, "a"), join(dir, "b"));
    await expect(writeUserNamedFile(join(dir, "a"), "x", { force: true })).rejects.toMatchObject({
      message: expect.stringContaining("too many symbolic links"),
    });
  });
});

describe("userFileTarget", () => {
  it("refuses a path holding a control character", async () => {
    await expect(userFileTarget(join(dir, "a\nb"))).rejects.toMatchObject({ code: "UNSAFE_PATH" });
  });

  it("reports an absent file as new and an existing one with its facts", async () => {
    expect((await userFileTarget(join(dir, "x"))).existing).toBeNull();
    writeFileSync(join(dir, "y"), "1");
    expect((await userFileTarget(join(dir, "y"))).existing?.size).toBe(1);
  });

  it("requireUserFolder accepts an existing folder as it is and refuses a missing one without making it", async () => {
    mkdirSync(join(dir, "work"), { mode: 0o775 });
    chmodSync(join(dir, "work"), 0o775);
    await requireUserFolder(join(dir, "work"));
    expect(mode(join(dir, "work"))).toBe(0o775);
    await expect(requireUserFolder(join(dir, "gone"))).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(() => lstatSync(join(dir, "gone"))).toThrow();
  });
});
