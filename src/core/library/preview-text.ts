// The session preview as text: `ctx show` (header, then each exchange as it is read, then what reading found), the
// bounded preview the MCP tools return and the picker's pane, and the picker's one-line label. Plain text for a
// terminal's sanitizer (src/terminal-text.ts) to pass: a transcript's line breaks stay inside their indented block,
// so no text of the session can forge a header or an exchange line.
import { forkCommandFor } from "../search/fork-candidates.ts";
import type { SessionAnnotation } from "./annotation.ts";
import { oneLine } from "./preview.ts";
import type {
  PreviewExchange,
  PreviewHeader,
  PreviewRead,
  PreviewSubagents,
  SessionPreview,
} from "./preview-schema.ts";

/** What the MCP tools and the picker's pane hold at most of one preview (a few KB, docs/preview.md). */
export const BOUNDED_PREVIEW_BYTES = 3_000;

/** The header; `brief` leaves out what a list already shows beside the preview (title, id, folder, fork command). */
export function renderPreviewHeader(header: PreviewHeader, atUuid: string | null = null, brief = false): string {
  const lines: string[] = [];
  const where = [header.cwd ?? header.project];
  if (header.branch !== null && header.branch !== "") where.push(`branch ${oneLine(header.branch, 120)}`);
  if (!brief) {
    lines.push(header.title === "" ? "(untitled session)" : oneLine(header.title, 200));
    lines.push(`  session   ${header.sessionId}`);
    lines.push(`  project   ${where.map((part) => oneLine(part, 300)).join(" · ")}`);
  } else if (header.branch !== null && header.branch !== "") lines.push(`  branch    ${oneLine(header.branch, 120)}`);
  const dates = [header.createdAt, header.updatedAt].map((iso) => (iso === null ? "?" : shortDate(iso)));
  lines.push(`  dates     ${dates[0]} → ${dates[1]} · ${header.messageCount} messages`);
  const lineage = lineageText(header);
  if (lineage !== null) lines.push(`  lineage   ${lineage}`);
  const annotation = annotationText(header);
  if (annotation !== null) lines.push(`  library   ${annotation}`);
  if (brief) return `${lines.join("\n")}\n`;
  lines.push(`  fork      ${forkCommandFor(header.sessionId, header.cwd)}`);
  if (atUuid !== null) lines.push(`  fork here ${forkCommandFor(header.sessionId, header.cwd, atUuid)}`);
  return `${lines.join("\n")}\n`;
}

function lineageText(header: PreviewHeader): string | null {
  const parts: string[] = [];
  if (header.parents.length > 0) parts.push(`fork of ${shortIds(header.parents)}`);
  if (header.forks.length > 0) parts.push(`forked as ${shortIds(header.forks)}`);
  return parts.length === 0 ? null : parts.join(" · ");
}

function shortIds(ids: readonly string[]): string {
  const shown = ids.slice(0, 5).map((id) => oneLine(id, 36).slice(0, 8));
  return ids.length > 5 ? `${shown.join(", ")} and ${ids.length - 5} more` : shown.join(", ");
}

function annotationText(header: PreviewHeader): string | null {
  const annotation = header.annotation;
  if (annotation === null) return null;
  const parts: string[] = [];
  if (annotation.starred) parts.push("starred");
  if (annotation.labels.length > 0) parts.push(`tags ${annotation.labels.map((l) => oneLine(l, 60)).join(", ")}`);
  if (annotation.note !== null && annotation.note !== "") parts.push(`note: ${oneLine(annotation.note, 300)}`);
  return parts.length === 0 ? null : parts.join(" · ");
}

