// `ctx fork` of a teammate's session: fetched from the member's team (team.url, team.name), checked, then written
// into Claude Code's project folder for this machine's checkout of its project. The checkout is --checkout, else
// the current folder's repository, else a folder Claude Code has run in, whose git remote is the project's; with
// none, the caller's question is asked (askCheckout: a terminal's prompt, or refuseCheckoutQuestion's hint).

import { resolve } from "node:path";
import type { Config } from "../config/schema.ts";
import { forkCommandFor } from "../core/search/fork-candidates.ts";
import { isSessionId } from "../core/transcript/session-id.ts";
import { CtxError } from "../errors.ts";
import { sanitizeLogLine } from "../terminal-text.ts";
import { findCheckout, knownClaudeFolders, readGitCheckout } from "../transplant/checkout.ts";
import { placeTranscript } from "../transplant/place-transcript.ts";
import { teamConnectOptions, withTeamClient } from "./connect.ts";
import type { ForkReport } from "./fork-report.ts";
import { decodeTeamTranscript, fetchTeamSession, type TeamSession } from "./fork-session.ts";
import { requireMembership } from "./inspect.ts";

/**
 * Asked for this machine's checkout when none is found; `project` is the project's identity as one line. Answers
 * the folder (absolute, or relative to the fork's `cwd`), or null when none is given. A caller that cannot ask
 * passes refuseCheckoutQuestion.
 */
export type CheckoutQuestion = (project: string) => Promise<string | null>;

export interface TeamForkOptions {
  sessionId: string;
  /** The message the fork ends at (--at), or null. */
  at: string | null;
  /** The member's team settings (config.team): the server, the team, the limits. */
  team: Config["team"];
  env: NodeJS.ProcessEnv;
  /** The folder the fork is asked from: its repository is looked in first. */
  cwd: string;
  /** --checkout, resolved. */
  checkout?: string;
  claudeDir: string;
  askCheckout: CheckoutQuestion;
}

export async function forkTeamSession(options: TeamForkOptions): Promise<ForkReport> {
  const { sessionId, at } = options;
  if (!isSessionId(sessionId)) {
    // A team session becomes `<id>.jsonl` in Claude Code's folder: only Claude Code's own ids are fetched.
    throw new CtxError("USAGE", `${JSON.stringify(sessionId)} is not a Claude Code session id (a UUID)`, {
      hint: "`ctx search <words>` shows sessions with their ids",
    });
  }
  const { url, name: team, maxTranscriptMegabytes } = options.team;
  const session = await withTeamClient(url, teamConnectOptions(options.team, options.env), async (client) => {
    const membership = await requireMembership(client, team);
    return fetchTeamSession(client, membership.id, sessionId);
  });
  if (session === null) {
    throw new CtxError("NOT_FOUND", `session ${sessionId} is neither on this machine nor on team ${team}'s server`, {
      hint: "`ctx search <words>` lists the sessions you can fork",
    });
  }
  const transcript = decodeTeamTranscript(session, maxTranscriptMegabytes);
  const checkout = await locateCheckout({
    remoteUrl: session.remoteUrl,
    repoPath: session.repoPath,
    project: projectName(session),
    cwd: options.cwd,
    claudeDir: options.claudeDir,
    ...(options.checkout === undefined ? {} : { checkout: options.checkout }),
    askCheckout: options.askCheckout,
  });
  const placed = await placeTranscript({
    sessionId: session.id,
    text: transcript,
    checkoutRoot: checkout,
    repoPath: session.repoPath,
    conflictHint: "ctx never replaces a transcript: move it away to fetch the team's copy again; nothing was written",
    env: options.env,
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

/** Where to look for this machine's checkout of a repository known by its remote, and whom to ask. */
export interface CheckoutSearch {
  /** The repository's remote, normalised (core/team/project-identity.ts normaliseGitRemote). */
  remoteUrl: string;
  /** The project's folder inside the repository ('' at its root): a checkout must hold it. */
  repoPath: string;
  /** The project as one line, for the question and the errors. */
  project: string;
  /** The folder asked from: its repository is looked in first, and an answer is relative to it. */
  cwd: string;
  /** Claude Code's folder: the folders it has run in are looked in next. */
  claudeDir: string;
  /** A folder the person named (--checkout): it must be such a checkout, nothing else is looked at. */
  checkout?: string;
  askCheckout: CheckoutQuestion;
}

/** The question of a caller that cannot ask (no terminal): no checkout found, and how to name one. */
export async function refuseCheckoutQuestion(project: string): Promise<never> {
  throw new CtxError("NOT_FOUND", `no checkout of ${project} found on this machine`, {
    hint: "clone it, or name the folder with `--checkout <dir>`; nothing was written",
  });
}

async function locateCheckout(search: CheckoutSearch): Promise<string> {
  if (search.checkout !== undefined) return checkNamedCheckout(search.checkout, search);
  const folders = [search.cwd, ...(await knownClaudeFolders(search.claudeDir))];
  const found = await findCheckout(search.remoteUrl, search.repoPath, folders);
  if (found !== null) return found;
  const answer = await search.askCheckout(search.project);
  if (answer === null || answer.trim() === "") {
    throw new CtxError("USAGE", "no checkout given", { hint: "pass `--checkout <dir>`; nothing was written" });
  }
  return checkNamedCheckout(resolve(search.cwd, answer.trim()), search);
}

/** A folder the person named must be a checkout of the project (its remote) holding the project's folder. */
async function checkNamedCheckout(dir: string, search: CheckoutSearch): Promise<string> {
  const checkout = await readGitCheckout(dir);
  const found = await findCheckout(search.remoteUrl, search.repoPath, [dir]);
  if (checkout !== null && found !== null) return found;
  const remotes =
    checkout === null ? "it is not in a git repository" : `its remotes: ${checkout.remotes.join(", ") || "none"}`;
  throw new CtxError("USAGE", `${dir} is not a checkout of ${search.project} (${remotes})`, {
    hint: "name a clone of that repository with `--checkout <dir>`; nothing was written",
  });
}
