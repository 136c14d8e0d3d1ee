// Hostile text for the `ctx ui` page (issue 35): markup that would run or restyle the page if it were ever rendered as
// HTML (script tags, event attributes, `javascript:` links, SVG payloads, CSS injection, attribute break-outs), a
// transcript carrying it in its title, prompts, replies, tool calls, file names and folder, and the checks that a page
// holds none of it as markup: only the page's own elements, no event attribute, no script but its own.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { assistantText, assistantToolUse, toolResult, userPrompt } from "./transcript-lines.ts";

export const HOSTILE = {
  script: "<script>alert('script')</script>",
  img: '<img src=x onerror="alert(`img`)">',
  link: '<a href="javascript:alert(`link`)">click me</a>',
  svg: "<svg onload=alert('svg')><script>alert('svg2')</script></svg>",
  css: "</style><style>body{display:none;background:url(//evil.example/x)}</style>",
  breakOut: "\"><script>alert('attr')</script><x y=\"",
  quoteOut: "' onmouseover='alert(`quote`)' x='",
} as const;

/** Every payload in one line of text. */
export const HOSTILE_TEXT = Object.values(HOSTILE).join(" ");
/** A word to search the hostile session by. */
export const HOSTILE_WORD = "zorblatfrobnicate";
export const HOSTILE_SESSION = "6e0c5a1b-3f2d-4c8e-9a7b-5d4e3c2b1a0f";

/** Writes a session whose every text is hostile into `claudeDir`'s projects; returns its transcript's path. */
export function writeHostileSession(claudeDir: string, base: string): string {
  const cwd = join(base, `work ${HOSTILE.img}`);
  const folder = join(claudeDir, "projects", "-hostile-ui");
  mkdirSync(folder, { recursive: true });
  const ctx = { sessionId: HOSTILE_SESSION, cwd };
  const lines = [
    userPrompt(ctx, `${HOSTILE_WORD} ${HOSTILE_TEXT}`),
    assistantToolUse(ctx, "tool-1", "Write", { file_path: join(cwd, `${HOSTILE.svg}.ts`), content: HOSTILE.script }),
    toolResult(ctx, "tool-1", "written"),
    assistantToolUse(ctx, "tool-2", "Bash", { command: `echo ${HOSTILE.css}` }),
    toolResult(ctx, "tool-2", HOSTILE.link),
    assistantText(ctx, "reply-1", `${HOSTILE_WORD} done: ${HOSTILE_TEXT}`),
    userPrompt(ctx, `and again ${HOSTILE.breakOut} ${HOSTILE.quoteOut}`),
    assistantText(ctx, "reply-2", `${HOSTILE.link} ${HOSTILE.css}`),
  ];
  const path = join(folder, `${HOSTILE_SESSION}.jsonl`);
  writeFileSync(path, `${lines.join("\n")}\n`);
  return path;
}

/** The elements a `ctx ui` page is made of; anything else came from data. */
const PAGE_ELEMENTS = new Set(
  (
    "html head meta title link script body header nav a main form label span input details summary button section " +
    "ol ul li div p code h1 h2 h3 dl dt dd article blockquote footer select option"
  ).split(" "),
);

/** What in `html` is markup that did not come from the page: elements it does not use, event attributes, a script
 *  other than its own, a `javascript:` link, an inline style. Empty for a safe page. */
export function foreignMarkup(html: string): string[] {
  const found: string[] = [];
  for (const match of html.matchAll(/<([a-zA-Z][a-zA-Z0-9-]*)([^>]*)>/g)) {
    const [tag, name = "", attributes = ""] = match;
    // The page quotes every value with " (and escapes it inside): what is left without the values are the names.
    const names = attributes.replace(/="[^"]*"/g, "").replace(/\/$/, "");
    if (!PAGE_ELEMENTS.has(name.toLowerCase())) found.push(tag);
    if (names.includes("=") || /(^|\s)(on[a-z]+|style)(\s|$)/i.test(names)) found.push(tag);
    if (/(href|src|action)\s*=\s*"\s*javascript:/i.test(attributes)) found.push(tag);
    if (name.toLowerCase() === "script" && attributes !== ' type="module" src="/assets/page.js"') found.push(tag);
  }
  return found;
}
