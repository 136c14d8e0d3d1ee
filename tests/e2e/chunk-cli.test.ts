// `ctx chunk` as a real process: stdin in, a JSON array of strings out; bad --max is a usage error (exit 2).
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { longestFixtureMessages } from "../helpers/fixture-messages.ts";
import { runCtx } from "./ctx-process.ts";

const cwd = mkdtempSync(join(tmpdir(), "ctx-chunk-e2e-"));
const env = { CTX_HOME: join(cwd, "ctx-home"), HOME: cwd };

describe("ctx chunk", () => {
  it("prints input chunks as a JSON array that joins back to stdin byte for byte (CRLF, emoji, BOM)", async () => {
    const text = `\ufeff# Notes\r\n\r\nFirst paragraph 👩‍💻 here.\r\n\r\n\`\`\`ts\r\nconst a = 1;\r\n\`\`\`\r\n\r\nLast words.`;
    const result = await runCtx(["chunk", "--max", "30"], { cwd, env, stdin: text });
    expect(result).toMatchObject({ code: 0, stderr: "" });
    const chunks = JSON.parse(result.stdout) as string[];
    expect(chunks.length).toBeGreaterThan(2);
    expect(chunks.every((chunk) => chunk.length <= 30)).toBe(true);
    expect(Buffer.from(chunks.join(""), "utf8").equals(Buffer.from(text, "utf8"))).toBe(true);
  });

  it("uses 15,000 characters by default: a real fixture's longest message splits, the join is exact", async () => {
    const [text = ""] = longestFixtureMessages(1);
    const result = await runCtx(["chunk"], { cwd, env, stdin: text });
    const chunks = JSON.parse(result.stdout) as string[];
    expect(text.length).toBeGreaterThan(15_000);
    expect(chunks.length).toBeGreaterThanOrEqual(Math.ceil(text.length / 15_000));
    expect(chunks.every((chunk) => chunk.length <= 15_000)).toBe(true);
    expect(chunks.join("")).toBe(text);
  });

  it("--output prints prefixed chat messages with fences closed and reopened", async () => {
    const code = Array.from({ length: 40 }, (_, i) => `echo line ${i}`).join("\n");
    const result = await runCtx(["chunk", "--output", "--max", "200"], {
      cwd,
      env,
      stdin: `Run:\n\n\`\`\`bash\n${code}\n\`\`\`\n`,
    });
    expect(result.code).toBe(0);
    const messages = JSON.parse(result.stdout) as string[];
    const total = messages.length;
    expect(total).toBeGreaterThan(2);
    messages.forEach((message, i) => {
      expect(message.startsWith(`[${i + 1}/${total}] `)).toBe(true);
      expect(message.length).toBeLessThanOrEqual(200);
      expect((message.match(/^```/gm) ?? []).length % 2).toBe(0);
    });
    expect(messages[2]).toMatch(/^\[3\/\d+\] \n```bash\n/);
  });

  it("empty stdin prints []", async () => {
    const result = await runCtx(["chunk"], { cwd, env, stdin: "" });
    expect(result).toMatchObject({ code: 0, stdout: "[]\n" });
  });

  it("a bad --max is a usage error: exit 2, message and hint on stderr, nothing on stdout", async () => {
    for (const args of [
      ["--max", "abc"],
      ["--max", "0"],
      ["--max", "1.5"],
      ["--output", "--max", "20"],
    ]) {
      const result = await runCtx(["chunk", ...args], { cwd, env, stdin: "some text" });
      expect(result.code).toBe(2);
      expect(result.stdout).toBe("");
      expect(result.stderr).toMatch(/ctx: --max must be a whole number of characters >= \d+/);
      expect(result.stderr).toMatch(/hint: /);
    }
  });

  it("--output with a fence line longer than the message is a usage error, not a crash", async () => {
    const fence = "`".repeat(70);
    const stdin = `${fence}\n${"code line\n".repeat(20)}${fence}\n`;
    const result = await runCtx(["chunk", "--output", "--max", "64"], { cwd, env, stdin });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/cannot hold this text's fences/);
    expect(result.stderr).toMatch(/hint: raise --max/);
  });

  it("stdin that is not UTF-8 is refused with a clear error", async () => {
    const result = await runCtx(["chunk"], { cwd, env, stdin: Buffer.from([0x61, 0xff, 0xfe, 0x62]) });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/not valid UTF-8/);
  });
});
