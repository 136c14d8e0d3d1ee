// A session's transcript from another machine (a teammate's, for `ctx fork`; an imported one: bundle-import.ts) placed in
// Claude Code's project folder for this machine's checkout of its repository: every cwd field in the other machine's
// checkout moved into this one (core/transplant/transcript-cwd.ts), the file written through
// store/files/claude-file.ts (never through a link; an identical file is left alone, a different one never
// replaced), and the folder the session resumes in resolved inside the checkout (store/files/contained-path.ts).
// The caller checks the transcript and names the session, the checkout and the folder inside it; what it says when
// a different transcript is already there is its own (conflictHint).
import { createHash } from "node:crypto";
import { realpath } from "node:fs/promises";
import { join } from "node:path";
import { claudeConfigDir, claudeProjectDirName } from "../config/claude-paths.ts";
import { isSessionId } from "../core/transcript/session-id.ts";
import {
  authorCheckoutRoot,
  type CwdRewrite,
  firstTranscriptCwd,
  rewriteTranscriptCwd,
} from "../core/transplant/transcript-cwd.ts";
import { CtxError } from "../errors.ts";
import { claudeTargetState, writeNewClaudeFile } from "../store/files/claude-file.ts";
import { resolveInside } from "../store/files/contained-path.ts";

export interface TranscriptPlacement {
  /** The session's id: the file is `<sessionId>.jsonl`, so anything but a Claude Code session id is refused. */
  sessionId: string;
  /** The transcript's bytes, checked by the caller. */
  text: Buffer;
  /** This machine's checkout of the session's repository. */
  checkoutRoot: string;
  /**
   * The session's project folder inside the repository ('' at its root), where the session resumes. The caller
   * makes sure it is plain folder names (core/team/project-identity.ts isPlainRepoPath); it is resolved inside the
   * checkout all the same.
   */
  repoPath: string;
  /** The hint when a different transcript of the session is already in Claude Code's folder. */
  conflictHint: string;
  env: NodeJS.ProcessEnv;
  now: Date;
}

export interface PlacedTranscript {
  /** The transcript file in Claude Code's project folder. */
  path: string;
  /** False when an identical file was already there. */
  written: boolean;
  /** The folder the session resumes in (the fork runs in): the project's folder in this checkout. */
  cwd: string;
  /** The other machine's checkout root as the transcript recorded it, and this machine's. */
  from: string | null;
  to: string;
  rewrittenFields: number;
}

/**
 * Writes the checked transcript into Claude Code's project folder for this machine's checkout (`checkoutRoot`,
 * links resolved as Claude Code resolves its cwd), every cwd in the other machine's checkout moved into it.
 */
export async function placeTranscript(placement: TranscriptPlacement): Promise<PlacedTranscript> {
  const { sessionId, text, checkoutRoot, repoPath } = placement;
  // The id names the file: checked here, where the path is made, whoever the caller is (a teammate's row, an import).
  if (!isSessionId(sessionId)) {
    throw new CtxError("USAGE", `${JSON.stringify(sessionId)} is not a Claude Code session id (a UUID)`, {
      hint: "nothing was written",
    });
  }
  const { to, cwd: target, path } = await transcriptTarget(checkoutRoot, repoPath, sessionId, placement.env);
  const original = text.toString("utf8");
  const first = firstTranscriptCwd(original);
  const rewrite = first === null ? null : cwdRewriteFor(first, repoPath, to);
  const rewritten =
    rewrite === null ? { text: original, rewritten: 0, firstCwd: null } : rewriteTranscriptCwd(original, rewrite);
  const bytes = Buffer.from(rewritten.text, "utf8");
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  const state = await claudeTargetState(path, sha256, "nothing was written");
  if (state === "different") {
    throw new CtxError("CONFLICT", `a different transcript of session ${sessionId} is already at ${path}`, {
      hint: placement.conflictHint,
    });
  }
  if (state === "absent") await writeNewClaudeFile(path, bytes, placement.now);
  return {
    path,
    written: state === "absent",
    cwd: target,
    from: rewrite?.from ?? null,
    to,
    rewrittenFields: rewritten.rewritten,
  };
}

/** Where a session of the project at `repoPath` in this machine's checkout goes, and the folder it resumes in. */
export async function transcriptTarget(
  checkoutRoot: string,
  repoPath: string,
  sessionId: string,
  env: NodeJS.ProcessEnv,
): Promise<{ to: string; cwd: string; path: string }> {
  const to = await realpath(checkoutRoot);
  // The folder the session resumes in is the checkout's, resolved inside it (a link in the checkout leading out is
  // refused): never a folder the transcript's own cwd fields name, nor one repoPath leads to outside the checkout.
  const cwd = await resolveInside(to, repoPath === "" ? "." : repoPath, { label: "the checkout" });
  return { to, cwd, path: join(claudeConfigDir(env), "projects", claudeProjectDirName(cwd), `${sessionId}.jsonl`) };
}

/** The other machine's checkout moved to this one (`to`), from the transcript's first `cwd` and the project's folder. */
export function cwdRewriteFor(firstCwd: string, repoPath: string, to: string): CwdRewrite {
  const author = authorCheckoutRoot(firstCwd, repoPath);
  return { from: author.root, to: author.inside === "" ? to : join(to, author.inside) };
}
