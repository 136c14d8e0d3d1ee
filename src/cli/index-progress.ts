// Progress of `ctx index` on stderr: a cli-progress bar on a terminal ("Indexing session 47 of 342 … ~2 min
// left"); elsewhere (CI logs, pipes) a plain line at most every 10 s, so a quick run prints nothing.
import { SingleBar } from "cli-progress";
import type { SyncProgress } from "../search/sync/sync-index.ts";
import type { CliContext } from "./command-io.ts";

export interface IndexProgress {
  update(progress: SyncProgress): void;
  stop(): void;
}

const PLAIN_INTERVAL_MS = 10_000;

/** "~2 min left", "~40 s left", or "" while there is no estimate yet. */
export function formatEta(etaMs: number | null): string {
  if (etaMs === null) return "";
  const seconds = Math.ceil(etaMs / 1000);
  if (seconds < 60) return `~${Math.max(1, seconds)} s left`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 120) return `~${minutes} min left`;
  return `~${Math.round(minutes / 60)} h left`;
}

export function createIndexProgress(ctx: CliContext, options: { quiet: boolean; now?: () => number }): IndexProgress {
  if (options.quiet) return { update: () => {}, stop: () => {} };
  if (ctx.stderrIsTTY === true) return createBar(ctx);
  const now = options.now ?? Date.now;
  let last = now();
  return {
    update(progress) {
      if (now() - last < PLAIN_INTERVAL_MS) return;
      last = now();
      const eta = formatEta(progress.etaMs);
      ctx.err(`Indexing session ${progress.done} of ${progress.total}${eta === "" ? "" : ` … ${eta}`}\n`);
    },
    stop: () => {},
  };
}

function createBar(ctx: CliContext): IndexProgress {
  const stream = {
    isTTY: true,
    columns: 100,
    write: (text: string) => {
      // cli-progress draws with cursor controls (carriage return, line clear, cursor hide/show) around text made
      // only of numbers and ctx's ETA, never data: the paint puts its drawing back as it was.
      ctx.err(text, () => text);
      return true;
    },
  } as unknown as NodeJS.WritableStream;
  const bar = new SingleBar({
    stream,
    format: "Indexing session {value} of {total} {bar} {eta_text}",
    barsize: 24,
    hideCursor: true,
    clearOnComplete: true,
    fps: 5,
  });
  let started = false;
  return {
    update(progress) {
      if (!started) {
        bar.start(progress.total, 0, { eta_text: "" });
        started = true;
      }
      bar.update(progress.done, { eta_text: formatEta(progress.etaMs) });
    },
    stop() {
      if (started) bar.stop();
    },
  };
}
