// A teammate's session forked on this machine (`ctx fork <id>` when the id is not a local session): connect as the
// member (team.url, team.name), check the membership, fetch and check the session (./fork-session.ts), find this
// machine's checkout of its project (transplant/locate-checkout.ts: --checkout, else the current folder's repository,
// else a folder Claude Code has run in, whose git remote is the project's; with none, the caller's askCheckout: a
// terminal's question, or refuseCheckoutQuestion's hint) and place the transcript there
// (transplant/place-transcript.ts). The result is the ctx fork --json report (./fork-report.ts), its server text
// already one line each; the shell only prints it.
import type { Config } from "../config/schema.ts";
import { forkCommandFor } from "../core/search/fork-candidates.ts";
import { projectName } from "../core/team/project-identity.ts";
import { isSessionId } from "../core/transcript/session-id.ts";
import { CtxError } from "../errors.ts";
import { sanitizeLogLine } from "../terminal-text.ts";
import { type CheckoutQuestion, locateCheckout } from "../transplant/locate-checkout.ts";
import { placeTranscript } from "../transplant/place-transcript.ts";
import { teamConnectOptions, withTeamClient } from "./connect.ts";
import type { ForkReport } from "./fork-report.ts";
import { decodeTeamTranscript, fetchTeamSession, type TeamSession } from "./fork-session.ts";
import { requireMembership } from "./inspect.ts";

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
    project: oneLineName(session),
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
      project: oneLineName(session),
      checkout: placed.to,
      written: placed.written,
      rewrittenCwdFields: placed.rewrittenFields,
    },
  };
}

/** The project's identity as one line: the server's text, in notes, prompts and errors. */
function oneLineName(session: TeamSession): string {
  return sanitizeLogLine(projectName(session));
}
