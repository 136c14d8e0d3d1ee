// `ctx embed [--json] [--quiet]`: fills the session index's missing vectors with the configured embedder
// (embedder.provider nomic or ollama). `ctx serve` runs it in the background after each index sync.
import type { Command } from "commander";
import { loadConfig } from "../../config/load.ts";
import { findProjectRoot } from "../../config/paths.ts";
import { CtxError } from "../../errors.ts";
import { resolveIndexPath } from "../../search/paths.ts";
import type { CliContext } from "../command-io.ts";
import { formatJson, formatRows } from "../output.ts";

const PROGRESS_EVERY_MS = 2_000;

export function registerEmbedCommand(program: Command, ctx: CliContext): void {
  program
    .command("embed")
    .description("compute vectors for indexed chunks that have none (needs embedder.provider nomic or ollama)")
    .option("--json", "print the summary as JSON")
    .option("--quiet", "no progress and no summary")
    .action(async (options: { json?: boolean; quiet?: boolean }) => {
      // Loaded here so that other commands do not pay for the embedders and SQLite.
      const { createEmbedder } = await import("../../search/embedders/create.ts");
      const { fillVectors } = await import("../../search/embedders/fill-vectors.ts");
      const config = loadConfig({ projectRoot: findProjectRoot(ctx.cwd, ctx.env), env: ctx.env });
      const embedder = createEmbedder(config.embedder, { env: ctx.env });
      if (embedder === null) {
        throw new CtxError("EMBEDDER_UNAVAILABLE", "no embedder is configured (embedder.provider is none)", {
          hint: 'set "embedder": {"provider": "nomic"} or {"provider": "ollama"} in ~/.ctx/config.json (README: vector search)',
        });
      }
      let lastReport = 0;
      // Ctrl-C stops after the batch in flight: what is embedded stays, the next run continues.
      const controller = new AbortController();
      const stopListening = ctx.onInterrupt?.(() => controller.abort());
      const summary = await fillVectors({
        dbPath: resolveIndexPath(ctx.env),
        embedder,
        batchSize: config.embedder.batchSize,
        signal: controller.signal,
        onProgress: (progress) => {
          if (options.quiet || Date.now() - lastReport < PROGRESS_EVERY_MS) return;
          lastReport = Date.now();
          const eta = progress.etaMs === null ? "" : ` ... ~${Math.ceil(progress.etaMs / 60_000)} min left`;
          ctx.err(`Embedding chunk ${progress.embedded} of ${progress.total}${eta}\n`);
        },
      }).finally(() => stopListening?.());
      if (options.json) ctx.out(formatJson(summary));
      else if (!options.quiet) {
        ctx.out(
          formatRows([
            ["model", summary.model],
            ["embedded", String(summary.embedded)],
            ["remaining", String(summary.remaining)],
            ["took", `${(summary.durationMs / 1000).toFixed(1)} s`],
          ]),
        );
      }
    });
}
