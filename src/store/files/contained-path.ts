// Writing inside a folder that may hold links someone else committed (a repository for `ctx init` and
// `--remove`, Claude Code's memory folder for memory files): every path is resolved as the kernel would (each
// link followed, the real path of the deepest existing ancestor plus the rest), and one that leads outside
// the folder is refused, naming the link and where it leads. Callers check every path they will write before
// writing any. A link that stays inside is fine, and writes land on its target.
import { lstat, readlink, realpath } from "node:fs/promises";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { CtxError } from "../../errors.ts";

const MAX_LINKS = 40; // as the kernel's ELOOP limit

/** What the folder is, for the error: "the repository", "the memory folder". */
export interface ContainedOptions {
  label: string;
}

/**
 * The real path `path` (absolute, or relative to `root`) leads to, which is inside `root`'s real path (or is it);
 * UNSAFE_PATH naming the first link on the way that leads out, otherwise.
 */
export async function resolveInside(root: string, path: string, options: ContainedOptions): Promise<string> {
  const realRoot = await resolveReal(resolve(root));
  const wanted = resolve(root, path);
  const real = await resolveReal(wanted);
  if (isWithin(realRoot, real)) return real;
  throw await escapeError(resolve(root), realRoot, wanted, real, options.label);
}

/** resolveInside for many paths at once: all are checked before the caller writes any; their real paths. */
export async function assertAllInside(
  root: string,
  paths: readonly string[],
  options: ContainedOptions,
): Promise<string[]> {
  const resolved: string[] = [];
  for (const path of paths) resolved.push(await resolveInside(root, path, options));
  return resolved;
}

/** Whether `path` is `root` or below it (both real, absolute). */
export function isWithin(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/**
 * The real path of `path` whether or not it exists: realpath where it does; a dangling link's target resolved
 * in turn; for a missing entry, its folder's real path plus its name.
 */
export async function resolveReal(path: string, hops = 0): Promise<string> {
  try {
    return await realpath(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "ENOENT" && code !== "ENOTDIR") throw error;
  }
  if (hops > MAX_LINKS) throw new CtxError("UNSAFE_PATH", `${path}: too many symbolic links`);
  const parent = dirname(path);
  const realParent = parent === path ? parent : await resolveReal(parent, hops);
  const here = join(realParent, basename(path));
  const info = await lstat(here).catch(() => null);
  if (info?.isSymbolicLink()) return resolveReal(resolve(realParent, await readlink(here)), hops + 1);
  return here;
}

/** The error for `wanted` (which resolves to `real`, outside `realRoot`), naming the link that leads out. */
async function escapeError(
  root: string,
  realRoot: string,
  wanted: string,
  real: string,
  label: string,
): Promise<CtxError> {
  const shown = (path: string) => relative(root, path) || ".";
  const link = await firstLinkOut(root, realRoot, wanted);
  const nothing = "nothing was written";
  if (link === null) {
    return new CtxError("UNSAFE_PATH", `${shown(wanted)} leads to ${real}, outside ${label} ${root}`, {
      hint: `ctx writes only inside ${label}; ${nothing}`,
    });
  }
  return new CtxError(
    "UNSAFE_PATH",
    `${shown(link.path)} is a symbolic link to ${link.target}, which leads to ${link.real}, outside ${label} ${root}`,
    {
      hint: `ctx does not write through links that leave ${label}: replace the link with a real file or folder, or remove it; ${nothing}`,
    },
  );
}

/** The first link between `root` and `wanted` whose real path is outside `realRoot`, or null. */
async function firstLinkOut(
  root: string,
  realRoot: string,
  wanted: string,
): Promise<{ path: string; target: string; real: string } | null> {
  const rel = relative(root, wanted);
  if (rel.startsWith("..") || isAbsolute(rel)) return null;
  let current = root;
  for (const part of rel.split(sep).filter((p) => p !== "")) {
    current = join(current, part);
    const info = await lstat(current).catch(() => null);
    if (info === null) return null;
    if (!info.isSymbolicLink()) continue;
    const real = await resolveReal(current);
    if (!isWithin(realRoot, real)) return { path: current, target: await readlink(current), real };
  }
  return null;
}
