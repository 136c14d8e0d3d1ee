// A temp project for in-process CLI tests: a git folder with a source file, a real transcript of a
// session that writes it and keeps a todo list, that session recorded as SessionStart would record it,
// and `run` to call the CLI there with captured output.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ContextStateSchema } from "../../src/core/context/extract.ts";
import { recordSessionStart } from "../../src/core/sessions/seen.ts";
import { readProjectState } from "../../src/store/context/project-state.ts";
import { updateSessionsSeen } from "../../src/store/sessions/seen.ts";
import { createSnapshot } from "../../src/store/snapshots/snapshots.ts";
import { type CliRun, runCliCaptured } from "./cli-run.ts";
import { assistantText, assistantToolUse, type LineContext, toolResult, userPrompt } from "./transcript-lines.ts";

export type { CliRun };

export interface CliProject {
  base: string;
  root: string;
  transcript: string;
  sessionId: string;
  /** The file the session wrote (`src/retry.ts`). */
  sourceFile: string;
  run: (argv: string[]) => Promise<CliRun>;
  /** Records a session start the way the SessionStart hook does. */
  recordStart: (sessionId: string, transcriptPath: string, at: Date) => Promise<void>;
}

export function sessionLines(lines: LineContext, sourceFile: string): string[] {
  return [
    userPrompt(lines, "Add retries to the HTTP client. We decided to use exponential backoff."),
    assistantToolUse(lines, "toolu_todo", "TodoWrite", {
      todos: [
        { content: "Write the retry helper", status: "in_progress", activeForm: "Writing the retry helper" },
        { content: "Wire it into the client", status: "pending", activeForm: "Wiring it into the client" },
      ],
    }),
    toolResult(lines, "toolu_todo", "Todos have been modified successfully."),
    assistantToolUse(lines, "toolu_w", "Write", { file_path: sourceFile, content: "export const retries = 3;\n" }),
    toolResult(lines, "toolu_w", `File created successfully at: ${sourceFile}`),
    assistantText(lines, "t1", "The retry helper is in src/retry.ts."),
  ];
}

export async function createCliProject(options: { sessionId?: string; startedAt?: Date } = {}): Promise<CliProject> {
  const sessionId = options.sessionId ?? "sess-cli-1";
  const base = mkdtempSync(join(tmpdir(), "ctx-cli-project-"));
  const root = join(base, "repo");
  mkdirSync(join(root, ".git"), { recursive: true });
  mkdirSync(join(root, "src"));
  const sourceFile = join(root, "src", "retry.ts");
  writeFileSync(sourceFile, "export const retries = 3;\n");
  const transcript = join(base, `${sessionId}.jsonl`);
  writeFileSync(transcript, `${sessionLines({ sessionId, cwd: root }, sourceFile).join("\n")}\n`);

  const recordStart = async (id: string, transcriptPath: string, at: Date) => {
    await updateSessionsSeen(root, (file) =>
      recordSessionStart(file, { sessionId: id, transcriptPath, cwd: root, at, source: "startup", model: null }),
    );
  };
  await recordStart(sessionId, transcript, options.startedAt ?? new Date());

  const run = (argv: string[]): Promise<CliRun> =>
    runCliCaptured(argv, { cwd: root, env: { CTX_HOME: join(base, "ctx-home"), HOME: base } });
  return { base, root, transcript, sessionId, sourceFile, run, recordStart };
}

/** A pre-compact snapshot of the session as it stands (state via `ctx save`, transcript as is); its id. */
export async function takeSnapshot(target: CliProject, options: { name?: string; now?: Date } = {}): Promise<string> {
  await target.run(["save"]);
  const state = await readProjectState(target.root);
  if (state === null) throw new Error("ctx save wrote nothing");
  const { snapshot } = await createSnapshot(
    target.root,
    {
      sessionId: target.sessionId,
      trigger: "auto",
      state,
      stateSchema: ContextStateSchema,
      transcriptPath: target.transcript,
      ...(options.name === undefined ? {} : { name: options.name }),
    },
    { codec: "lz4", ...(options.now === undefined ? {} : { now: options.now }) },
  );
  return snapshot.id;
}
