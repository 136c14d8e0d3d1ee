// Reading and writing the JSON files ctx merges into (.mcp.json, .claude/settings*.json): a parse error that
// names the file and the position, and output that keeps the file's own indent and line endings
// (2 spaces + trailing newline for new files), so a merge produces a small diff.
import { CtxError } from "../../../errors.ts";
import { isRecord } from "../../json/record.ts";
import { locateJsonError } from "./json-position.ts";

export interface JsonStyle {
  indent: string;
  eol: "\n" | "\r\n";
  finalNewline: boolean;
  bom: boolean;
}

export const DEFAULT_JSON_STYLE: JsonStyle = { indent: "  ", eol: "\n", finalNewline: true, bom: false };

export type JsonObject = Record<string, unknown>;

/** A JSON object (not an array, not null): what every settings file ctx merges into must hold. */
export const isJsonObject: (value: unknown) => value is JsonObject = isRecord;

/** Parses a file that must hold a JSON object; throws INIT_CONFLICT naming the file, line and column. */
export function parseJsonObjectFile(file: string, text: string): { value: JsonObject; style: JsonStyle } {
  const bom = text.startsWith("\uFEFF");
  const body = bom ? text.slice(1) : text;
  // An empty file is taken as `{}`: nothing in it to lose, and people do `touch .mcp.json`.
  if (body.trim() === "") return { value: {}, style: DEFAULT_JSON_STYLE };
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (error) {
    const position = Math.max(0, locateJsonError(body));
    const { line, column } = lineAndColumn(body, position);
    const what = position >= body.length ? "unexpected end" : `unexpected ${JSON.stringify(body[position])}`;
    throw new CtxError("INIT_CONFLICT", `${file} is not valid JSON: ${what} at line ${line}, column ${column}`, {
      hint: `fix ${file} (or move it aside) and run the command again; nothing was written`,
      cause: error,
    });
  }
  if (!isJsonObject(value)) {
    throw new CtxError("INIT_CONFLICT", `${file} must hold a JSON object ({ … }), found ${describeJsonType(value)}`, {
      hint: `fix ${file} (or move it aside) and run the command again; nothing was written`,
    });
  }
  return { value, style: detectJsonStyle(text) };
}

export function detectJsonStyle(text: string): JsonStyle {
  const indent = /^([ \t]+)\S/m.exec(text)?.[1] ?? DEFAULT_JSON_STYLE.indent;
  return {
    indent,
    eol: text.includes("\r\n") ? "\r\n" : "\n",
    finalNewline: text === "" || /\n$/.test(text),
    bom: text.startsWith("\uFEFF"),
  };
}

export function serializeJson(value: unknown, style: JsonStyle = DEFAULT_JSON_STYLE): string {
  let text = JSON.stringify(value, null, style.indent);
  if (style.eol === "\r\n") text = text.replace(/\n/g, "\r\n");
  return `${style.bom ? "\uFEFF" : ""}${text}${style.finalNewline ? style.eol : ""}`;
}

/** Deep equality that also compares key order (what ends up in the file). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function lineAndColumn(text: string, position: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, Math.min(position, text.length)));
  const lines = before.split("\n");
  return { line: lines.length, column: (lines[lines.length - 1]?.length ?? 0) + 1 };
}

function describeJsonType(value: unknown): string {
  if (Array.isArray(value)) return "an array";
  if (value === null) return "null";
  return `a ${typeof value}`;
}
