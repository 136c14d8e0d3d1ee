// Fuzz (fast-check): random hook inputs over random transcript bytes, and random MCP tool arguments. The
// invariants every hook and tool keeps whatever it is given (issue #11): a hook exits 0 (PreCompact may
// exit 2, its documented refusal), prints nothing or one valid JSON reply, finishes within its time limit,
// and writes nothing outside `.ctx/`, `$CTX_HOME` and the memory folder; a tool answers (a result or an
// isError result) and the server keeps serving.
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, sep } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { defaultConfig } from "../../src/config/defaults.ts";
import { runHook } from "../../src/hooks/runtime/dispatch.ts";
import { loadHook } from "../../src/hooks/runtime/table.ts";
import { silentLogger } from "../../src/log.ts";
import { TOOLS } from "../../src/mcp/tools/registry.ts";
import { closeClients, connectClient, testDeps } from "../helpers/mcp-project.ts";
import { assistantText, assistantToolUse, toolResult, userPrompt } from "../helpers/transcript-lines.ts";

const SESSION = "0b1c2d3e-0000-4000-8000-00000000f022";
const EVENTS = [
  "session-start",
  "post-tool-use",
  "pre-compact",
  "post-compact",
  "user-prompt-submit",
  "stop",
  "session-end",
] as const;
const CLAUDE_NAMES: Record<(typeof EVENTS)[number], string> = {
  "session-start": "SessionStart",
  "post-tool-use": "PostToolUse",
  "pre-compact": "PreCompact",
  "post-compact": "PostCompact",
  "user-prompt-submit": "UserPromptSubmit",
  stop: "Stop",
  "session-end": "SessionEnd",
};

function layout() {
  const root = mkdtempSync(join(tmpdir(), "ctx-fuzz-"));
  const project = join(root, "repo");
  mkdirSync(join(project, ".git"), { recursive: true });
  writeFileSync(join(project, "README.md"), "a project\n");
  const home = join(root, "home");
  const transcriptDir = join(home, ".claude", "projects", "-repo");
  mkdirSync(transcriptDir, { recursive: true });
  return { root, project, home, transcript: join(transcriptDir, `${SESSION}.jsonl`) };
}

/** Every file and folder under `root` that is not ctx's to write (its .ctx, CTX_HOME, the memory folder). */
function foreignTree(root: string): string[] {
  const allowed = [join("repo", ".ctx"), "ctx-home", join("home", ".claude", "projects", "-repo", "memory")];
  return readdirSync(root, { recursive: true })
    .map(String)
    .filter((path) => !allowed.some((prefix) => path === prefix || path.startsWith(`${prefix}${sep}`)))
    .sort();
}

const line = { sessionId: SESSION, cwd: "/fuzz" };
const validLine = fc.constantFrom(
  userPrompt(line, "Fix the flaky test; never push to main."),
  assistantToolUse(line, "t1", "Edit", { file_path: "/fuzz/src/a.ts", old_string: "a", new_string: "b" }),
  toolResult(line, "t1", "ok"),
  assistantText(line, "a1", "Done; next the docs."),
);
/** A transcript: valid lines, JSON of the wrong shape, and raw bytes (invalid UTF-8 and NULs included). */
const transcriptBytes = fc
  .array(
    fc.oneof(
      validLine.map((text) => Buffer.from(`${text}\n`)),
      fc.jsonValue().map((value) => Buffer.from(`${JSON.stringify(value)}\n`)),
      fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes)),
    ),
    { maxLength: 30 },
  )
  .map((parts) => Buffer.concat(parts));

/** A hook input: mostly the right fields with hostile values, sometimes any JSON at all. */
const hookInput = (project: string, transcript: string) =>
  fc.oneof(
    {
      weight: 4,
      arbitrary: fc
        .record(
          {
            session_id: fc.oneof(
              fc.constant(SESSION),
              fc.constant(SESSION),
              fc.constant(SESSION),
              fc.constant(SESSION),
              fc.string(),
              fc.constant("../../etc/x"),
              fc.constant("a\u0000b"),
            ),
            transcript_path: fc.oneof(
              { weight: 6, arbitrary: fc.constant(transcript) },
              fc.string(),
              { weight: 1, arbitrary: fc.constant("/dev/zero") },
              { weight: 1, arbitrary: fc.constant(`${transcript}\u0000`) },
            ),
            cwd: fc.oneof(fc.constant(project), fc.constant(project), fc.constant(join(project, "sub")), fc.string()),
            hook_event_name: fc.string(),
            source: fc.oneof(fc.constantFrom("startup", "resume", "compact", "clear"), fc.string()),
            trigger: fc.constantFrom("auto", "manual"),
            tool_name: fc.string(),
            tool_input: fc.jsonValue(),
            tool_response: fc.jsonValue(),
            prompt: fc.string({ maxLength: 2000 }),
            compact_summary: fc.oneof(fc.string({ maxLength: 2000 }), fc.constant(null)),
            reason: fc.string(),
            stop_hook_active: fc.boolean(),
          },
          { requiredKeys: ["session_id", "transcript_path", "cwd", "source", "tool_name", "prompt", "trigger"] },
        )
        .map((value) => JSON.stringify(value)),
    },
    { weight: 1, arbitrary: fc.jsonValue().map((value) => JSON.stringify(value)) },
    { weight: 1, arbitrary: fc.string() },
  );

