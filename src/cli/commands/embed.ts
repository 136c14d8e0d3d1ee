// `ctx embed [--json] [--quiet]`: fills the session index's missing vectors with the configured embedder
// (embedder.provider nomic or ollama). `ctx serve` runs it in the background after each index sync.
import type { Command } from "commander";
import { loadConfig } from "../../config/load.ts";
import { findProjectRoot } from "../../config/paths.ts";
import { CtxError } from "../../errors.ts";
import { resolveIndexPath } from "../../search/paths.ts";
import type { CliContext } from "../command-io.ts";
import { COMMANDS } from "../help.ts";
import { formatJson, formatRows } from "../output.ts";

const PROGRESS_EVERY_MS = 2_000;

export function registerEmbedCommand(program: Command, ctx: CliContext): void {
  program
    .command("embed")
    .description(COMMANDS.embed.description)
    .option("--setup", "install the local (nomic) embedder's packages, ~470 MB, into <CTX_HOME>/embedder with npm")
    .option("--json", "print the summary as JSON")
    .option("--quiet", "no progress and no summary")
    .action(async (options: { json?: boolean; quiet?: boolean; setup?: boolean }) => {
      if (options.setup) {
        await setUpEmbedder(ctx, options);
        return;
      }
      // Loaded here so that other commands do not pay for the embedders and SQLite.
      const { createEmbedder } = await import("../../search/embedders/create.ts");
      const { fillVectors } = await import("../../search/embedders/fill-vectors.ts");
      const config = loadConfig({ projectRoot: findProjectRoot(ctx.cwd, ctx.env), env: ctx.env });
      const embedder = createEmbedder(config.embedder, { env: ctx.env });
      if (embedder === null) {
        throw new CtxError("EMBEDDER_UNAVAILABLE", "no embedder is configured (embedder.provider is none)", {
          hint: "`ctx config set embedder.provider ollama` (or nomic, after `ctx embed --setup`); see docs/vector-search.md",
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

async function setUpEmbedder(ctx: CliContext, options: { json?: boolean; quiet?: boolean }): Promise<void> {
  const { installTransformersPackage } = await import("../../search/embedders/transformers-package.ts");
  const spec = ctx.env.CTX_EMBEDDER_PACKAGE;
  if (!options.quiet) ctx.err("ctx: installing the nomic embedder's packages with npm (about 470 MB)...\n");
  const result = await installTransformersPackage({
    env: ctx.env,
    ...(spec === undefined || spec === "" ? {} : { packageSpec: spec }),
    onOutput: (text) => {
      if (!options.quiet) ctx.err(text);
    },
  });
  if (options.json) {
    ctx.out(formatJson(result));
    return;
  }
  if (options.quiet) return;
  ctx.out(
    formatRows([
      ["installed", result.packageSpec],
      ["into", result.dir],
      ["size", `${(result.installedBytes / 1_048_576).toFixed(1)} MiB`],
      ["next", "the model files (docs/vector-search.md), then `ctx config set embedder.provider nomic`"],
    ]),
  );
}
