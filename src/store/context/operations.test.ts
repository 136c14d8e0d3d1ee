import { mkdirSync, mkdtempSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { rejectedCtxError } from "../../../tests/helpers/ctx-error.ts";
import { userPrompt } from "../../../tests/helpers/transcript-lines.ts";
import { defaultConfig } from "../../config/defaults.ts";
import { recordSessionStart } from "../../core/sessions/seen.ts";
import { updateSessionsSeen } from "../sessions/seen.ts";
import { saveContext } from "./operations.ts";

describe("saveContext", () => {
  it("rejects an invalid save name before writing anything: the current state is untouched", async () => {
    const project = mkdtempSync(join(tmpdir(), "ctx-ops-"));
    mkdirSync(join(project, ".git"));
    const transcript = join(project, "t.jsonl");
    writeFileSync(transcript, userPrompt({ sessionId: "s1", cwd: project }, "Hello there."));
    await updateSessionsSeen(project, (current) =>
      recordSessionStart(current, {
        sessionId: "s1",
        transcriptPath: transcript,
        cwd: project,
        source: "startup",
        model: null,
        at: new Date(),
      }),
    );
    const deps = { projectRoot: project, config: defaultConfig(), now: () => new Date() };
    const saved = await saveContext(deps);
    const before = statSync(saved.path).mtimeMs;
    const error = await rejectedCtxError(saveContext(deps, { name: "bad name!" }));
    expect(error.code).toBe("USAGE");
    expect(statSync(saved.path).mtimeMs).toBe(before);
  });
});
