// A transcript from another machine placed in Claude Code's project folder for this machine's checkout: its cwd
// fields moved to the checkout (core/transplant/transcript-cwd.ts), written through store/files/claude-file.ts (an
// identical file is left alone, a different one is never replaced), the fork's folder resolved inside the checkout.
import { createHash } from "node:crypto";
import { realpath } from "node:fs/promises";
import { join } from "node:path";
import { claudeConfigDir, claudeProjectDirName } from "../config/claude-paths.ts";
import { authorCheckoutRoot, firstTranscriptCwd, rewriteTranscriptCwd } from "../core/transplant/transcript-cwd.ts";
import { CtxError } from "../errors.ts";
import { claudeTargetState, writeNewClaudeFile } from "../store/files/claude-file.ts";
import { resolveInside } from "../store/files/contained-path.ts";
import type { TeamSession } from "../team/fork-session.ts";

export interface PlacedTranscript {
  /** The transcript file in Claude Code's project folder. */
  path: string;
  /** False when an identical file was already there. */
  written: boolean;
  /** The folder the fork runs in: the project's folder in this checkout (the session's first cwd, moved here). */
  cwd: string;
  /** The author's checkout root as the transcript recorded it, and this machine's. */
  from: string | null;
  to: string;
  rewrittenFields: number;
}

/**
 * Writes the checked transcript into Claude Code's project folder for this machine's checkout (`checkoutRoot`,
 * links resolved as Claude Code resolves its cwd), every cwd in the author's checkout moved into it.
 */
export async function placeTeamTranscript(
  session: TeamSession,
  text: Buffer,
  checkoutRoot: string,
  env: NodeJS.ProcessEnv,
  now: Date,
): Promise<PlacedTranscript> {
  const to = await realpath(checkoutRoot);
  // The folder the fork runs in is the checkout's, resolved inside it (a link in the checkout leading out is refused):
  // never a folder the transcript's own cwd fields name, nor one a repo_path leads to outside the checkout.
  const target = await resolveInside(to, session.repoPath === "" ? "." : session.repoPath, {
    label: "the checkout",
  });
  const original = text.toString("utf8");
  const first = firstTranscriptCwd(original);
  const author = first === null ? null : authorCheckoutRoot(first, session.repoPath);
  const rewritten =
    author === null
      ? { text: original, rewritten: 0, firstCwd: null }
      : rewriteTranscriptCwd(original, { from: author.root, to: author.inside === "" ? to : join(to, author.inside) });
  const cwd = target;
  const bytes = Buffer.from(rewritten.text, "utf8");
  const path = join(claudeConfigDir(env), "projects", claudeProjectDirName(cwd), `${session.id}.jsonl`);
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  const state = await claudeTargetState(path, sha256, "nothing was written");
  if (state === "different") {
    throw new CtxError("CONFLICT", `a different transcript of session ${session.id} is already at ${path}`, {
      hint: "ctx never replaces a transcript: move it away to fetch the team's copy again; nothing was written",
    });
  }
  if (state === "absent") await writeNewClaudeFile(path, bytes, now);
  return {
    path,
    written: state === "absent",
    cwd,
    from: author?.root ?? null,
    to,
    rewrittenFields: rewritten.rewritten,
  };
}
