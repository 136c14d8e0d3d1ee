// `ctx doctor` checks of the machine and of ctx's own files: Node, `ctx`/`claude-ctx` on PATH, `.ctx/`
// permissions, state files, config, the session index. Pure: the shell gathers the facts.

import { quoteShellWord } from "../shell/quote.ts";
import { type Finding, fail, ok, warn } from "./doctor-report.ts";
import type { PathLookup } from "./init/command-choice.ts";
import { type CtxDirFacts, describeCtxPathConflict } from "./init/plan.ts";
import { MIN_NODE, meetsMinimumNode } from "./node-minimum.ts";

/** The Node running ctx: at least ./node-minimum.ts MIN_NODE, and its SQLite with FTS5 (a custom build may lack it). */
export function checkNode(version: string, execPath: string, sqliteFts5 = true): Finding {
  const fix = `install Node ${MIN_NODE} or newer (for example \`nvm install 22\`, or from nodejs.org) and run ctx with it`;
  if (!meetsMinimumNode(version)) {
    return fail("node", `Node ${version} (${execPath}) is too old: ctx needs Node ${MIN_NODE} or newer`, fix);
  }
  if (!sqliteFts5) {
    return fail(
      "node",
      `Node ${version} (${execPath}): its SQLite has no FTS5 full-text search, which the session index needs`,
      `use an official Node build: ${fix}`,
    );
  }
  return ok("node", `Node ${version} (${execPath})`);
}

export interface PathFacts {
  self: string;
  ctx: PathLookup | null;
  claudeCtx: PathLookup | null;
  /** How to put this ctx on PATH for the install method in use (./install-method.ts). */
  installFix?: string;
}

export function checkPathCommands(facts: PathFacts): Finding[] {
  const ctxSelf = facts.ctx?.targets.includes(facts.self) ?? false;
  const claudeSelf = facts.claudeCtx?.targets.includes(facts.self) ?? false;
  const install = facts.installFix ?? `ln -sf ${quoteShellWord(facts.self)} ~/.local/bin/ctx`;
  const findings: Finding[] = [];
  if (ctxSelf) findings.push(ok("path-ctx", `\`ctx\` on PATH is this program (${facts.ctx?.path})`));
  else if (facts.ctx !== null) {
    const then = claudeSelf ? "ctx init uses `claude-ctx` instead" : "ctx init writes absolute paths instead";
    const fix = claudeSelf
      ? "run ctx as `claude-ctx` (for example `claude-ctx doctor`)"
      : `${install}, then run ctx as \`claude-ctx\``;
    findings.push(warn("path-ctx", `\`ctx\` on PATH is another program (${facts.ctx.path}); ${then}`, fix));
  } else if (claudeSelf) findings.push(ok("path-ctx", "`ctx` is not on PATH; `claude-ctx` is, and ctx init uses it"));
  else findings.push(warn("path-ctx", "`ctx` is not on PATH; ctx init writes absolute paths instead", install));

  if (claudeSelf)
    findings.push(ok("path-claude-ctx", `\`claude-ctx\` on PATH is this program (${facts.claudeCtx?.path})`));
  else if (facts.claudeCtx !== null) {
    findings.push(warn("path-claude-ctx", `\`claude-ctx\` on PATH is another copy (${facts.claudeCtx.path})`, install));
  } else if (ctxSelf) findings.push(ok("path-claude-ctx", "`claude-ctx` is not on PATH (not needed: `ctx` is)"));
  else findings.push(warn("path-claude-ctx", "`claude-ctx` is not on PATH", install));
  return findings;
}

export function checkCtxDir(path: string, dir: CtxDirFacts): Finding {
  if (dir.kind === "missing") return warn("ctx-dir", `${path} does not exist yet`, "ctx init");
  if (dir.kind === "other") {
    const { message, fix } = describeCtxPathConflict(dir.path, dir.what);
    return fail("ctx-dir", message, fix);
  }
  if (dir.mode === null || dir.mode === 0o700) return ok("ctx-dir", `${path} is private (0700)`);
  const mode = dir.mode.toString(8).padStart(4, "0");
  return warn(
    "ctx-dir",
    `${path} has mode ${mode}; it holds your conversations and should be 0700`,
    `chmod 700 ${quoteShellWord(path)}`,
  );
}

/**
 * The `.ctx` and `.git` folders above the project that belong to another user and were passed over
 * (config/paths.ts searchProjectRoot): said by name, since the project a person expected may be one of them.
 */
export function checkForeignMarkers(foreign: readonly string[]): Finding[] {
  if (foreign.length === 0) return [];
  return [
    warn(
      "foreign-project",
      `ignored ${foreign.join(", ")}: another user's, so not your project's (ctx uses only a .ctx or .git that ` +
        "belongs to you or root, like git's safe.directory)",
      `nothing, if it is not yours; else ask its owner or an administrator to remove it (\`rm -r ${foreign.map(quoteShellWord).join(" ")}\`) or give it to you`,
    ),
  ];
}

export interface StateFileCheck {
  /** As shown to the person (relative to the project). */
  path: string;
  /** For the fix: doctor may run from a subfolder. */
  absolutePath: string;
  problem: string | null;
}

