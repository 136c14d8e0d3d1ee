import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import {
  assistantText,
  assistantToolUse,
  type LineContext,
  toolResult,
  userPrompt,
} from "../../../tests/helpers/transcript-lines.ts";
import { defaultConfig } from "../../config/defaults.ts";
import { recordSessionStart } from "../../core/sessions/seen.ts";
import { updateSessionsSeen } from "../sessions/seen.ts";
import { diffContext } from "./diff.ts";
import { type ContextOpsDeps, saveContext } from "./operations.ts";
import { writeProjectState } from "./project-state.ts";

const SAVED_AT = new Date("2026-11-22T11:00:00.000Z");
const before = new Date("2026-11-22T10:00:00.000Z");
const after = new Date("2026-11-22T12:00:00.000Z");

let project: string;
let deps: ContextOpsDeps;

const write = (relative: string, text: string, mtime: Date) => {
  const path = join(project, relative);
  writeFileSync(path, text);
  utimesSync(path, mtime, mtime);
  return path;
};

beforeEach(async () => {
  const base = mkdtempSync(join(tmpdir(), "ctx-diff-"));
  project = join(base, "repo");
  mkdirSync(join(project, "src"), { recursive: true });
  deps = { projectRoot: project, config: defaultConfig(), now: () => SAVED_AT };
  const ctx: LineContext = { sessionId: "diff-1", cwd: project };
  const touched = ["src/kept.ts", "src/changed.ts", "src/removed.ts", "src/later.ts"].map((f) => join(project, f));
  write("src/kept.ts", "kept\n", before);
  write("src/changed.ts", "v1\n", before);
  write("src/removed.ts", "bye\n", before);
  // src/later.ts does not exist at save time: saved without a hash.
  const transcript = join(base, "session.jsonl");
  writeFileSync(
    transcript,
    [
      userPrompt(ctx, "Look at these files."),
      ...touched.flatMap((path, i) => [
        assistantToolUse(ctx, `toolu_${i}`, "Read", { file_path: path }),
        toolResult(ctx, `toolu_${i}`, "contents"),
      ]),
      assistantText(ctx, "t1", "Read them."),
    ].join("\n"),
  );
  await updateSessionsSeen(project, (current) =>
    recordSessionStart(current, {
      sessionId: "diff-1",
      transcriptPath: transcript,
      cwd: project,
      at: before,
      source: "startup",
      model: null,
    }),
  );
});

describe("diffContext", () => {
  it("is null when nothing is saved", async () => {
    expect(await diffContext(deps)).toBeNull();
  });

  it("finds modified, deleted, unchanged, added and untracked files", async () => {
    const saved = await saveContext(deps);
    expect(saved.state.files.find((f) => f.path.endsWith("later.ts"))?.contentHash).toBeNull();

    write("src/changed.ts", "v2\n", after);
    rmSync(join(project, "src/removed.ts"));
    write("src/later.ts", "now it exists\n", after);
    write("src/new.ts", "brand new\n", after);
    write("src/old.ts", "untouched, older than the save\n", before);
    write("src/.hidden", "dot-files are skipped\n", after);
    mkdirSync(join(project, "src/nested"));
    write("src/nested/deep.ts", "not recursive\n", after);

    const result = await diffContext(deps);
    expect(result?.savedAt).toBe(SAVED_AT.toISOString());
    expect(result?.origin).toContain("current saved state");
    expect(result?.diff).toEqual({
      modified: [join(project, "src/changed.ts")],
      deleted: [join(project, "src/removed.ts")],
      unchanged: [join(project, "src/kept.ts")],
      untracked: [join(project, "src/later.ts")],
      added: [join(project, "src/new.ts")],
    });
  });

  it("diffs a named save", async () => {
    await saveContext(deps, { name: "before-refactor" });
    write("src/kept.ts", "changed after all\n", after);
    const result = await diffContext(deps, { kind: "save", name: "before-refactor" });
    expect(result?.origin).toContain("before-refactor");
    expect(result?.diff.modified).toEqual([join(project, "src/kept.ts")]);
    expect(await diffContext(deps, { kind: "save", name: "no-such-save" })).toBeNull();
  });

  it("does not look for added files inside .ctx/", async () => {
    const { state } = await saveContext(deps);
    const notes = write(".ctx/notes.md", "ctx's own folder\n", before);
    await writeProjectState(project, {
      ...state,
      files: [...state.files, { ...state.files[0], path: notes, contentHash: null } as (typeof state.files)[number]],
    });
    write(".ctx/newer.md", "written after the save\n", after);
    write("src/new.ts", "brand new\n", after);
    expect((await diffContext(deps))?.diff.added).toEqual([join(project, "src/new.ts")]);
  });
});
