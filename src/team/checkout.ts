// A project folder's identity on the team server (src/core/team/project-identity.ts): its repository's remote
// (`origin`, else the first remote), normalised, and the folder's path inside the repository. Asks git.
import { execFile } from "node:child_process";
import { realpath } from "node:fs/promises";
import { relative } from "node:path";
import { promisify } from "node:util";
import { type ProjectIdentity, projectIdentity } from "../core/team/project-identity.ts";
import { CtxError, describeError } from "../errors.ts";

const run = promisify(execFile);
const GIT_TIMEOUT_MS = 5_000;

async function git(cwd: string, args: string[]): Promise<string> {
  const { stdout } = await run("git", ["-C", cwd, ...args], { timeout: GIT_TIMEOUT_MS, encoding: "utf8" });
  return stdout.trim();
}

export async function checkoutIdentity(folder: string): Promise<ProjectIdentity> {
  let top: string;
  try {
    top = await git(folder, ["rev-parse", "--show-toplevel"]);
  } catch (error) {
    throw new CtxError("USAGE", `${folder} is not inside a git repository (${describeError(error).split("\n")[0]})`, {
      hint: "a shared project is known to the team by its git remote: run this in a clone of the repository",
    });
  }
  const remotes = (await git(folder, ["remote"]).catch(() => "")).split("\n").filter((r) => r !== "");
  const remote = remotes.includes("origin") ? "origin" : remotes[0];
  if (remote === undefined) {
    throw new CtxError("USAGE", `the repository at ${top} has no remote`, {
      hint: "add the remote your team clones from (`git remote add origin <url>`): it is the project's identity",
    });
  }
  const url = await git(folder, ["remote", "get-url", remote]);
  const inRepo = relative(await realpath(top), await realpath(folder));
  const identity = projectIdentity(url, inRepo);
  if (identity === null) {
    throw new CtxError("USAGE", `the remote ${JSON.stringify(remote)} of ${top} is not a URL a team can share`, {
      hint: "a project is shared by a network remote (https://… or git@host:owner/repo), not a local path",
    });
  }
  return identity;
}
