// Colour for people reading a terminal (help headings, fork commands, doctor marks), through picocolors. Off when
// stdout is not a terminal, when NO_COLOR is set (https://no-color.org), or TERM=dumb; FORCE_COLOR turns it on.
import picocolors from "picocolors";
import type { CliContext } from "./command-io.ts";

export type Colors = ReturnType<typeof picocolors.createColors>;

export function colorEnabled(env: NodeJS.ProcessEnv, stdoutIsTTY: boolean): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== "" && env.FORCE_COLOR !== "0") return true;
  return stdoutIsTTY && env.TERM !== "dumb";
}

export function colorsFor(ctx: Pick<CliContext, "env" | "stdoutIsTTY">): Colors {
  return picocolors.createColors(colorEnabled(ctx.env, ctx.stdoutIsTTY === true));
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

/** `ctx doctor`'s marks in colour: ✓ green, ! yellow, ✗ red, and each fix in cyan. */
export function highlightDoctorMarks(text: string, colors: Colors): string {
  if (!colors.isColorSupported) return text;
  return text
    .replace(/^✓ /gm, `${colors.green("✓")} `)
    .replace(/^! /gm, `${colors.yellow("!")} `)
    .replace(/^✗ /gm, `${colors.red("✗")} `)
    .replace(/^(\s+fix: )(.*)$/gm, (_, label: string, fix: string) => `${label}${colors.cyan(fix)}`);
}
