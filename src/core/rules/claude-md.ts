// CLAUDE.md rules that must survive compaction (pure): the `@path` imports of a CLAUDE.md (none inside code
// fences, code spans or HTML comments, as Claude Code reads them), the cascade followed up to 4 import hops
// with cycles stopped, and the rules marked (ENFORCED) or (CRITICAL), each kept verbatim: its bullet (with
// the lines nested under it), its heading line, or its paragraph.
import { dirname, isAbsolute, join, resolve } from "node:path";

export const RULE_MARKERS = ["ENFORCED", "CRITICAL"] as const;
export type RuleMarker = (typeof RULE_MARKERS)[number];
/** Claude Code follows imports at most this many hops from a root CLAUDE.md. */
export const MAX_IMPORT_HOPS = 4;

export interface Rule {
  /** Verbatim, trailing whitespace trimmed. */
  text: string;
  marker: RuleMarker;
  source: string;
  /** 1-based line of the rule's first line in its file. */
  line: number;
}

const FENCE = /^\s{0,3}(`{3,}|~{3,})/;
const BULLET = /^(\s*)(?:[-*+]|\d+[.)])\s+/;
const HEADING = /^\s{0,3}#{1,6}\s/;
const MARKER = /\((ENFORCED|CRITICAL)\)/i;

/** Each line with its code (fences, inline spans) and HTML comments blanked, so nothing inside them counts. */
export function proseLines(text: string): string[] {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  const out: string[] = [];
  let fence: string | null = null;
  let inComment = false;
  for (const line of lines) {
    const opener = FENCE.exec(line)?.[1];
    if (fence !== null) {
      if (opener !== undefined && opener[0] === fence[0] && opener.length >= fence.length) fence = null;
      out.push("");
      continue;
    }
    if (opener !== undefined && !inComment) {
      fence = opener;
      out.push("");
      continue;
    }
    let prose = "";
    let rest = line;
    while (rest !== "") {
      if (inComment) {
        const end = rest.indexOf("-->");
        if (end < 0) rest = "";
        else {
          inComment = false;
          rest = rest.slice(end + 3);
        }
        continue;
      }
      const comment = rest.indexOf("<!--");
      const tick = rest.indexOf("`");
      if (comment >= 0 && (tick < 0 || comment < tick)) {
        prose += rest.slice(0, comment);
        inComment = true;
        rest = rest.slice(comment + 4);
        continue;
      }
      if (tick < 0) {
        prose += rest;
        break;
      }
      const run = /^`+/.exec(rest.slice(tick))?.[0] ?? "`";
      const close = rest.indexOf(run, tick + run.length);
      if (close < 0) {
        prose += rest; // an unclosed backtick is literal text
        break;
      }
      prose += `${rest.slice(0, tick)}${" ".repeat(close + run.length - tick)}`;
      rest = rest.slice(close + run.length);
    }
    out.push(prose);
  }
  return out;
}

