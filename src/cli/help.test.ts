// `ctx --help` as people scan it: grouped commands in a fixed order, examples under each command, `ctx` alone on
// stdout, and colour only on a terminal without NO_COLOR. The snapshots make any change to the help visible.
import { Readable } from "node:stream";
import type { Command } from "commander";
import { describe, expect, it } from "vitest";
import { runCliCaptured } from "../../tests/helpers/cli-run.ts";
import { silentLogger } from "../log.ts";
import type { CliContext } from "./command-io.ts";
import { COMMAND_EXAMPLES, COMMAND_GROUPS, HELP_GROUPS } from "./help.ts";
import { createProgram, runCli } from "./program.ts";

const ESC = "\u001b[";

async function helpOn(argv: string[], tty: { stdoutIsTTY: boolean; env?: NodeJS.ProcessEnv }) {
  let stdout = "";
  const ctx: CliContext = {
    cwd: "/",
    env: { COLUMNS: "100", ...tty.env },
    stdin: Readable.from([]),
    out: (text) => {
      stdout += text;
    },
    err: () => {},
    logger: silentLogger,
    stdoutIsTTY: tty.stdoutIsTTY,
    setExitCode: () => {},
  };
  const code = await runCli(argv, ctx);
  return { code, stdout };
}

const program = () =>
  createProgram({
    cwd: "/",
    env: {},
    stdin: Readable.from([]),
    out: () => {},
    err: () => {},
    logger: silentLogger,
    setExitCode: () => {},
  });

describe("ctx help", () => {
  it("`ctx` alone prints the grouped help to stdout and exits 0", async () => {
    const run = await runCliCaptured([], { cwd: "/", env: {} });
    expect(run.code).toBe(0);
    expect(run.stderr).toBe("");
    const headings = run.stdout.split("\n").filter((line) => /^[A-Z][A-Za-z ]+:$/.test(line));
    const used = HELP_GROUPS.filter((group) => program().commands.some((c) => COMMAND_GROUPS[c.name()] === group));
    expect(headings).toEqual(["Options:", ...used.map((group) => `${group}:`)]);
    expect(headings).not.toContain("Other:");
    expect(run.stdout).toMatchSnapshot();
  });

  it("puts every command in a group and gives every command and subcommand an example", () => {
    const missingExamples: string[] = [];
    const visit = (command: Command, path: string[]) => {
      for (const sub of command.commands) {
        const key = [...path, sub.name()].join(" ");
        if (path.length === 0) expect(COMMAND_GROUPS[key], `group of ${key}`).toBeDefined();
        if (sub.commands.length === 0 && !(COMMAND_EXAMPLES[key] ?? COMMAND_EXAMPLES[path.join(" ")]))
          missingExamples.push(key);
        visit(sub, [...path, sub.name()]);
      }
    };
    visit(program(), []);
    expect(missingExamples).toEqual([]);
  });

  it("shows a command's examples under its options", async () => {
    const { stdout } = await helpOn(["config", "set", "--help"], { stdoutIsTTY: false });
    expect(stdout).toMatch(/Options:[\s\S]*Examples:\n {2}ctx config set retention.maxSnapshots 10\n/);
    expect(stdout).toMatchSnapshot();
    const search = await helpOn(["search", "--help"], { stdoutIsTTY: false });
    expect(search.stdout.match(/^ {2}ctx search /gm)?.length).toBe(3);
  });

  it("colours headings on a terminal only, and never with NO_COLOR", async () => {
    expect((await helpOn(["--help"], { stdoutIsTTY: false })).stdout).not.toContain(ESC);
    expect((await helpOn(["--help"], { stdoutIsTTY: true, env: { TERM: "xterm" } })).stdout).toContain(
      `${ESC}1mSet up:`,
    );
    expect(
      (await helpOn(["--help"], { stdoutIsTTY: true, env: { TERM: "xterm", NO_COLOR: "1" } })).stdout,
    ).not.toContain(ESC);
    expect((await helpOn(["--help"], { stdoutIsTTY: false, env: { FORCE_COLOR: "1" } })).stdout).toContain(ESC);
  });
});
