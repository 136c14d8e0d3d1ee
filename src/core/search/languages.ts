// What a chunk's code is written in, for the index's `languages` and `has_code` columns: the info strings of its
// fenced code blocks (```ts) and the extensions of the files its tool gists touched (`Edit src/a.ts`).
// Names are normalised (ts → typescript) so a filter or a boost sees one spelling per language.

const ALIASES: Record<string, string> = {
  ts: "typescript",
  tsx: "typescript",
  mts: "typescript",
  cts: "typescript",
  typescript: "typescript",
  js: "javascript",
  jsx: "javascript",
  mjs: "javascript",
  cjs: "javascript",
  javascript: "javascript",
  py: "python",
  python: "python",
  rb: "ruby",
  ruby: "ruby",
  rs: "rust",
  rust: "rust",
  go: "go",
  golang: "go",
  java: "java",
  kt: "kotlin",
  kotlin: "kotlin",
  swift: "swift",
  c: "c",
  h: "c",
  cpp: "cpp",
  cc: "cpp",
  hpp: "cpp",
  "c++": "cpp",
  cs: "csharp",
  csharp: "csharp",
  php: "php",
  ex: "elixir",
  exs: "elixir",
  elixir: "elixir",
  heex: "elixir",
  erl: "erlang",
  sh: "shell",
  bash: "shell",
  zsh: "shell",
  shell: "shell",
  console: "shell",
  sql: "sql",
  html: "html",
  css: "css",
  scss: "css",
  json: "json",
  jsonl: "json",
  yaml: "yaml",
  yml: "yaml",
  toml: "toml",
  md: "markdown",
  markdown: "markdown",
  vue: "vue",
  svelte: "svelte",
  lua: "lua",
  dart: "dart",
  scala: "scala",
  hs: "haskell",
  haskell: "haskell",
  zig: "zig",
  nix: "nix",
  dockerfile: "dockerfile",
  proto: "protobuf",
  graphql: "graphql",
};

/** A line that opens or closes a fenced code block (``` or ~~~, up to three spaces of indent). */
export const FENCE_LINE = /^ {0,3}(?:```|~~~)/;
const FENCE_INFO = /^ {0,3}(?:```|~~~)\s*([\w+#.-]+)/gm;
/** File-touching tool gists: `Edit src/a.ts`, `Write /x/y.py`, `Read lib/app.ex`. */
const TOOL_PATH = /\b(?:Edit|MultiEdit|Write|Read|NotebookEdit) (\S+)/g;
const CODE_EDIT = /\b(?:Edit|MultiEdit|Write|NotebookEdit) \S+\.(\w+)\b/g;

export function languageOf(nameOrExtension: string): string | null {
  return ALIASES[nameOrExtension.toLowerCase()] ?? null;
}

/** Sorted, distinct languages named by fences and by the extensions of files in tool gists. */
export function detectLanguages(text: string): string[] {
  const found = new Set<string>();
  for (const match of text.matchAll(FENCE_INFO)) {
    const language = languageOf(match[1] ?? "");
    if (language !== null) found.add(language);
  }
  for (const match of text.matchAll(TOOL_PATH)) {
    const path = match[1] ?? "";
    const name = path.slice(path.lastIndexOf("/") + 1);
    const dot = name.lastIndexOf(".");
    const language = dot > 0 ? languageOf(name.slice(dot + 1)) : languageOf(name);
    if (language !== null) found.add(language);
  }
  return [...found].sort();
}

/** A fenced block, or a tool call that wrote a file in a programming language. */
export function detectCode(text: string): boolean {
  if (/^ {0,3}(?:```|~~~)/m.test(text)) return true;
  for (const match of text.matchAll(CODE_EDIT)) {
    const language = languageOf(match[1] ?? "");
    if (language !== null && language !== "markdown" && language !== "json") return true;
  }
  return false;
}