export function checkStateFiles(files: readonly StateFileCheck[]): Finding[] {
  const bad = files.filter((file) => file.problem !== null);
  if (bad.length === 0) {
    const message = files.length === 0 ? "no state files yet" : `${files.length} state file(s) verify`;
    return [ok("state-files", message)];
  }
  return bad.map((file) =>
    fail(
      "state-file",
      `${file.path} does not verify, so ctx will not use it: ${file.problem}`,
      `mv ${quoteShellWord(file.absolutePath)} ${quoteShellWord(`${file.absolutePath}.corrupt`)}   (ctx then starts that file afresh; nothing else is lost, and the damaged copy stays for inspection)`,
    ),
  );
}

/** Temp files a killed writer left in `.ctx/` (older than a live write ever takes). */
export function checkLeftoverTempFiles(ctxDir: string, count: number): Finding {
  if (count === 0) return ok("temp-files", "no leftover temp files");
  return warn(
    "temp-files",
    `${count} leftover temp file(s) in ${ctxDir} from ctx processes killed while writing (harmless, but they take space)`,
    `find ${quoteShellWord(ctxDir)} -name '.*.tmp' -mmin +10 -delete`,
  );
}

export type ConfigCheck =
  | { ok: true; sources: string[]; ignored?: { file: string; keys: string[] } }
  | { ok: false; message: string; hint: string | null };

/** A valid config; a warning when the project's own file sets sensitive settings the user has not trusted. */
export function checkConfig(result: ConfigCheck): Finding {
  if (!result.ok)
    return fail("config", `config: ${result.message}`, result.hint ?? "fix or delete the file named above");
  if (result.ignored !== undefined) {
    return warn(
      "config",
      `${result.ignored.file} sets ${result.ignored.keys.join(", ")}, ignored until you trust the file (a repository's ` +
        "own config may not name programs, URLs, paths outside it or credentials, nor send data anywhere)",
      `review ${quoteShellWord(result.ignored.file)}, then: ctx config trust`,
    );
  }
  return ok("config", `config is valid (${result.sources.join(", ")})`);
}

export type SessionIndexFacts =
  | { kind: "missing"; path: string }
  | { kind: "ok"; path: string; sessions: number; chunks: number; lastSyncAt: number | null }
  | { kind: "corrupt"; path: string; problem: string }
  /** Made by another version of ctx (another format): the next sync builds it again. */
  | { kind: "outdated"; path: string; problem: string }
  /** This Node cannot read it (its SQLite has no FTS5): the index is not at fault. */
  | { kind: "unreadable"; path: string; problem: string; fix: string };

/** A missing index is fine (fork-detect builds it on first use, or `ctx index`); a damaged one is a failure. */
export function checkSessionIndex(facts: SessionIndexFacts): Finding {
  if (facts.kind === "missing") {
    return ok("session-index", `session index not built yet (${facts.path}); \`ctx index\` builds it`);
  }
  if (facts.kind === "corrupt") {
    return fail("session-index", `session index ${facts.path} is damaged: ${facts.problem}`, "ctx reindex");
  }
  if (facts.kind === "unreadable") return fail("session-index", `${facts.path}: ${facts.problem}`, facts.fix);
  if (facts.kind === "outdated") {
    return warn("session-index", `${facts.problem}; the next sync builds it again from the transcripts`, "ctx index");
  }
  const synced = facts.lastSyncAt === null ? "never synced" : `last sync ${new Date(facts.lastSyncAt).toISOString()}`;
  return ok("session-index", `session index: ${facts.sessions} session(s), ${facts.chunks} chunk(s), ${synced}`);
}

export interface PrivateModeFact {
  path: string;
  kind: "folder" | "file";
  /** The permission bits (mode & 0o777); null when the path does not exist. */
  mode: number | null;
  /** What it holds: the user's conversations (the default), or Node's cache of ctx's compiled code. */
  holds?: "conversations" | "code";
}

/**
 * ctx's private places (CTX_HOME, the session index and its WAL, the project's `.ctx/`, Node's compile cache for
 * ctx) must be reachable by their owner only: folders 0700, files 0600. Most hold the user's conversations; the
 * warning says so only when one of those is open (a compile-cache folder holds code, not conversations).
 */
export function checkPrivateModes(facts: readonly PrivateModeFact[]): Finding {
  const open = facts.filter((fact) => fact.mode !== null && (fact.mode & 0o077) !== 0);
  if (open.length === 0) return ok("private-modes", "ctx's folders are 0700 and its files 0600");
  const describe = (fact: PrivateModeFact) => `${fact.path} is ${(fact.mode ?? 0).toString(8).padStart(4, "0")}`;
  const fix = open
    .map((fact) => `chmod ${fact.kind === "folder" ? "700" : "600"} ${quoteShellWord(fact.path)}`)
    .join(" && ");
  const why = open.some((fact) => (fact.holds ?? "conversations") === "conversations")
    ? "they hold your conversations"
    : "Node's cache of the code ctx runs; ctx keeps its own folders at 0700";
  return warn("private-modes", `others can read ctx's private files: ${open.map(describe).join(", ")} (${why})`, fix);
}
