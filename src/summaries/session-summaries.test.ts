// A session's summaries end to end on disk: made lazily into .ctx/summaries/<session>.ctx, reused, made again
// from a message on, regenerated when the sidecar is damaged, and never holding a secret.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { FIXTURE as SAMPLES } from "../../tests/helpers/claude-projects.ts";
import { rejectedCtxError } from "../../tests/helpers/ctx-error.ts";
import { assistantText, toolResult, userPrompt } from "../../tests/helpers/transcript-lines.ts";
import { defaultConfig } from "../config/defaults.ts";
import { SidecarSchema } from "../core/summaries/sidecar.ts";
import { readStateFile } from "../store/files/state-file.ts";
import { sidecarPath } from "../store/summaries/sidecar-store.ts";
import { assembleSession, ensureSessionSummaries } from "./session-summaries.ts";

const FIXTURE = SAMPLES.subagent;
const SECRET = "ghp_" + "Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb7d";
let root: string;
let clock: number;
const options = (transcriptPath: string, sessionId = "s1") => ({
  projectRoot: root,
  session: { sessionId, transcriptPath },
  config: defaultConfig(),
  env: { CTX_HOME: join(root, "home") },
  now: () => new Date(Date.UTC(2026, 10, 22, 10, 0, clock++)),
});

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "ctx-summaries-"));
  mkdirSync(join(root, ".git"));
  clock = 0;
});

describe("ensureSessionSummaries", () => {
  it("makes every summary once, stores it by message uuid (0600), and reuses it next time", async () => {
    const first = await ensureSessionSummaries(options(FIXTURE));
    expect(first.made).toBe(first.messages.length);
    expect(first.reused).toBe(0);
    const path = sidecarPath(root, "s1");
    expect(first.sidecarPath).toBe(path);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const stored = await readStateFile(path, SidecarSchema);
    const uuid = first.messages[0]?.uuid ?? "";
    expect(stored?.entries[uuid]).toMatchObject({ provider: "extractive", model: null, algorithm: "extractive-1" });
    expect(stored?.entries[uuid]?.createdAt).toBe("2026-11-22T10:00:01.000Z");

    const second = await ensureSessionSummaries(options(FIXTURE));
    expect(second).toMatchObject({ made: 0, reused: first.messages.length });
  });

  it("--from makes the summaries again from that message on", async () => {
    const first = await ensureSessionSummaries(options(FIXTURE));
    const from = first.messages[10]?.uuid ?? "";
    const again = await ensureSessionSummaries({ ...options(FIXTURE), from });
    expect(again.made).toBe(first.messages.length - 10);
    expect(again.records.get(from)?.createdAt).not.toBe(first.records.get(from)?.createdAt);
    const error = await rejectedCtxError(ensureSessionSummaries({ ...options(FIXTURE), from: "no-such-uuid" }));
    expect(error.code).toBe("NOT_FOUND");
  });

  it("a damaged sidecar is moved aside and regenerated, never a crash", async () => {
    await ensureSessionSummaries(options(FIXTURE));
    writeFileSync(sidecarPath(root, "s1"), "not a container");
    const again = await ensureSessionSummaries(options(FIXTURE));
    expect(again.movedAside).toMatch(/s1\.ctx\.corrupt-/);
    expect(again.made).toBe(again.messages.length);
    expect(again.warnings[0]).toContain("moved to");
    expect(readdirSync(join(root, ".ctx", "summaries")).filter((name) => name.includes("corrupt"))).toHaveLength(1);
    expect(await readStateFile(sidecarPath(root, "s1"), SidecarSchema)).not.toBeNull();
  });

  it("a transcript that is gone is NOT_FOUND explaining Claude Code's cleanup", async () => {
    const error = await rejectedCtxError(ensureSessionSummaries(options(join(root, "gone.jsonl"), "gone")));
    expect(error.code).toBe("NOT_FOUND");
    expect(error.hint).toContain("cleanupPeriodDays");
  });

  it("redacts secrets before summarising, so the sidecar never holds one", async () => {
    const ctx = { sessionId: "sec", cwd: root };
    const transcript = join(root, "sec.jsonl");
    writeFileSync(
      transcript,
      [
        userPrompt(ctx, `Use the token ${SECRET} to call the API`),
        assistantText(ctx, "x1", `I exported GITHUB_TOKEN=${SECRET} for the script.`),
        toolResult(ctx, "t1", `token: ${SECRET}`),
      ].join("\n"),
    );
    const result = await ensureSessionSummaries(options(transcript, "sec"));
    expect(result.redactions).toBeGreaterThanOrEqual(3);
    const stored = JSON.stringify(await readStateFile(sidecarPath(root, "sec"), SidecarSchema));
    expect(stored).not.toContain(SECRET);
    expect(stored).toContain("[REDACTED:");
  });

  it("assembles the stored summaries within the configured budget", async () => {
    const summaries = await ensureSessionSummaries(options(FIXTURE));
    const assembly = assembleSession(summaries, {
      recentMessages: 3,
      middleMessages: 5,
      budgetTokens: 3_000,
      aggregateTokens: 500,
    });
    expect(assembly.recent).toHaveLength(3);
    expect(assembly.summarized).toHaveLength(5);
    expect(assembly.aggregate.messages).toBe(summaries.messages.length - 8);
    expect(assembly.assembledTokens).toBeLessThanOrEqual(3_000);
    expect(assembly.summarized[0]?.text).toBe(summaries.records.get(assembly.summarized[0]?.uuid ?? "")?.summary);
    expect(existsSync(join(root, ".ctx", ".gitignore"))).toBe(true);
  });
});
