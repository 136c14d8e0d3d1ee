// This machine's checkout of a repository known by its remote, for a session from another machine: the folder the
// person named, else the first found among the current folder's repository and the folders Claude Code has run in;
// with none, the caller's question (askCheckout).
import { resolve } from "node:path";
import { CtxError } from "../errors.ts";
import { findCheckout, knownClaudeFolders, readGitCheckout } from "./checkout.ts";

/**
 * Asked for this machine's checkout when none is found; `project` is the project's identity as one line. Answers
 * the folder (absolute, or relative to the search's `cwd`), or null when none is given. A caller that cannot ask
 * passes refuseCheckoutQuestion.
 */
export type CheckoutQuestion = (project: string) => Promise<string | null>;

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

export async function locateCheckout(search: CheckoutSearch): Promise<string> {
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