/** `2026-11-03 14:05 UTC` from an ISO date. */
export function shortDate(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

/** One exchange: its rule (with `▶ matched` on the one a search found), the prompt, replies, tools and files. */
export function renderPreviewExchange(exchange: PreviewExchange, cwd: string | null = null): string {
  const rule = [`── ${exchange.number}`];
  if (exchange.timestamp !== null) rule.push(shortDate(exchange.timestamp));
  if (exchange.matched) rule.push("▶ matched");
  const lines = [`${rule.join(" · ")} ──`];
  if (exchange.prompt !== "") lines.push(...indent(exchange.prompt, "> "));
  exchange.replies.forEach((reply, i) => {
    // The first reply is kept, then the latest ones: the ones between are counted where they were.
    if (i === 1 && exchange.repliesOmitted > 0) lines.push(`  … (${exchange.repliesOmitted} more replies)`);
    lines.push(...indent(reply, "  "));
  });
  if (exchange.tools.length > 0) {
    const tools = exchange.tools.map((tool) => (tool.count > 1 ? `${tool.gist} ×${tool.count}` : tool.gist));
    const more = exchange.toolsOmitted > 0 ? ` (+${exchange.toolsOmitted} more)` : "";
    lines.push(`  tools: ${oneLine(tools.join(" · "), 600)}${more}`);
  }
  if (exchange.files.length > 0) {
    lines.push(`  files: ${oneLine(exchange.files.map((file) => relativeTo(file, cwd)).join(", "), 600)}`);
  }
  return `\n${lines.join("\n")}\n`;
}

/** `src/a.ts` for `/home/me/app/src/a.ts` in a session run in `/home/me/app`; any other path as it is. */
export function relativeTo(path: string, cwd: string | null): string {
  if (cwd === null || cwd === "") return path;
  const base = cwd.endsWith("/") ? cwd : `${cwd}/`;
  return path.startsWith(base) && path.length > base.length ? path.slice(base.length) : path;
}

/** Every line of `text` behind `prefix`: a line break in a prompt never starts a line of the preview's own. */
function indent(text: string, prefix: string): string[] {
  return text.split(/\r?\n|\r|\u2028|\u2029/).map((line) => `${prefix}${line}`);
}

/** What reading found besides the exchanges: the subagents, skipped lines, an `--at` not found, a lost transcript. */
export function renderPreviewFooter(
  header: PreviewHeader,
  subagents: PreviewSubagents,
  read: PreviewRead,
  exchanges: number,
): string {
  const lines: string[] = [];
  if (read.transcript === "missing") {
    lines.push(
      `the transcript is gone${header.transcriptPath === null ? "" : ` (${oneLine(header.transcriptPath, 300)})`}: ` +
        "Claude Code's cleanup removed it or it was moved; " +
        (read.fromIndex
          ? "the conversation above is what the session index kept of it "
          : "the session index's record is shown above ") +
        "(`ctx archive restore` brings back a transcript ctx archived)",
    );
  } else if (exchanges === 0) lines.push("the transcript holds no conversation yet");
  if (subagents.transcripts > 0) {
    const files =
      subagents.files.length === 0
        ? "they wrote no files"
        : `files they wrote: ${oneLine(subagents.files.map((file) => relativeTo(file, header.cwd)).join(", "), 600)}${subagents.filesOmitted > 0 ? ` (+${subagents.filesOmitted} more)` : ""}`;
    lines.push(`subagents: ${subagents.transcripts} transcript(s); ${files}`);
  }
  if (read.linesSkipped > 0) {
    lines.push(`${read.linesSkipped} line(s) skipped: malformed, cut short or over the size cap`);
  }
  if (read.atFound === false) lines.push("--at: no line of this transcript has that uuid; nothing is marked");
  return lines.length === 0 ? "" : `\n${lines.join("\n")}\n`;
}

/** The whole preview as `ctx show` prints it. */
export function renderSessionPreview(preview: SessionPreview, atUuid: string | null = null): string {
  return [
    renderPreviewHeader(preview.header, atUuid),
    ...preview.exchanges.map((exchange) => renderPreviewExchange(exchange, preview.header.cwd)),
    renderPreviewFooter(preview.header, preview.subagents, preview.read, preview.exchanges.length),
  ].join("");
}

/**
 * At most `maxBytes` of the preview, for a model or a pane: the header, then the matched exchange with its
 * neighbours (or the first and the last exchanges), each whole or left out, and a line saying how many were left out.
 */
export function renderBoundedPreview(
  preview: SessionPreview,
  maxBytes = BOUNDED_PREVIEW_BYTES,
  options: { brief?: boolean } = {},
): string {
  const header = renderPreviewHeader(preview.header, null, options.brief === true);
  const footer = renderPreviewFooter(preview.header, preview.subagents, preview.read, preview.exchanges.length);
  let budget = maxBytes - byteLength(header) - byteLength(footer) - 80;
  const chosen = new Set<number>();
  for (const index of preferredOrder(preview.exchanges)) {
    const exchange = preview.exchanges[index] as PreviewExchange;
    const cost = byteLength(renderPreviewExchange(exchange, preview.header.cwd));
    if (cost > budget) continue;
    budget -= cost;
    chosen.add(index);
  }
  const parts = [cutToBytes(header, maxBytes)];
  let previous = -1;
  for (const index of [...chosen].sort((a, b) => a - b)) {
    if (index > previous + 1) parts.push(`\n… ${index - previous - 1} exchange(s) not shown\n`);
    parts.push(renderPreviewExchange(preview.exchanges[index] as PreviewExchange, preview.header.cwd));
    previous = index;
  }
  const after = preview.exchanges.length - previous - 1;
  if (after > 0) parts.push(`\n… ${after} exchange(s) not shown (ctx show ${preview.header.sessionId})\n`);
  parts.push(footer);
  return cutToBytes(parts.join(""), maxBytes);
}

/** The matched exchange and its neighbours first; without a match the first two and the last two. */
function preferredOrder(exchanges: readonly PreviewExchange[]): number[] {
  const matched = exchanges.findIndex((exchange) => exchange.matched);
  const last = exchanges.length - 1;
  const order =
    matched >= 0 ? [matched, matched - 1, matched + 1, matched - 2, matched + 2, 0, last] : [0, last, 1, last - 1, 2];
  return [...new Set(order.filter((index) => index >= 0 && index <= last))];
}

function byteLength(text: string): number {
  return Buffer.byteLength(text, "utf8");
}

function cutToBytes(text: string, maxBytes: number): string {
  if (byteLength(text) <= maxBytes) return text;
  let cut = text.slice(0, maxBytes);
  while (byteLength(cut) > maxBytes - 4) cut = cut.slice(0, -16);
  return `${cut}…\n`;
}

/** A session as a list shows it on one line: `3. Fix the login loop` (the picker's label). */
export function renderPreviewLabel(
  rank: number,
  title: string,
  annotation: Pick<SessionAnnotation, "starred" | "labels"> | null = null,
  maxChars = 72,
): string {
  const star = annotation?.starred === true ? "★ " : "";
  const tags = annotation !== null && annotation.labels.length > 0 ? `  [${annotation.labels.join(", ")}]` : "";
  return `${rank}. ${star}${oneLine(title === "" ? "(untitled session)" : title, maxChars)}${tags}`;
}
