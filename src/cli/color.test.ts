// Colour is for terminals: NO_COLOR, TERM=dumb and a pipe turn it off; FORCE_COLOR turns it on.
import { describe, expect, it } from "vitest";
import {
  colorEnabled,
  colorsFor,
  highlightDoctorMarks,
  highlightForkCommands,
  highlightHelp,
  highlightSearchList,
} from "./color.ts";

const on = colorsFor({ env: { FORCE_COLOR: "1" }, stdoutIsTTY: false });
const off = colorsFor({ env: {}, stdoutIsTTY: false });

describe("colour", () => {
  it("is on for a terminal only, and NO_COLOR wins over everything", () => {
    expect(colorEnabled({}, true)).toBe(true);
    expect(colorEnabled({}, false)).toBe(false);
    expect(colorEnabled({ TERM: "dumb" }, true)).toBe(false);
    expect(colorEnabled({ NO_COLOR: "1" }, true)).toBe(false);
    expect(colorEnabled({ NO_COLOR: "1", FORCE_COLOR: "1" }, true)).toBe(false);
    expect(colorEnabled({ NO_COLOR: "" }, true)).toBe(true);
    expect(colorEnabled({ FORCE_COLOR: "0" }, false)).toBe(false);
  });

  it("marks the fork command line and doctor's marks, and changes nothing without colour", () => {
    const list = "1. topic\n   fork: cd '/p' && claude --resume s --fork-session\n";
    expect(highlightForkCommands(list, off)).toBe(list);
    expect(highlightForkCommands(list, on)).toBe(
      `1. topic\n   ${on.dim("fork:")}${on.green(on.bold(" cd '/p' && claude --resume s --fork-session"))}\n`,
    );
    const doctor = "✓ Node 24\n! `ctx` is not on PATH\n    fix: npm install -g x\n✗ broken\n";
    expect(highlightDoctorMarks(doctor, off)).toBe(doctor);
    const coloured = highlightDoctorMarks(doctor, on);
    expect(coloured).toContain(`${on.green("✓")} Node 24`);
    expect(coloured).toContain(`${on.red("✗")} broken`);
    expect(coloured).toContain(`    fix: ${on.cyan("npm install -g x")}`);
  });

  it("paints the search list by its layout: titles bold, strong fork lines green, weak ones faint", () => {
    const list = [
      'Sessions matching "x", best first:',
      "",
      "1. Strong one",
      "   session s1",
      "   fork: claude --resume s1 --fork-session",
      "",
      "── weak matches (below 30% relevance):",
      "",
      "2. Weak one",
      "   fork: claude --resume s2 --fork-session",
    ].join("\n");
    expect(highlightSearchList(list, off)).toBe(list);
    const lines = highlightSearchList(list, on).split("\n");
    expect(lines[2]).toBe(on.bold("1. Strong one"));
    expect(lines[4]).toBe(`   ${on.dim("fork:")}${on.green(on.bold(" claude --resume s1 --fork-session"))}`);
    expect(lines[6]).toBe("── weak matches (below 30% relevance):");
    expect(lines[8]).toBe(on.dim("2. Weak one"));
    expect(lines[9]).toBe(on.dim("   fork: claude --resume s2 --fork-session"));
  });

  it("paints commander's plain help: headings bold, command names cyan", () => {
    const help =
      "Usage: ctx search [options] <query...>\n\nOptions:\n  --json  print JSON\n\nSet up:\n  init [options]  wire it\n";
    expect(highlightHelp(help, off)).toBe(help);
    const painted = highlightHelp(help, on);
    expect(painted).toContain(`${on.bold("Usage:")} ${on.cyan("ctx")} ${on.cyan("search")} [options] <query...>`);
    expect(painted).toContain(on.bold("Options:"));
    expect(painted).toContain("  --json  print JSON");
    expect(painted).toContain(`  ${on.cyan("init")} [options]  wire it`);
  });
});
