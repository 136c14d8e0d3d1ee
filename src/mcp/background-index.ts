// Wires the background indexer into `ctx serve`: which commands a sync runs (`ctx index`, then `ctx embed`
// when an embedder is configured, then `ctx summarize --background` when an LLM summary provider is), where Claude Code keeps transcripts, and the on/off switch (index.watch).
import { join } from "node:path";
import { ctxHome } from "../config/paths.ts";
import type { Config } from "../config/schema.ts";
import { describeError } from "../errors.ts";
import type { Logger } from "../log.ts";
import { resolveClaudeDir } from "../search/paths.ts";
import { markWatching } from "../search/sync/queue-index.ts";
import { type IndexWatcher, startIndexWatcher } from "../search/sync/watcher.ts";

export interface BackgroundIndexOptions {
  config: Config;
  env: NodeJS.ProcessEnv;
  /** The ctx entry script (dist/ctx.js) the children run with this node binary. */
  cliPath: string;
  execPath: string;
  logger: Logger;
  /** The server's project: its quiet sessions are summarised in the background when an LLM provider is set. */
  projectRoot?: string;
}

export function syncCommands(
  options: Pick<BackgroundIndexOptions, "config" | "cliPath" | "execPath" | "projectRoot">,
): string[][] {
  const ctx = [options.execPath, options.cliPath];
  const commands = [[...ctx, "index", "--quiet", "--json"]];
  if (options.config.embedder.provider !== "none") commands.push([...ctx, "embed", "--quiet", "--json"]);
  // Last: the summaries of this project's quiet sessions, with the LLM provider (under its daily cap).
  if (options.config.summaries.provider !== "extractive" && options.projectRoot !== undefined) {
    const idleMs = String(Math.max(options.config.index.quietMs, 60_000));
    commands.push([
      ...ctx,
      "summarize",
      "--background",
      "--idle-ms",
      idleMs,
      "--json",
      "--project",
      options.projectRoot,
    ]);
  }
  return commands;
}

const EXIT_SIGNALS: NodeJS.Signals[] = ["SIGTERM", "SIGINT", "SIGHUP"];

/**
 * Starts watching, or returns null when index.watch is off or the watcher cannot start (logged). A running
 * child is killed however the server ends: close() on a normal end, and on exit or a terminating signal
 * (the signal is then re-raised, so the server still dies of it as it would have).
 */
export function startBackgroundIndex(options: BackgroundIndexOptions): IndexWatcher | null {
  if (!options.config.index.watch || options.cliPath === "") return null;
  let watcher: IndexWatcher;
  try {
    watcher = startIndexWatcher({
      claudeDir: resolveClaudeDir({ env: options.env }),
      quietMs: options.config.index.quietMs,
      syncOnStart: options.config.index.syncOnStart,
      commands: syncCommands(options),
      logger: options.logger,
      env: options.env,
      lockPath: join(ctxHome(options.env), "background-sync"),
    });
  } catch (error) {
    options.logger.warn(`background indexing off: ${describeError(error)}`);
    return null;
  }
  // SessionEnd leaves the ended session to this watcher while the mark is there (src/search/sync/queue-index.ts).
  let unmark = () => {};
  try {
    unmark = markWatching(options.env);
  } catch (error) {
    options.logger.debug(`no watcher mark: ${describeError(error)}`);
  }
  const onExit = () => {
    unmark();
    watcher.terminate();
  };
  const onSignal = (signal: NodeJS.Signals) => {
    unmark();
    watcher.terminate();
    removeListeners();
    process.kill(process.pid, signal);
  };
  const removeListeners = () => {
    process.off("exit", onExit);
    for (const signal of EXIT_SIGNALS) process.off(signal, onSignal);
  };
  process.on("exit", onExit);
  for (const signal of EXIT_SIGNALS) process.on(signal, onSignal);
  return {
    ready: watcher.ready,
    folders: () => watcher.folders(),
    terminate: () => watcher.terminate(),
    close: async () => {
      removeListeners();
      unmark();
      await watcher.close();
    },
  };
}
