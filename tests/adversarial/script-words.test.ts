// Words ctx writes into shell scripts (issue #31, section 5): scripts/install-launcher.sh wrote the clone's path raw
// into a comment of `~/.local/bin/ctx`, and a newline in it became a command run on every `ctx`; scripts/toolchain.sh
// printed its cache folder raw inside double quotes for the caller to eval. Safe outcome: every path is quoted or its
// comment kept to one line, so a folder named with a newline, quotes, `$(…)` and backticks runs nothing, and the
// path is still the one used.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makeWorld, type World } from "./harness.ts";

const checkout = new URL("../..", import.meta.url).pathname;
const toolchain =
  process.env.CTX_TOOLCHAIN_DIR ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "ctx-toolchain");
/** A folder name that, written raw into a script, would end a comment and run `touch injected` three ways. */
const HOSTILE_NAME = 'clone\n$(touch injected) `touch injected` "it\'s"';

let world: World | undefined;
afterEach(() => {
  world?.cleanup();
  world = undefined;
});

describe("paths in the scripts ctx writes", () => {
  it("install-launcher.sh from a clone whose path holds a newline, quotes and $(…) writes a launcher that runs it and nothing else", () => {
    world = makeWorld("current", "launcher-words");
    // The clone: this checkout's files, reached through a folder with the hostile name.
    const clone = join(world.base, HOSTILE_NAME);
    mkdirSync(clone);
    for (const entry of ["scripts", "src", "dist", "node_modules", "package.json"]) {
      symlinkSync(join(checkout, entry), join(clone, entry));
    }
    const bin = join(world.base, "bin");
    mkdirSync(bin);
    const env = { HOME: world.home, PATH: process.env.PATH ?? "/usr/bin:/bin", CTX_TOOLCHAIN_DIR: toolchain };
    const install = spawnSync("bash", [join(clone, "scripts", "install-launcher.sh"), "--dir", bin], {
      cwd: world.base,
      env,
      encoding: "utf8",
    });
    expect(install.status, install.stderr).toBe(0);
    // Run from the world's folder, the injected commands would leave `injected` there.
    const version = execFileSync(join(bin, "ctx"), ["--version"], { cwd: world.base, env, encoding: "utf8" });
    expect(version).toMatch(/^\d+\.\d+\.\d+/);
    expect(existsSync(join(world.base, "injected"))).toBe(false);
    expect(readFileSync(join(bin, "ctx"), "utf8")).toContain(`'${clone.replaceAll("'", "'\\''")}/dist/ctx.js'`);
  });

  it("toolchain.sh's exports, eval'd by sh, set PATH to a cache folder with such a name and run nothing else", () => {
    world = makeWorld("current", "toolchain-words");
    // A cache as toolchain.sh leaves it (this machine's Node, the pinned pnpm's version), under the hostile name.
    const cache = join(world.base, HOSTILE_NAME);
    mkdirSync(join(cache, "node_modules", "node", "bin"), { recursive: true });
    mkdirSync(join(cache, "node_modules", "pnpm"), { recursive: true });
    symlinkSync(process.execPath, join(cache, "node_modules", "node", "bin", "node"));
    const pnpmVersion = /PNPM_VERSION=(\S+)/.exec(readFileSync(join(checkout, "scripts", "toolchain.sh"), "utf8"))?.[1];
    writeFileSync(join(cache, "node_modules", "pnpm", "package.json"), JSON.stringify({ version: pnpmVersion }));
    const env = { HOME: world.home, PATH: process.env.PATH ?? "/usr/bin:/bin", CTX_TOOLCHAIN_DIR: cache };
    const exports = execFileSync("bash", [join(checkout, "scripts", "toolchain.sh")], { env, encoding: "utf8" });
    const path = execFileSync("sh", ["-c", `${exports}\nprintf '%s' "$PATH"`], { cwd: world.base, env });
    expect(existsSync(join(world.base, "injected"))).toBe(false);
    expect(path.toString().startsWith(`${cache}/node_modules/node/bin:${cache}/node_modules/.bin:`)).toBe(true);
  });
});
