// Colour for people reading a terminal (help headings, fork commands, doctor marks), through Node's util.styleText.
// Off when stdout is not a terminal, when NO_COLOR is set (https://no-color.org), or TERM=dumb; FORCE_COLOR turns it
// on. ctx decides (`validateStream: false`; Node before 22.13 takes no options and always paints): asking
// process.stdout would build its stream, which the commands do without (src/bin/main.ts), as picocolors did on import.
// Each highlighter is a Paint (./command-io.ts): it runs on text already sanitized (./output.ts `writerOf`) and
// finds what to colour by the text's layout, so ctx's colour survives and no control from the data gets through.
import { styleText } from "node:util";
import type { CliContext } from "./command-io.ts";

type Paint = (text: string) => string;

/** The colours ctx uses, each the identity when colour is off. */
export interface Colors {
  isColorSupported: boolean;
  bold: Paint;
  dim: Paint;
  red: Paint;
  green: Paint;
  yellow: Paint;
  cyan: Paint;
}

export function createColors(enabled: boolean): Colors {
  const paint = (style: "bold" | "dim" | "red" | "green" | "yellow" | "cyan"): Paint =>
    enabled ? (text) => styleText(style, text, { validateStream: false }) : (text) => text;
  return {
    isColorSupported: enabled,
    bold: paint("bold"),
    dim: paint("dim"),
    red: paint("red"),
    green: paint("green"),
    yellow: paint("yellow"),
    cyan: paint("cyan"),
  };
}

export function colorEnabled(env: NodeJS.ProcessEnv, stdoutIsTTY: boolean): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== "" && env.FORCE_COLOR !== "0") return true;
  return stdoutIsTTY && env.TERM !== "dumb";
}

export function colorsFor(ctx: Pick<CliContext, "env" | "stdoutIsTTY">): Colors {
  return createColors(colorEnabled(ctx.env, ctx.stdoutIsTTY === true));
}

/** The fork commands of `ctx search`'s list, in colour: the line a person copies stands out. */
export function highlightForkCommands(text: string, colors: Colors): string {
  if (!colors.isColorSupported) return text;
  return text.replace(
    /^(\s*)(fork:)( .*)$/gm,
    (_, indent: string, label: string, command: string) =>
      `${indent}${colors.dim(label)}${colors.green(colors.bold(command))}`,
  );
}

/** `ctx search`'s list: titles bold, the weak matches faint, the fork command of each strong match green. */
export function highlightSearchList(text: string, colors: Colors): string {
  if (!colors.isColorSupported) return text;
  const lines = text.split("\n");
  // Without a strong match the whole list is the closest (weak) ones; otherwise they follow their own line.
  let weak = lines[0]?.startsWith("No session matches") === true;
  return lines
    .map((line) => {
      if (line.startsWith("── weak matches")) {
        weak = true;
        return line;
      }
      const candidateLine = /^\d+\. /.test(line) || line.startsWith("   ");
      if (!candidateLine) return line;
      if (weak) return colors.dim(line);
      return /^\d+\. /.test(line) ? colors.bold(line) : highlightForkCommands(line, colors);
    })
    .join("\n");
}

const HELP_LISTS_OTHER_THAN_COMMANDS = new Set(["Options:", "Global Options:", "Arguments:", "Examples:"]);

/** Commander's help, plain (./help.ts), in colour: headings bold, command names cyan in the usage line and in the
 *  lists of commands. */
export function highlightHelp(text: string, colors: Colors): string {
  if (!colors.isColorSupported) return text;
  let listsCommands = false;
  return text
    .split("\n")
    .map((line) => {
      const usage = /^(Usage:) (.*)$/.exec(line);
      if (usage !== null) {
        listsCommands = false;
        return `${colors.bold(usage[1] ?? "")} ${highlightCommandWords(usage[2] ?? "", colors, true)}`;
      }
      if (/^\S.*:$/.test(line)) {
        listsCommands = !HELP_LISTS_OTHER_THAN_COMMANDS.has(line);
        return colors.bold(line);
      }
      const item = /^( {2})(\S.*?)( {2,}.*)?$/.exec(line);
      if (listsCommands && item !== null) {
        return `${item[1]}${highlightCommandWords(item[2] ?? "", colors, false)}${item[3] ?? ""}`;
      }
      return line;
    })
    .join("\n");
}

/** Words that name commands cyan, as commander styles them; `[command]` too in a usage line. */
function highlightCommandWords(term: string, colors: Colors, usage: boolean): string {
  return term
    .split(" ")
    .map((word) => {
      if (usage && word === "[command]") return colors.cyan(word);
      return word === "" || word.startsWith("[") || word.startsWith("<") ? word : colors.cyan(word);
    })
    .join(" ");
}

/** `ctx doctor`'s marks in colour: ✓ green, ! yellow, ✗ red, and each fix in cyan. */
export function highlightDoctorMarks(text: string, colors: Colors): string {
  if (!colors.isColorSupported) return text;
  return text
    .replace(/^✓ /gm, `${colors.green("✓")} `)
    .replace(/^! /gm, `${colors.yellow("!")} `)
    .replace(/^✗ /gm, `${colors.red("✗")} `)
    .replace(/^(\s+fix: )(.*)$/gm, (_, label: string, fix: string) => `${label}${colors.cyan(fix)}`);
}