const roots: string[] = [];
afterAll(closeClients);

describe("fuzz: hooks on random inputs and random transcript bytes", () => {
  it("exit 0 (PreCompact: or 2), nothing or one JSON reply on stdout, in time, nothing written outside ctx's places", async () => {
    const { root, project, home, transcript } = layout();
    roots.push(root);
    const env = { CTX_HOME: join(root, "ctx-home"), HOME: home, CLAUDE_CONFIG_DIR: join(home, ".claude") };
    const before = foreignTree(root);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...EVENTS),
        transcriptBytes,
        hookInput(project, transcript),
        async (event, bytes, stdin) => {
          writeFileSync(transcript, bytes);
          const input = stdin.startsWith("{")
            ? stdin.replace(/"hook_event_name":"[^"]*"/, `"hook_event_name":"${CLAUDE_NAMES[event]}"`)
            : stdin;
          const started = Date.now();
          const result = await runHook(event, input, {
            env,
            now: () => new Date(),
            logger: silentLogger,
            findProjectRoot: (cwd) => (cwd.startsWith(project) ? project : project),
            loadConfig: () => ({
              ...defaultConfig(),
              retention: { ...defaultConfig().retention, archiveSnapshots: false },
            }),
            cliPath: "",
            loadHook,
          });
          expect(Date.now() - started).toBeLessThan(event === "pre-compact" ? 30_000 : 6_000);
          expect(event === "pre-compact" ? [0, 2] : [0]).toContain(result.exitCode);
          if (result.stdout !== "") {
            const reply = JSON.parse(result.stdout) as unknown;
            expect(typeof reply).toBe("object");
          }
          // Every line on stderr is ctx's own, one line per message (no stack traces).
          for (const text of result.stderr.split("\n").filter(Boolean)) expect(text).not.toMatch(/^\s+at /);
          expect(foreignTree(root)).toEqual(
            [...before, relative(root, transcript)].filter((v, i, a) => a.indexOf(v) === i).sort(),
          );
        },
      ),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 150), seed: Number(process.env.FUZZ_SEED ?? 20261124) },
    );
  }, 240_000);
});

describe("fuzz: MCP tools on random arguments", () => {
  it("every tool answers (a result or an isError result), the server keeps serving, nothing is written outside", async () => {
    const { root, project, home } = layout();
    roots.push(root);
    const env = { CTX_HOME: join(root, "ctx-home"), HOME: home, CLAUDE_CONFIG_DIR: join(home, ".claude") };
    const client = await connectClient(
      testDeps(project, { env, memoryDir: join(home, ".claude", "projects", "-repo", "memory") }),
    );
    const before = foreignTree(root);
    const args = fc.oneof(
      fc.dictionary(
        fc.constantFrom(
          "session",
          "name",
          "mode",
          "query",
          "id",
          "from",
          "limit",
          "text",
          "topic",
          "force",
          "preset",
          "sections",
          "snapshot",
          "content",
          "description",
          "type",
        ),
        fc.jsonValue(),
      ),
      fc.dictionary(fc.string(), fc.jsonValue()),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...TOOLS.map((tool) => tool.name)), args, async (name, input) => {
        const answer = await client.callTool({ name, arguments: input as Record<string, unknown> }).then(
          (result) => ({ ok: true as const, result }),
          (error: unknown) => ({ ok: false as const, error }),
        );
        if (!answer.ok) {
          // Only a schema rejection may come back as a protocol error (SDK versions differ).
          expect(String(answer.error)).toMatch(/Invalid|invalid|validation|MCP error -32602/);
        } else {
          expect(Array.isArray((answer.result as { content?: unknown }).content)).toBe(true);
        }
        expect(foreignTree(root)).toEqual(before);
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 150), seed: Number(process.env.FUZZ_SEED ?? 20261124) },
    );
    const status = await client.callTool({ name: "ctx_status", arguments: {} });
    expect(status.isError).toBeFalsy();
  }, 240_000);
});
