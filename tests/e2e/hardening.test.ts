// Whole-process breaks found by the adversarial pass (issue #11), one test per break, named after it.
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { assertBuilt, CTX_BIN, runCtx } from "./ctx-process.ts";

const base = mkdtempSync(join(tmpdir(), "ctx-hardening-e2e-"));
const env = { CTX_HOME: join(base, "ctx-home"), HOME: base };

/** A Node older than 22 on this machine (CI's and the dev machine's own is 20), or null. */
function oldNode(): string | null {
  for (const candidate of ["/usr/bin/node", "/usr/local/bin/node", "/bin/node"]) {
    try {
      const version = execFileSync(candidate, ["-p", "process.versions.node"], { encoding: "utf8" }).trim();
      if (Number.parseInt(version, 10) < 22) return candidate;
    } catch {
      // not there
    }
  }
  return null;
}

describe("break 7: piped output is cut at 64 KiB", () => {
  it("a slow reader of a pipe gets every byte of a 200 KB answer", async () => {
    assertBuilt();
    const text = "word ".repeat(40_000);
    const child = spawn(process.execPath, [CTX_BIN, "chunk"], {
      cwd: base,
      env: { ...process.env, ...env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    child.stdin.end(text);
    // Read nothing for a while: the pipe fills (64 KiB) and the rest waits in ctx's process.
    child.stdout.pause();
    await new Promise((resolve) => setTimeout(resolve, 700));
    const out: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
    child.stdout.resume();
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(code).toBe(0);
    const json = Buffer.concat(out).toString("utf8");
    expect(json.length).toBeGreaterThan(128 * 1024);
    const parts = JSON.parse(json) as string[];
    expect(parts.join("").replace(/\s+/g, "")).toBe(text.replace(/\s+/g, ""));
  });

  it("a reader that stops early (`| head`) ends ctx quietly, without a stack", async () => {
    assertBuilt();
    const child = spawn(process.execPath, [CTX_BIN, "chunk"], { cwd: base, env: { ...process.env, ...env } });
    const err: Buffer[] = [];
    child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
    child.stdin.end("word ".repeat(40_000));
    child.stdout.once("data", () => child.stdout.destroy());
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(Buffer.concat(err).toString("utf8")).not.toMatch(/EPIPE|at .*\.js/);
    expect(code).toBe(0);
  });
});

describe("break 8: an old Node gets one clear line, not a SyntaxError", () => {
  const node = oldNode();
  it.skipIf(node === null)("every command names the Node found and how to get 22+", () => {
    assertBuilt();
    for (const args of [["--version"], ["status"], ["hook", "post-tool-use"]]) {
      let stderr = "";
      let status = 0;
      try {
        execFileSync(node as string, [CTX_BIN, ...args], { cwd: base, env: { ...process.env, ...env }, stdio: "pipe" });
      } catch (error) {
        const failure = error as { status: number; stderr: Buffer };
        status = failure.status;
        stderr = failure.stderr.toString("utf8");
      }
      expect(status).toBe(1);
      expect(stderr).toMatch(/^ctx: ctx needs Node >= 22, found 2\d\.\d+\.\d+/);
      expect(stderr).toMatch(/hint: install Node 22 or newer/);
      expect(stderr).not.toMatch(/SyntaxError|enableCompileCache/);
    }
  });
  it("the current Node passes the check", async () => {
    expect((await runCtx(["--version"], { cwd: base, env })).code).toBe(0);
  });
});
