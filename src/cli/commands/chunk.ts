// `ctx chunk [--max N] [--output]`: the chunkers for people and scripts. Reads text on stdin and prints the chunks as
// a JSON array of strings: input chunks (joined, they give back stdin exactly) or, with --output, chat messages
// with `[i/N] ` prefixes and code fences closed and reopened across messages.
import type { Command } from "commander";
import { chunkInput, INPUT_CHUNK_MAX, INPUT_CHUNK_MIN } from "../../core/chunking/input.ts";
import { chunkOutput, OUTPUT_CHUNK_MAX, OUTPUT_CHUNK_MIN } from "../../core/chunking/output.ts";
import { CtxError } from "../../errors.ts";
import type { CliContext } from "../command-io.ts";
import { COMMANDS } from "../help.ts";
import { formatJson } from "../output.ts";

interface ChunkFlags {
  max?: string;
  output?: boolean;
}

export function registerChunkCommand(program: Command, ctx: CliContext): void {
  program
    .command("chunk")
    .description(COMMANDS.chunk.description)
    .option("--max <n>", `characters per chunk (default ${INPUT_CHUNK_MAX}; with --output ${OUTPUT_CHUNK_MAX})`)
    .option("--output", "chat messages: `[i/N] ` prefix included in --max, code fences closed and reopened")
    .addHelpText("after", "\nExample: ctx chunk --output < reply.md | jq -r '.[]'")
    .action(async (flags: ChunkFlags) => {
      const output = flags.output === true;
      const max = parseMax(
        flags.max,
        output ? OUTPUT_CHUNK_MAX : INPUT_CHUNK_MAX,
        output ? OUTPUT_CHUNK_MIN : INPUT_CHUNK_MIN,
      );
      if ((ctx.stdin as { isTTY?: boolean }).isTTY === true)
        ctx.err("ctx chunk: reading text from stdin (Ctrl-D ends it)\n");
      const text = await readText(ctx.stdin);
      ctx.out(formatJson(output ? outputMessages(text, max) : chunkInput(text, { max }).map((c) => c.text)));
    });
}

function outputMessages(text: string, max: number): string[] {
  try {
    return chunkOutput(text, { max }).map((chunk) => chunk.text);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    throw new CtxError("USAGE", `${error.message} (a code fence line longer than the message)`, {
      hint: "raise --max",
      cause: error,
    });
  }
}

function parseMax(raw: string | undefined, fallback: number, min: number): number {
  if (raw === undefined) return fallback;
  const value = /^\d+$/.test(raw.trim()) ? Number(raw.trim()) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < min) {
    throw new CtxError("USAGE", `--max must be a whole number of characters >= ${min}, got "${raw}"`, {
      hint: `for example \`ctx chunk --max ${fallback}\`${min > INPUT_CHUNK_MIN ? " (--output needs room for the [i/N] prefix and fences)" : ""}`,
    });
  }
  return value;
}

/** All of stdin as UTF-8; a byte-order mark is kept so the chunks join back to exactly what came in. */
async function readText(stdin: NodeJS.ReadableStream): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of stdin) parts.push(typeof part === "string" ? Buffer.from(part) : part);
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(Buffer.concat(parts));
  } catch (error) {
    throw new CtxError("USAGE", "stdin is not valid UTF-8 text", {
      hint: "convert it first, e.g. `iconv -f latin1 -t utf-8 file | ctx chunk`",
      cause: error,
    });
  }
}
