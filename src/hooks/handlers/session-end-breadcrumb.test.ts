import { execFileSync } from "node:child_process";
import { lstatSync, mkdirSync, mkdtempSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { assistantText, type LineContext, userPrompt } from "../../../tests/helpers/transcript-lines.ts";
import { defaultConfig } from "../../config/defaults.ts";
import type { Config } from "../../config/schema.ts";
import { silentLogger } from "../../log.ts";
import { runHook } from "../runtime/dispatch.ts";
import { loadHook } from "../runtime/table.ts";

let base: string;
let project: string;
let vault: string;
let transcript: string;
const END = new Date("2026-11-22T18:42:00Z");

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), "ctx-breadcrumb-"));
  project = join(base, "shop-api");
  vault = join(base, "home", "Vault");
  mkdirSync(join(project, ".git"), { recursive: true });
  mkdirSync(vault, { recursive: true });
  transcript = join(base, "s-1.jsonl");
  const ctx: LineContext = { sessionId: "s-1", cwd: project };
  writeFileSync(
    transcript,
    `${[userPrompt(ctx, "Add retries to the payment client"), assistantText(ctx, "a1", "Done.")].join("\n")}\n`,
  );
});

const end = (config: Config, now = END) =>
  runHook(
    "session-end",
    JSON.stringify({
      session_id: "s-1",
      transcript_path: transcript,
      cwd: project,
      hook_event_name: "SessionEnd",
      reason: "other",
    }),
    {
      env: { HOME: join(base, "home"), CTX_HOME: join(base, "ctx-home") },
      now: () => now,
      logger: silentLogger,
      findProjectRoot: () => project,
      loadHook,
      loadConfig: () => config,
    },
  );

const enabled = (vaultPath = "~/Vault") => {
  const config = defaultConfig();
  config.breadcrumb = { enabled: true, vault: vaultPath, heading: "## Claude Code sessions" };
  return config;
};

describe("session breadcrumb at SessionEnd", () => {
  it("is off by default: no note is written", async () => {
    const result = await end(defaultConfig());
    expect(result).toMatchObject({ exitCode: 0, stdout: "", stderr: "" });
    expect(() => statSync(join(vault, "2026-11-22.md"))).toThrow();
  });

  it("creates the daily note with the heading and a line naming time, project, first prompt and session", async () => {
    const result = await end(enabled());
    expect(result).toMatchObject({ exitCode: 0, stdout: "", stderr: "" });
    const note = join(vault, "2026-11-22.md");
    expect(readFileSync(note, "utf8")).toBe(
      "## Claude Code sessions\n- 18:42 **shop-api** — Add retries to the payment client (session `s-1`)\n",
    );
    expect(statSync(note).mode & 0o777).toBe(0o600);
  });

  it("inserts at the end of an existing heading's section and keeps the note's mode", async () => {
    const note = join(vault, "2026-11-22.md");
    writeFileSync(note, "## Claude Code sessions\n- 09:00 earlier\n\n## Journal\nA good day.\n", { mode: 0o644 });
    await end(enabled());
    expect(readFileSync(note, "utf8")).toBe(
      "## Claude Code sessions\n- 09:00 earlier\n- 18:42 **shop-api** — Add retries to the payment client (session `s-1`)\n\n## Journal\nA good day.\n",
    );
    expect(statSync(note).mode & 0o777).toBe(0o644);
  });

  it("a missing vault is one stderr line; the session is still recorded and exit is 0", async () => {
    const result = await end(enabled(join(base, "nowhere")));
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain("no session breadcrumb: breadcrumb vault");
  });

  it("break 2: a daily note that is a link or a FIFO is refused in one stderr line, the vault's mode kept", async () => {
    const outside = join(base, "home", ".bashrc");
    writeFileSync(outside, "export PATH\n");
    symlinkSync(outside, join(vault, "2026-11-22.md"));
    const vaultMode = statSync(vault).mode;
    const linked = await end(enabled());
    expect(linked).toMatchObject({ exitCode: 0 });
    expect(linked.stderr).toContain("is a symbolic link");
    expect(readFileSync(outside, "utf8")).toBe("export PATH\n");
    expect(lstatSync(join(vault, "2026-11-22.md")).isSymbolicLink()).toBe(true);

    execFileSync("mkfifo", [join(vault, "2026-11-23.md")]);
    const fifo = await end(enabled(), new Date("2026-11-23T10:00:00Z"));
    expect(fifo.stderr).toContain("is a FIFO");
    expect(lstatSync(join(vault, "2026-11-23.md")).isFIFO()).toBe(true);
    expect(statSync(vault).mode).toBe(vaultMode);
  });
});
