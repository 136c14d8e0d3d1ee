// scripts/install-launcher.sh (#24 item 4): after the quick start on a machine whose own Node is too old, `ctx` on
// PATH is a launcher that runs the clone's build with the Node that built it. It replaces only a launcher it wrote.
import { execFileSync, spawnSync } from "node:child_process";
import { lstatSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { assertBuilt, CTX_BIN } from "./ctx-process.ts";

const SCRIPT = fileURLToPath(new URL("../../scripts/install-launcher.sh", import.meta.url));
// The toolchain's cache as this run's toolchain knows it (the launcher's Node comes from there, not from the network).
const TOOLCHAIN_DIR =
  process.env.CTX_TOOLCHAIN_DIR ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "ctx-toolchain");

function install(home: string, dir?: string) {
  return spawnSync("bash", [SCRIPT, ...(dir === undefined ? [] : ["--dir", dir])], {
    env: { HOME: home, PATH: process.env.PATH ?? "/usr/bin:/bin", CTX_TOOLCHAIN_DIR: TOOLCHAIN_DIR },
    encoding: "utf8",
  });
}

describe("scripts/install-launcher.sh", () => {
  it("writes ~/.local/bin/ctx, which runs this build from a shell whose PATH has no Node for ctx", () => {
    assertBuilt();
    const home = mkdtempSync(join(tmpdir(), "ctx-launcher-"));
    const first = install(home);
    expect(first.status, first.stderr).toBe(0);
    const launcher = join(home, ".local", "bin", "ctx");
    expect(first.stdout).toContain(`wrote ${launcher}`);
    expect(first.stdout).toContain("is not on PATH"); // and the line that puts it there
    expect(lstatSync(launcher).mode & 0o777).toBe(0o755);
    expect(readFileSync(launcher, "utf8")).toContain(` ${CTX_BIN} "$@"`);
    const version = execFileSync(launcher, ["--version"], { env: { PATH: "/usr/bin:/bin", HOME: home } });
    expect(version.toString()).toMatch(/^\d+\.\d+\.\d+/);
    // Again: it replaces its own launcher.
    expect(install(home).status).toBe(0);
  });

  it("leaves another `ctx` and a link where they are", () => {
    const home = mkdtempSync(join(tmpdir(), "ctx-launcher-"));
    const dir = join(home, "bin");
    mkdirSync(dir);
    writeFileSync(join(dir, "ctx"), "#!/bin/sh\necho another ctx\n", { mode: 0o755 });
    const other = install(home, dir);
    expect(other.status).toBe(1);
    expect(other.stderr).toContain("is another program; left as it is");
    expect(readFileSync(join(dir, "ctx"), "utf8")).toBe("#!/bin/sh\necho another ctx\n");

    const linked = join(home, "linked");
    mkdirSync(linked);
    symlinkSync(join(home, "elsewhere"), join(linked, "ctx"));
    const link = install(home, linked);
    expect(link.status).toBe(1);
    expect(link.stderr).toContain("is a symbolic link");
    expect(link.stderr).toContain("left as it is");
    expect(lstatSync(join(linked, "ctx")).isSymbolicLink()).toBe(true);
  });
});
