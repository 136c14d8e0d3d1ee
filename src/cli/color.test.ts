// Colour is for terminals: NO_COLOR, TERM=dumb and a pipe turn it off; FORCE_COLOR turns it on.
import { describe, expect, it } from "vitest";
import { colorEnabled, colorsFor, highlightDoctorMarks, highlightForkCommands } from "./color.ts";

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
});
