// A pager for long output on a terminal (`ctx show`), as git does it: `$PAGER` run by the shell when it is set,
// `less` when it is not (and on PATH), none when `$PAGER` is empty or `cat`, or stdout is not a terminal. `LESS`
// defaults to `FRX`: quit when the text fits one screen, pass colour, leave the screen as it was. The text written
// here is already sanitized (src/terminal-text.ts): the pager receives no control a transcript held.
import { type ChildProcess, spawn } from "node:child_process";
import { onPath } from "./on-path.ts";

export interface Pager {
  /** Writes text; resolves once the pipe can take more (a reader that has not scrolled holds the writer back). */
  write(text: string): Promise<void>;
  /** True once the person quit the pager: stop producing. */
  readonly closed: boolean;
  /** Ends the input and waits for the pager to exit. */
  end(): Promise<void>;
}

/** The pager command to run through the shell; null for none. */
export function pagerCommand(env: NodeJS.ProcessEnv): string | null {
  const named = env.PAGER;
  if (named !== undefined) {
    const trimmed = named.trim();
    return trimmed === "" || trimmed === "cat" ? null : trimmed;
  }
  return onPath("less", env) ? "less" : null;
}

/** Starts the pager with this process's terminal as its output; null when there is none to run. */
export function openPager(env: NodeJS.ProcessEnv, spawnPager = spawnShell): Pager | null {
  const command = pagerCommand(env);
  if (command === null) return null;
  const child = spawnPager(command, { ...env, LESS: env.LESS ?? "FRX" });
  let closed = false;
  const exited = new Promise<void>((resolve) => {
    child.on("close", () => {
      closed = true;
      resolve();
    });
    child.on("error", () => {
      closed = true;
      resolve();
    });
  });
  const input = child.stdin;
  // The person quitting the pager closes the pipe: EPIPE is the end of the reading, not a failure.
  input?.on("error", () => {
    closed = true;
  });
  return {
    get closed() {
      return closed;
    },
    async write(text) {
      if (closed || input === null || input === undefined) return;
      if (!input.write(text)) {
        await new Promise<void>((resolve) => {
          const done = () => {
            input.off("drain", done);
            input.off("close", done);
            resolve();
          };
          input.on("drain", done);
          input.on("close", done);
        });
      }
    },
    async end() {
      input?.end();
      await exited;
    },
  };
}

function spawnShell(command: string, env: NodeJS.ProcessEnv): ChildProcess {
  // $PAGER is a shell command line (`less -R`, `most -s`), run as git and man run it.
  return spawn(command, { shell: true, env, stdio: ["pipe", "inherit", "inherit"] });
}
