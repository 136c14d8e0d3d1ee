// `ctx fork` of a teammate's session: fetched from the member's team (team.url, team.name), checked, then written
// into Claude Code's project folder for this machine's checkout of its project. The checkout is --checkout, else
// the current folder's repository, else a folder Claude Code has run in, whose git remote is the project's; with
// none, a terminal is asked for the folder and anything else gets a hint.

import { resolve } from "node:path";
import type { Readable, Writable } from "node:stream";
import { isCancel, text } from "@clack/prompts";
import type { Config } from "../config/schema.ts";
import { forkCommandFor } from "../core/search/fork-candidates.ts";
import { isSessionId } from "../core/transcript/session-id.ts";
import { CtxError } from "../errors.ts";
import { teamConnectOptions, withTeamClient } from "../team/connect.ts";
import { decodeTeamTranscript, fetchTeamSession, type TeamSession } from "../team/fork-session.ts";
import { requireMembership } from "../team/inspect.ts";
import { sanitizeLogLine } from "../terminal-text.ts";
import { findCheckout, knownClaudeFolders, readGitCheckout } from "../transplant/checkout.ts";
import { placeTranscript } from "../transplant/place-transcript.ts";
import type { CliContext } from "./command-io.ts";
import type { ForkReport } from "./fork-report.ts";

export interface TeamForkOptions {
  /** --checkout, resolved. */
  checkout?: string;
  claudeDir: string;
}

export async function forkTeamSession(
  ctx: CliContext,
  config: Config,
  sessionId: string,
  at: string | null,
  options: TeamForkOptions,
): Promise<ForkReport> {
  if (!isSessionId(sessionId)) {
    // A team session becomes `<id>.jsonl` in Claude Code's folder: only Claude Code's own ids are fetched.
    throw new CtxError("USAGE", `${JSON.stringify(sessionId)} is not a Claude Code session id (a UUID)`, {
      hint: "`ctx search <words>` shows sessions with their ids",
    });
  }
  const { url, name: team, maxTranscriptMegabytes } = config.team;
  const session = await withTeamClient(url, teamConnectOptions(config.team, ctx.env), async (client) => {
    const membership = await requireMembership(client, team);
    return fetchTeamSession(client, membership.id, sessionId);
  });
  if (session === null) {
    throw new CtxError("NOT_FOUND", `session ${sessionId} is neither on this machine nor on team ${team}'s server`, {
      hint: "`ctx search <words>` lists the sessions you can fork",
    });
  }
  const transcript = decodeTeamTranscript(session, maxTranscriptMegabytes);
  const checkout = await locateCheckout(ctx, session, options);
  const placed = await placeTranscript({
    sessionId: session.id,
    text: transcript,
    checkoutRoot: checkout,
    repoPath: session.repoPath,
    conflictHint: "ctx never replaces a transcript: move it away to fetch the team's copy again; nothing was written",
    env: ctx.env,
    now: new Date(),
  });
  return {
    sessionId,
    source: "team",
    cwd: placed.cwd,
    forkCommand: forkCommandFor(sessionId, placed.cwd, at),
    transcriptPath: placed.path,
    redacted: true,
    team: {
      team,
      author: sanitizeLogLine(session.author),
      title: sanitizeLogLine(session.title),
      project: projectName(session),
      checkout: placed.to,
      written: placed.written,
      rewrittenCwdFields: placed.rewrittenFields,
    },
  };
}

/** The project's identity as one line: the server's text, in notes, prompts and errors. */
function projectName(session: TeamSession): string {
  return sanitizeLogLine(session.repoPath === "" ? session.remoteUrl : `${session.remoteUrl} (${session.repoPath})`);
}

async function locateCheckout(ctx: CliContext, session: TeamSession, options: TeamForkOptions): Promise<string> {
  if (options.checkout !== undefined) return checkNamedCheckout(options.checkout, session);
  const folders = [ctx.cwd, ...(await knownClaudeFolders(options.claudeDir))];
  const found = await findCheckout(session.remoteUrl, session.repoPath, folders);
  if (found !== null) return found;
  const project = projectName(session);
  if (ctx.terminal === undefined) {
    throw new CtxError("NOT_FOUND", `no checkout of ${project} found on this machine`, {
      hint: "clone it, or name the folder with `--checkout <dir>`; nothing was written",
    });
  }
  const answer = await text({
    input: ctx.terminal.input as Readable,
    output: ctx.terminal.output as Writable,
    message: sanitizeLogLine(`No checkout of ${project} found here. Its folder on this machine:`),
    placeholder: "/path/to/the/checkout",
  });
  if (isCancel(answer) || answer.trim() === "") {
    throw new CtxError("USAGE", "no checkout given", { hint: "pass `--checkout <dir>`; nothing was written" });
  }
  return checkNamedCheckout(resolve(ctx.cwd, answer.trim()), session);
}

/** A folder the person named must be a checkout of the project (its remote) holding the project's folder. */
async function checkNamedCheckout(dir: string, session: TeamSession): Promise<string> {
  const checkout = await readGitCheckout(dir);
  const found = await findCheckout(session.remoteUrl, session.repoPath, [dir]);
  if (checkout !== null && found !== null) return found;
  const remotes =
    checkout === null ? "it is not in a git repository" : `its remotes: ${checkout.remotes.join(", ") || "none"}`;
  throw new CtxError("USAGE", `${dir} is not a checkout of ${projectName(session)} (${remotes})`, {
    hint: "name a clone of that repository with `--checkout <dir>`; nothing was written",
  });
}
