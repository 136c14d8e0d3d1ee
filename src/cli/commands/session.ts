// `ctx session star|unstar|tag|untag|note|list`: the session library from the shell (the same flow as the ctx_library
// tool, search/session-library.ts). A session is named by its id or a unique prefix of it; `--json` prints the
// change (LibraryUpdateSchema) or the listing (LibraryListingSchema).
import type { Command } from "commander";
import { findProjectRoot } from "../../config/paths.ts";
import { describeAnnotation } from "../../core/library/annotation.ts";
import { describeAge } from "../../core/search/fork-candidates.ts";
import { CtxError } from "../../errors.ts";
import type { LibraryListing, LibraryUpdate } from "../../search/library-schema.ts";
import { type LibraryDeps, type LibraryRequest, listLibrary, updateLibrary } from "../../search/session-library.ts";
import { loadCachedConfig } from "../../store/config/config-cache.ts";
import { sanitizeLogLine } from "../../terminal-text.ts";
import type { CliContext } from "../command-io.ts";
import { COMMANDS } from "../help.ts";
import { formatJson } from "../output.ts";
import { collectTags } from "../tag-flags.ts";

interface JsonFlag {
  json?: boolean;
}

export function registerSessionCommand(program: Command, ctx: CliContext): void {
  const session = program.command("session").description(COMMANDS.session.description);
  const deps = async (): Promise<LibraryDeps> => {
    const config = await loadCachedConfig({ projectRoot: findProjectRoot(ctx.cwd, ctx.env), env: ctx.env });
    const current = ctx.env.CLAUDE_CODE_SESSION_ID;
    return {
      env: ctx.env,
      now: () => new Date(),
      allowlist: config.redaction.allowlist,
      ...(current ? { currentSessionId: current } : {}),
    };
  };
  const run = async (id: string, request: LibraryRequest, flags: JsonFlag) => {
    const update = await updateLibrary(await deps(), id, request);
    for (const notice of update.notices) ctx.err(`ctx: ${sanitizeLogLine(notice)}\n`);
    ctx.out(flags.json === true ? formatJson(update) : `${describeUpdate(update)}\n`);
  };
  const idArgument = "a session id, or its first characters (from `ctx search` or `ctx session list`)";

  for (const op of ["star", "unstar"] as const) {
    session
      .command(op)
      .description(op === "star" ? "star a session (ctx search --starred finds it)" : "remove a session's star")
      .argument("<id>", idArgument)
      .option("--json", "print the session's annotation as JSON")
      .action((id: string, flags: JsonFlag) => run(id, { op }, flags));
  }
  for (const op of ["tag", "untag"] as const) {
    session
      .command(op)
      .description(
        op === "tag"
          ? "add tags to a session (one word each; ctx search --tag finds it)"
          : "remove tags from a session",
      )
      .argument("<id>", idArgument)
      .argument("<tag...>", "one word each, lowercased")
      .option("--json", "print the session's annotation as JSON")
      .action((id: string, tags: string[], flags: JsonFlag) => run(id, { op, tags }, flags));
  }
  session
    .command("note")
    .description("set a session's note (one line, redacted; its words are found by ctx search), or --clear it")
    .argument("<id>", idArgument)
    .argument("[text...]", "the note (the words are joined by spaces)")
    .option("--clear", "remove the note")
    .option("--json", "print the session's annotation as JSON")
    .action((id: string, words: string[], flags: JsonFlag & { clear?: boolean }) => {
      if (flags.clear === true && words.length > 0) {
        throw new CtxError("USAGE", "give a note or --clear, not both");
      }
      if (flags.clear !== true && words.length === 0) {
        throw new CtxError("USAGE", "the note is missing", { hint: 'ctx session note <id> "text", or --clear' });
      }
      return run(id, { op: "note", note: flags.clear === true ? null : words.join(" ") }, flags);
    });
  session
    .command("list")
    .description("the sessions you starred, tagged or noted, most recently annotated first")
    .option("--starred", "only starred sessions")
    .option("--tag <tag>", "only sessions with this tag (repeat, or comma-separate, for all of several)", collectTags)
    .option("--json", "print the listing as JSON")
    .action(async (flags: JsonFlag & { starred?: boolean; tag?: string[] }) => {
      const listing = await listLibrary(await deps(), {
        ...(flags.starred === true ? { starred: true } : {}),
        ...(flags.tag === undefined ? {} : { labels: flags.tag }),
      });
      if (listing.sessions.length === 0) ctx.setExitCode(1);
      ctx.out(flags.json === true ? formatJson(listing) : renderListing(listing, Date.now()));
    });
}

function describeUpdate(update: LibraryUpdate): string {
  const id = update.sessionId;
  const said = describeAnnotation(update.annotation) ?? "nothing (no star, tag or note)";
  const head: Record<string, string> = {
    star: `starred ${id}`,
    unstar: `unstarred ${id}`,
    tag: `tagged ${id}`,
    untag: `untagged ${id}`,
    note: update.annotation.note === null ? `cleared the note of ${id}` : `noted ${id}`,
  };
  const redacted = update.redactions > 0 ? ` (${update.redactions} secret(s) redacted from the note)` : "";
  return `${head[update.op] ?? id}${redacted}\n  now: ${sanitizeLogLine(said)}`;
}

/** One block per session: its id and what it holds, the index's title and project, the note on its own line. */
export function renderListing(listing: LibraryListing, now: number): string {
  if (listing.sessions.length === 0) return "No session is starred, tagged or noted (with these filters).\n";
  const blocks = listing.sessions.map((entry) => {
    const marks = [entry.starred ? "★" : "", entry.labels.length > 0 ? `tags: ${entry.labels.join(", ")}` : ""]
      .filter((part) => part !== "")
      .join(" · ");
    const lines = [`${entry.sessionId}${marks === "" ? "" : `  ${marks}`}`];
    if (entry.indexed) {
      const active = entry.lastActive === null ? "" : ` · ${describeAge(Date.parse(entry.lastActive), now)}`;
      lines.push(
        `   ${sanitizeLogLine(entry.title || "(untitled session)")} · ${sanitizeLogLine(entry.cwd ?? entry.project ?? "")}${active}`,
      );
    } else lines.push("   (not in the session index: run `ctx index`, or its transcript is gone)");
    if (entry.note !== null) lines.push(`   note: ${sanitizeLogLine(entry.note)}`);
    return lines.join("\n");
  });
  const labels = listing.labels.map((l) => `${l.label} (${l.sessions})`).join(", ");
  return `${blocks.join("\n\n")}\n${labels === "" ? "" : `\ntags: ${labels}\n`}`;
}
