// The flags that say how a restore is rendered (`ctx restore`, `ctx snapshot restore`): mode, sections, a
// length cap, or `--print` for a person (everything, no cap). Without a cap given, the text is held to
// hooks.maxInjectChars, the size Claude takes in as one injection.
import { type Command, InvalidArgumentError, Option } from "commander";
import type { Config } from "../config/schema.ts";
import {
  RESTORE_MODES,
  RESTORE_SECTIONS,
  type RenderOptions,
  type RestoreMode,
  type RestoreSection,
} from "../core/context/restore-text.ts";
import { CtxError } from "../errors.ts";

export interface RenderFlags {
  mode?: RestoreMode;
  sections?: RestoreSection[];
  print?: boolean;
  maxChars?: number;
}

function parseSections(value: string): RestoreSection[] {
  const names = value
    .split(",")
    .map((name) => name.trim())
    .filter((name) => name !== "");
  const unknown = names.filter((name) => !(RESTORE_SECTIONS as readonly string[]).includes(name));
  if (names.length === 0 || unknown.length > 0) {
    throw new InvalidArgumentError(
      `${unknown.length > 0 ? `unknown section ${unknown.join(", ")}` : "no section named"}; ` +
        `choose from ${RESTORE_SECTIONS.join(", ")}`,
    );
  }
  return names as RestoreSection[];
}

function parseMaxChars(value: string): number {
  const chars = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(chars) || chars < 200) {
    throw new InvalidArgumentError("a whole number of characters, at least 200");
  }
  return chars;
}

export function addRenderFlags(command: Command): Command {
  return command
    .addOption(new Option("--mode <mode>", "how much to render (default: summary)").choices([...RESTORE_MODES]))
    .addOption(
      new Option("--sections <list>", `with --mode selective: some of ${RESTORE_SECTIONS.join(",")}`).argParser(
        parseSections,
      ),
    )
    .addOption(
      new Option(
        "--max-chars <n>",
        "cap the text at n characters (at least 200; default hooks.maxInjectChars)",
      ).argParser(parseMaxChars),
    )
    .addOption(
      new Option("--print", "the whole text for a person to read (mode full, no length cap)").conflicts([
        "mode",
        "sections",
        "maxChars",
      ]),
    );
}

/** RenderOptions from the flags; `--sections` alone implies selective, and makes no sense with full or summary. */
export function renderOptionsFrom(flags: RenderFlags, config: Config): Omit<RenderOptions, "origin"> {
  if (flags.print) return { mode: "full", maxChars: Number.MAX_SAFE_INTEGER };
  const mode = flags.mode ?? (flags.sections !== undefined ? "selective" : "summary");
  if (flags.sections !== undefined && mode !== "selective") {
    throw new CtxError("USAGE", `--sections needs --mode selective (got --mode ${mode})`, {
      hint: `e.g. --mode selective --sections todos,plan`,
    });
  }
  return {
    mode,
    maxChars: flags.maxChars ?? config.hooks.maxInjectChars,
    ...(flags.sections === undefined ? {} : { sections: flags.sections }),
  };
}