/** The `@path` imports of a CLAUDE.md, in order: `@` at a word start, outside code and comments. */
export function findImports(text: string): string[] {
  const found: string[] = [];
  for (const line of proseLines(text)) {
    for (const match of line.matchAll(/(?:^|\s)@(\S+)/g)) {
      const target = (match[1] ?? "").replace(/[),.;:!?'"\]]+$/, "");
      // A path looks like one: ~/…, ./…, ../…, /…, or a name with a dot or slash in it (not a @mention).
      if (/^(~\/|\.{1,2}\/|\/)/.test(target) || /[./]/.test(target)) found.push(target);
    }
  }
  return found;
}

/** Where an import points: relative to the importing file, `~` to the home folder. */
export function resolveImport(target: string, importingFile: string, home: string): string {
  if (target === "~" || target.startsWith("~/")) return join(home, target.slice(1));
  return isAbsolute(target) ? target : resolve(dirname(importingFile), target);
}

/** The rules in one file, in order. */
export function extractRules(text: string, source: string): Rule[] {
  const raw = text.replace(/\r\n?/g, "\n").split("\n");
  const prose = proseLines(text);
  const rules: Rule[] = [];
  const coveredUntil = { line: -1 };
  const push = (start: number, end: number, own: string) => {
    const marker = MARKER.exec(own)?.[1]?.toUpperCase() as RuleMarker | undefined;
    if (marker === undefined || start <= coveredUntil.line) return;
    rules.push({ text: raw.slice(start, end).join("\n").trimEnd(), marker, source, line: start + 1 });
    coveredUntil.line = end - 1;
  };
  let i = 0;
  while (i < raw.length) {
    const line = prose[i] ?? "";
    if (line.trim() === "") {
      i += 1;
      continue;
    }
    const bullet = BULLET.exec(line);
    if (bullet) {
      const indent = bullet[1]?.length ?? 0;
      let end = i + 1;
      let ownEnd = i + 1;
      // Nested lines: deeper-indented ones (continuations and sub-bullets), blank lines between them.
      while (end < raw.length) {
        const next = prose[end] ?? "";
        if (next.trim() === "") {
          const after = raw.slice(end).findIndex((l) => l.trim() !== "");
          if (after < 0 || indentOf(raw[end + after] ?? "") <= indent) break;
          end += 1;
          continue;
        }
        if (indentOf(raw[end] ?? "") <= indent) break;
        if (ownEnd === end && !BULLET.test(next)) ownEnd = end + 1;
        end += 1;
      }
      push(i, end, prose.slice(i, ownEnd).join("\n"));
      i += 1; // nested bullets are looked at on their own too
      continue;
    }
    if (HEADING.test(line)) {
      push(i, i + 1, line);
      i += 1;
      continue;
    }
    let end = i + 1;
    while (end < raw.length) {
      const next = prose[end] ?? "";
      if (next.trim() === "" || BULLET.test(next) || HEADING.test(next) || FENCE.test(raw[end] ?? "")) break;
      end += 1;
    }
    push(i, end, prose.slice(i, end).join("\n"));
    i = end;
  }
  return rules;
}

function indentOf(line: string): number {
  return /^\s*/.exec(line)?.[0].length ?? 0;
}

export interface CascadeRoot {
  path: string;
  scope: "global" | "project" | "local";
}

export interface CascadeFile {
  path: string;
  scope: CascadeRoot["scope"];
  /** 0 for a root, n for a file reached through n imports. */
  hops: number;
  importedFrom: string | null;
}

export interface Cascade {
  files: CascadeFile[];
  rules: Rule[];
  /** Imports not followed: missing files, cycles, too deep. */
  skipped: Array<{ target: string; from: string; reason: "missing" | "cycle" | "too-deep" }>;
}

/**
 * Reads the roots that exist and follows their imports depth first (`read` returns null for a missing
 * file). A file reached twice is read once; an import back into the current chain is a cycle.
 */
export function resolveCascade(
  roots: readonly CascadeRoot[],
  read: (path: string) => string | null,
  home: string,
): Cascade {
  const cascade: Cascade = { files: [], rules: [], skipped: [] };
  const seen = new Set<string>();
  const ruleTexts = new Set<string>();
  const visit = (path: string, scope: CascadeRoot["scope"], hops: number, from: string | null, chain: string[]) => {
    const text = read(path);
    if (text === null) {
      if (from !== null) cascade.skipped.push({ target: path, from, reason: "missing" });
      return;
    }
    seen.add(path);
    cascade.files.push({ path, scope, hops, importedFrom: from });
    for (const rule of extractRules(text, path)) {
      if (ruleTexts.has(rule.text)) continue;
      ruleTexts.add(rule.text);
      cascade.rules.push(rule);
    }
    for (const target of findImports(text)) {
      const next = resolveImport(target, path, home);
      if (chain.includes(next)) cascade.skipped.push({ target: next, from: path, reason: "cycle" });
      else if (seen.has(next)) continue;
      else if (hops + 1 > MAX_IMPORT_HOPS) cascade.skipped.push({ target: next, from: path, reason: "too-deep" });
      else visit(next, scope, hops + 1, path, [...chain, next]);
    }
  };
  for (const root of roots) if (!seen.has(root.path)) visit(root.path, root.scope, 0, null, [root.path]);
  return cascade;
}
