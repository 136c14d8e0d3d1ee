// A folder's identity on the team server: its repository's remote (`origin` first, normalised by
// core/team/project-identity.ts) and the folder's path inside the repository, what `ctx team share` records and
// `ctx team forget --project` names. The repository is read by transplant/checkout.ts (git's files as text, never
// by running git).
import { realpath } from "node:fs/promises";
import { relative } from "node:path";
import { identityOf, type ProjectIdentity } from "../core/team/project-identity.ts";
import { CtxError } from "../errors.ts";
import { readGitCheckout } from "./checkout.ts";

/** The team identity of `folder`: its repository's first remote (`origin` first) and its path inside it. */
export async function checkoutIdentity(folder: string): Promise<ProjectIdentity> {
  const checkout = await readGitCheckout(folder);
  if (checkout === null) {
    throw new CtxError("USAGE", `${folder} is not inside a git repository`, {
      hint: "a shared project is known to the team by its git remote: run this in a clone of the repository",
    });
  }
  const remote = checkout.remotes[0];
  if (remote === undefined) {
    throw new CtxError("USAGE", `the repository at ${checkout.root} has no network remote`, {
      hint: "add the remote your team clones from (`git remote add origin <url>`, https://… or git@host:owner/repo): it is the project's identity",
    });
  }
  const identity = identityOf(remote, relative(await realpath(checkout.root), await realpath(folder)));
  if (identity === null) {
    throw new CtxError("USAGE", `${folder} is not a plain folder inside the repository at ${checkout.root}`, {
      hint: "a folder whose path inside the repository holds a control character cannot be shared: teammates could not fork its sessions",
    });
  }
  return identity;
}
