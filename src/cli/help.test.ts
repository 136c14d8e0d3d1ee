// `ctx --help` as people scan it: grouped commands in a fixed order, examples under each command, `ctx` alone on
// stdout, and colour only on a terminal without NO_COLOR. The snapshots make any change to the help visible.
import { Readable } from "node:stream";
import { type Command, Help } from "commander";
import { describe, expect, it } from "vitest";
import { runCliCaptured } from "../../tests/helpers/cli-run.ts";
import { silentLogger } from "../log.ts";
import type { CliContext } from "./command-io.ts";
import { COMMAND_EXAMPLES, COMMANDS, HELP_GROUPS } from "./help.ts";
import { type CommandsToLoad, commandsToLoad, createProgram, runCli } from "./program.ts";

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

const program = (load: CommandsToLoad = "all", out: (text: string) => void = () => {}) =>
  createProgram(
    {
      cwd: "/",
      env: {},
      stdin: Readable.from([]),
      out,
      err: () => {},
      logger: silentLogger,
      setExitCode: () => {},
    },
    load,
  );

describe("ctx help", () => {
  it("`ctx` alone prints the grouped help to stdout and exits 0", async () => {
    const run = await runCliCaptured([], { cwd: "/", env: {} });
    expect(run.code).toBe(0);
    expect(run.stderr).toBe("");
    const headings = run.stdout.split("\n").filter((line) => /^[A-Z][A-Za-z ]+:$/.test(line));
    const used = HELP_GROUPS.filter((group) => Object.values(COMMANDS).some((command) => command.group === group));
    expect(headings).toEqual(["Options:", ...used.map((group) => `${group}:`)]);
    expect(headings).not.toContain("Other:");
    expect(run.stdout).toMatchSnapshot();
  });

  it("gives every command and subcommand an example", async () => {
    const missingExamples: string[] = [];
    const visit = (command: Command, path: string[]) => {
      for (const sub of command.commands) {
        const key = [...path, sub.name()].join(" ");
        if (sub.commands.length === 0 && !(COMMAND_EXAMPLES[key] ?? COMMAND_EXAMPLES[path.join(" ")]))
          missingExamples.push(key);
        visit(sub, [...path, sub.name()]);
      }
    };
    visit(await program(), []);
    expect(missingExamples).toEqual([]);
  });

  it("lists each command by its descriptor, which says what the command's module registers", async () => {
    const loaded = await program();
    expect(loaded.commands.map((command) => command.name())).toEqual(Object.keys(COMMANDS));
    const help = new Help();
    for (const command of loaded.commands) {
      const descriptor = COMMANDS[command.name() as keyof typeof COMMANDS];
      expect({ term: help.subcommandTerm(command), description: command.description() }).toEqual({
        term: descriptor.term,
        description: descriptor.description,
      });
    }
    // Commander shows the groups in the order of their first command: the descriptors keep each group together.
    const groups = Object.values(COMMANDS).map((command) => command.group);
    expect(groups).toEqual([...groups].sort((a, b) => HELP_GROUPS.indexOf(a) - HELP_GROUPS.indexOf(b)));
  });

  it("prints the same list with no command loaded as with all of them", async () => {
    const helpOf = async (load: CommandsToLoad) => {
      let text = "";
      (await program(load, (chunk) => (text += chunk))).outputHelp();
      return text;
    };
    const unloaded = await helpOf([]);
    expect(unloaded).toContain("search [options] <query...>");
    expect(unloaded).toBe(await helpOf("all"));
  });

  it("loads the command the command line runs, every command for the completion script, none for the help", () => {
    expect(commandsToLoad(["status", "--json"])).toEqual(["status"]);
    expect(commandsToLoad(["--", "search", "flaky", "test"])).toEqual(["search"]);
    expect(commandsToLoad(["completion", "bash"])).toBe("all");
    expect(commandsToLoad([])).toEqual([]);
    expect(commandsToLoad(["--help"])).toEqual([]);
    expect(commandsToLoad(["serch"])).toEqual([]);
    expect(commandsToLoad(["toString"])).toEqual([]);
  });

  it("shows a command's examples under its options", async () => {
    const { stdout } = await helpOn(["config", "set", "--help"], { stdoutIsTTY: false });
    expect(stdout).toMatch(/Options:[\s\S]*Examples:\n {2}ctx config set retention.maxSnapshots 10\n/);
    expect(stdout).toMatchSnapshot();
    const search = await helpOn(["search", "--help"], { stdoutIsTTY: false });
    expect(search.stdout.match(/^ {2}ctx search /gm)?.length).toBe(4);
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
