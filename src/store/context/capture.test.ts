import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import {
  assistantText,
  assistantToolUse,
  compactBoundary,
  type LineContext,
  toolResult,
  userPrompt,
} from "../../../tests/helpers/transcript-lines.ts";
import { captureContextState } from "./capture.ts";

let project: string;
let transcript: string;
let ctx: LineContext;

beforeEach(() => {
  const base = mkdtempSync(join(tmpdir(), "ctx-capture-"));
  project = join(base, "repo");
  mkdirSync(join(project, "src"), { recursive: true });
  transcript = join(base, "session.jsonl");
  ctx = { sessionId: "cap-1", cwd: project };
});

/** Captures the test transcript as session cap-1, with no previous state unless given. */
const capture = (options: Partial<Parameters<typeof captureContextState>[0]> = {}) =>
  captureContextState({
    projectRoot: project,
    sessionId: "cap-1",
    transcriptPath: transcript,
    now: new Date("2026-11-22T11:00:00Z"),
    previous: null,
    allowlist: [],
    ...options,
  });

const fakeGithubToken = () => ["ghp", "_", "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"].join("");
const sha256 = (text: string) => `sha256:${createHash("sha256").update(text).digest("hex")}`;

describe("captureContextState", () => {
  it("extracts, hashes the project files it touched as they are on disk, and redacts secrets", async () => {
    const file = join(project, "src", "retry.ts");
    writeFileSync(file, "export const retries = 3;\n");
    writeFileSync(
      transcript,
      [
        userPrompt(ctx, `Add retries. My token is ${fakeGithubToken()} if you need it.`),
        assistantToolUse(ctx, "toolu_w", "Write", { file_path: file, content: "export const retries = 3;\n" }),
        toolResult(ctx, "toolu_w", `File created successfully at: ${file}`),
        assistantText(ctx, "t1", "Done: retries are in src/retry.ts."),
      ].join("\n"),
    );
    const result = await capture();
    const written = result.state.files.find((f) => f.path === file);
    expect(written).toMatchObject({ writes: 1, inProject: true, contentHash: sha256("export const retries = 3;\n") });
    const everything = JSON.stringify(result.state);
    expect(everything).not.toContain(fakeGithubToken());
    expect(everything).toContain("[REDACTED:github-token]");
    expect(result.redactions).toBeGreaterThanOrEqual(1);
    expect(result.state.contextTokens).toBe(3 + 1_500 + 10_000);
  });

  it("an allowlisted string passes through", async () => {
    writeFileSync(transcript, userPrompt(ctx, `The docs example token is ${fakeGithubToken()}.`));
    const result = await captureContextState({
      projectRoot: project,
      sessionId: "cap-1",
      transcriptPath: transcript,
      now: new Date(),
      previous: null,
      allowlist: [fakeGithubToken()],
    });
    expect(JSON.stringify(result.state)).toContain(fakeGithubToken());
  });

  it("reads only after the last compaction boundary, and keeps what the previous save knew", async () => {
    const before = [
      userPrompt(ctx, "Set up the project. We decided to use pnpm for everything."),
      assistantToolUse(ctx, "toolu_t", "TodoWrite", {
        todos: [{ content: "Write the retry helper", status: "in_progress", activeForm: "Writing the retry helper" }],
      }),
      toolResult(ctx, "toolu_t", "Todos have been modified successfully."),
    ];
    writeFileSync(transcript, before.join("\n"));
    const first = await capture();
    expect(first.state.todos?.items[0]?.content).toBe("Write the retry helper");

    writeFileSync(
      transcript,
      [...before, compactBoundary(ctx, 150_000), userPrompt(ctx, "Continue please.")].join("\n"),
    );
    const second = await captureContextState({
      projectRoot: project,
      sessionId: "cap-1",
      transcriptPath: transcript,
      now: new Date(),
      previous: first.state,
      allowlist: [],
    });
    expect(second.boundaryOffset).toBeGreaterThan(0);
    expect(second.state.conversation.map((m) => m.text)).not.toContain(
      "Set up the project. We decided to use pnpm for everything.",
    );
    expect(second.state.todos?.items[0]?.content).toBe("Write the retry helper");
  });

  it("a missing transcript gives an empty state, not an error", async () => {
    const result = await captureContextState({
      projectRoot: project,
      sessionId: "cap-1",
      transcriptPath: join(project, "nope.jsonl"),
      now: new Date(),
      previous: null,
      allowlist: [],
    });
    expect(result.state.conversation).toEqual([]);
    expect(result.bytesRead).toBe(0);
  });

  it("re-saving a decision that held a secret keeps one copy (redacted before the merge)", async () => {
    const url = ["postgres://admin:", "Sup3rS3cretPw", "@db.internal:5432/app"].join("");
    writeFileSync(transcript, userPrompt(ctx, `We decided to use ${url} for the staging database.`));
    const capture = (previous: Awaited<ReturnType<typeof captureContextState>>["state"] | null) =>
      captureContextState({
        projectRoot: project,
        sessionId: "cap-1",
        transcriptPath: transcript,
        now: new Date(),
        previous,
        allowlist: [],
      });
    const first = await capture(null);
    const second = await capture(first.state);
    const third = await capture(second.state);
    expect(first.state.decisions).toHaveLength(1);
    expect(third.state.decisions).toHaveLength(1);
    expect(JSON.stringify(third.state)).not.toContain("Sup3rS3cretPw");
  });

  it("a secret that extraction would cut in half is redacted whole first: no fragment survives", async () => {
    const token = fakeGithubToken();
    const key = [
      "-----BEGIN RSA PRIVATE KEY-----",
      "MIIEowIBAAKCAQEA1b2c3d4e5f6g7h8i9j0k1l2m3n4o5p6q7r8s9t0u1v2w3x4y5z6",
      "-----END RSA PRIVATE KEY-----",
    ].join("\n");
    writeFileSync(
      transcript,
      [
        userPrompt(ctx, "Check the deploy."),
        assistantToolUse(ctx, "toolu_b", "Bash", { command: "./deploy.sh" }),
        toolResult(ctx, "toolu_b", `${"x".repeat(285)} token=${token} and then`, true),
        assistantToolUse(ctx, "toolu_c", "Bash", { command: "cat id_rsa" }),
        toolResult(ctx, "toolu_c", `${"y".repeat(240)}\n${key}`, true),
      ].join("\n"),
    );
    const result = await capture();
    const everything = JSON.stringify(result.state);
    expect(everything).not.toContain("ghp_");
    expect(everything).not.toContain("MIIEow");
  });

  it("tool inputs are cut before redaction, but a secret across the kept part's end is still redacted whole", async () => {
    const token = fakeGithubToken();
    // A plan keeps its first 20,000 characters: the token starts just before that and ends after it.
    const plan = `# Plan\n${"p".repeat(19_966)} ${token} ${"q".repeat(60_000)}`;
    writeFileSync(
      transcript,
      [
        userPrompt(ctx, "Plan the migration."),
        assistantToolUse(ctx, "toolu_d", "ExitPlanMode", { plan }),
        toolResult(ctx, "toolu_d", "User has approved your plan."),
      ].join("\n"),
    );
    const result = await capture();
    expect(result.state.plan?.text?.length).toBeGreaterThan(19_000);
    expect(JSON.stringify(result.state)).not.toContain("ghp_");
  });

  it("a slash command is not the user's last request", async () => {
    writeFileSync(
      transcript,
      [
        userPrompt(ctx, "Add the retry helper."),
        userPrompt(ctx, "<command-name>/compact</command-name>\n<command-message>compact</command-message>"),
      ].join("\n"),
    );
    const result = await capture();
    const prompts = result.state.conversation.filter((m) => m.kind === "prompt").map((m) => m.text);
    expect(prompts.at(-1)).toBe("Add the retry helper.");
  });
});
