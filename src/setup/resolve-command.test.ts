import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { resolveHookEvent } from "../core/hooks/events.ts";
import { CTX_HOOK_SPECS } from "../core/setup/init/hooks-spec.ts";
import { findOnPath, lookupOnPath, resolveCtxCommand } from "./resolve-command.ts";
import type { SelfInfo } from "./self.ts";

let dir: string;
let self: SelfInfo;

beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), "ctx-resolve-")));
  mkdirSync(join(dir, "pkg", "dist"), { recursive: true });
  mkdirSync(join(dir, "bin"));
  mkdirSync(join(dir, "other"));
  writeFileSync(join(dir, "pkg", "dist", "ctx.js"), "#!/usr/bin/env node\n", { mode: 0o755 });
  self = {
    entry: join(dir, "pkg", "dist", "ctx.js"),
    execPath: "/usr/bin/node",
    nodeVersion: "24.0.0",
    platform: "linux",
  };
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function executable(path: string, text = "#!/bin/sh\n"): void {
  writeFileSync(path, text);
  chmodSync(path, 0o755);
}

describe("findOnPath", () => {
  it("finds the first executable and skips non-executable files", () => {
    writeFileSync(join(dir, "other", "ctx"), "not executable");
    executable(join(dir, "bin", "ctx"));
    expect(findOnPath("ctx", { PATH: `${join(dir, "other")}:${join(dir, "bin")}` }, "linux")).toBe(
      join(dir, "bin", "ctx"),
    );
    expect(findOnPath("ctx", { PATH: join(dir, "other") }, "linux")).toBeNull();
  });
});

describe("resolveCtxCommand", () => {
  it("chooses `ctx` when it links to this program", () => {
    symlinkSync(self.entry, join(dir, "bin", "ctx"));
    const resolved = resolveCtxCommand({ PATH: join(dir, "bin") }, self);
    expect(resolved.choice).toMatchObject({ command: "ctx", prefixArgs: [] });
    expect(resolved.warnings).toEqual([]);
  });

  it("chooses `claude-ctx` when `ctx` is another tool", () => {
    executable(join(dir, "bin", "ctx"), "#!/bin/sh\necho other\n");
    symlinkSync(self.entry, join(dir, "bin", "claude-ctx"));
    const resolved = resolveCtxCommand({ PATH: join(dir, "bin") }, self);
    expect(resolved.choice.command).toBe("claude-ctx");
    expect(resolved.choice.reason).toContain("another program");
  });

  it("sees through a pnpm shim", () => {
    const shim = `#!/bin/sh\nbasedir=$(dirname "$(echo "$0" | sed -e 's,\\\\,/,g')")\nexec node "$basedir/../pkg/dist/ctx.js" "$@"\n`;
    executable(join(dir, "bin", "ctx"), shim);
    expect(lookupOnPath("ctx", { PATH: join(dir, "bin") }, "linux")?.targets).toContain(self.entry);
    expect(resolveCtxCommand({ PATH: join(dir, "bin") }, self).choice.command).toBe("ctx");
  });

  it("falls back to absolute node + dist/ctx.js and warns that the path is machine-specific", () => {
    const resolved = resolveCtxCommand({ PATH: join(dir, "other") }, self);
    expect(resolved.choice).toMatchObject({ command: "/usr/bin/node", prefixArgs: [self.entry] });
    expect(resolved.warnings.join(" ")).toContain("absolute paths");
  });

  it("warns when running from a temporary npx copy", () => {
    const npx = { ...self, entry: "/home/u/.npm/_npx/1234/node_modules/claude-ctx/dist/ctx.js" };
    expect(resolveCtxCommand({ PATH: "" }, npx).warnings.join(" ")).toContain("npx");
  });
});

describe("hook arguments", () => {
  it("are events the hook dispatcher knows", () => {
    for (const spec of CTX_HOOK_SPECS) expect(resolveHookEvent(spec.arg), spec.arg).not.toBeNull();
  });
});
