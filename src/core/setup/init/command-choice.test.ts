import { describe, expect, it } from "vitest";
import { PLUGIN_ENTRY } from "../plugin-files.ts";
import {
  chooseCtxCommand,
  isCtxInvocation,
  LAUNCHER_MARKER,
  parseShimTargets,
  splitCommandLine,
} from "./command-choice.ts";

const self = "/opt/lib/node_modules/claude-ctx/dist/ctx.js";
const base = { self, distEntry: self, execPath: "/usr/bin/node", ctxOnPath: null, claudeCtxOnPath: null };

describe("chooseCtxCommand", () => {
  it("writes `ctx` when ctx on PATH is this program", () => {
    const choice = chooseCtxCommand({ ...base, ctxOnPath: { path: "/usr/bin/ctx", targets: [self] } });
    expect(choice).toMatchObject({ command: "ctx", prefixArgs: [] });
  });

  it("falls back to `claude-ctx` when `ctx` is another tool, and says so", () => {
    const choice = chooseCtxCommand({
      ...base,
      ctxOnPath: { path: "/usr/bin/ctx", targets: ["/usr/bin/ctx"] },
      claudeCtxOnPath: { path: "/usr/bin/claude-ctx", targets: [self] },
    });
    expect(choice).toMatchObject({ command: "claude-ctx", prefixArgs: [] });
    expect(choice.reason).toContain("another program (/usr/bin/ctx)");
  });

  it("uses absolute node + dist/ctx.js when neither name is this program", () => {
    const choice = chooseCtxCommand({
      ...base,
      claudeCtxOnPath: { path: "/x/claude-ctx", targets: ["/other/ctx.js"] },
    });
    expect(choice).toMatchObject({ command: "/usr/bin/node", prefixArgs: [self] });
  });

  it("lets --command override, split into command and prefix", () => {
    const choice = chooseCtxCommand(
      { ...base, ctxOnPath: { path: "/usr/bin/ctx", targets: [self] } },
      'node "/my dir/ctx.js"',
    );
    expect(choice).toMatchObject({ command: "node", prefixArgs: ["/my dir/ctx.js"], reason: "--command" });
  });
});

describe("splitCommandLine", () => {
  it("keeps quoted parts together", () => {
    expect(splitCommandLine(`a "b c" 'd e' f`)).toEqual(["a", "b c", "d e", "f"]);
  });
});

describe("isCtxInvocation", () => {
  it.each([
    ["ctx", ["hook", "stop"], true],
    ["/usr/local/bin/claude-ctx", ["hook", "stop"], true],
    ["C:\\tools\\ctx.cmd", ["hook", "stop"], true],
    ["/usr/bin/node", ["/x/dist/ctx.js", "hook", "stop"], true],
    ["node", [PLUGIN_ENTRY, "hook", "stop"], true],
    ["ctx", ["serve"], false],
    ["node", ["/x/other.js", "hook", "stop"], false],
    ["my-linter", ["hook", "stop"], false],
    ["ctx", [1, 2], false],
  ])("%s %j -> %s", (command, args, expected) => {
    expect(isCtxInvocation(command, args, "hook")).toBe(expected);
  });

  it("recognises shell-form strings", () => {
    expect(isCtxInvocation('node "/a b/dist/ctx.js" hook session-start', undefined, "hook")).toBe(true);
    expect(isCtxInvocation("echo ctx hook", undefined, "hook")).toBe(false);
  });

  it("recognises the custom command being written now", () => {
    const current = { command: "/opt/wrap", prefixArgs: ["--quiet"] };
    expect(isCtxInvocation("/opt/wrap", ["--quiet", "serve"], "serve", current)).toBe(true);
    expect(isCtxInvocation("/opt/wrap", ["--loud", "serve"], "serve", current)).toBe(false);
  });
});

describe("parseShimTargets", () => {
  it("reads the script a pnpm/npm sh shim starts", () => {
    const shim = `#!/bin/sh\nbasedir=$(dirname "$0")\nexec node  "$basedir/global/5/node_modules/claude-ctx/dist/ctx.js" "$@"\n`;
    expect(parseShimTargets(shim, "/home/u/.pnpm")).toEqual([
      "/home/u/.pnpm/global/5/node_modules/claude-ctx/dist/ctx.js",
    ]);
  });

  it("reads a cmd shim", () => {
    const shim = `@ECHO off\r\n"%_prog%"  "%dp0%\\node_modules\\claude-ctx\\dist\\ctx.js" %*\r\n`;
    expect(parseShimTargets(shim, "/c/npm")).toEqual(["/c/npm/node_modules/claude-ctx/dist/ctx.js"]);
  });

  it("reads the launcher scripts/install-launcher.sh writes, and no other script's quoted paths", () => {
    const launcher = `#!/bin/sh\n${LAUNCHER_MARKER}: runs /src/ctx/dist/ctx.js\nexec /c/node/bin/node /src/ctx/dist/ctx.js "$@"\n`;
    expect(parseShimTargets(launcher, "/home/u/.local/bin")).toEqual(["/src/ctx/dist/ctx.js"]);
    const quoted = `#!/bin/sh\n${LAUNCHER_MARKER}\nexec '/my node/bin/node' '/my src/ctx/dist/ctx.js' "$@"\n`;
    expect(parseShimTargets(quoted, "/home/u/.local/bin")).toEqual(["/my src/ctx/dist/ctx.js"]);
    expect(parseShimTargets("#!/bin/sh\nexec '/usr/bin/node' '/opt/other/main.js'\n", "/usr/bin")).toEqual([]);
  });

  it("finds nothing in an ordinary binary's text", () => {
    expect(parseShimTargets("ELF garbage", "/usr/bin")).toEqual([]);
  });
});
