// `ctx init` as a pure function: what the project's files hold now -> every change, with the new content.
// All of it is computed (and every JSON file parsed) before anything is written, so a bad file stops the
// whole run with nothing half-done.

import { CtxError } from "../../../errors.ts";
import { quoteShellWord } from "../../shell/quote.ts";
import { isUnmodifiedCtxFile, renderForkDetectCommand } from "./fork-detect.ts";
import { addCtxToGitignore, removeCtxFromGitignore } from "./gitignore.ts";
import type { CtxCommand, HookWiring } from "./hooks-spec.ts";
import { DEFAULT_JSON_STYLE, type JsonObject, jsonEqual, parseJsonObjectFile, serializeJson } from "./json-text.ts";
import { mergeEnabledServer, mergeMcpServer, removeEnabledServer, removeMcpServer } from "./mcp.ts";
import { type EditResult, mergeCtxHooks, removeCtxHooks } from "./settings-hooks.ts";
import { mergeStatusLine, removeStatusLine } from "./statusline.ts";
import { renderSummariesCommand, type SummariesCommandName } from "./summaries-commands.ts";

export const INIT_FILES = {
  mcpJson: ".mcp.json",
  settings: ".claude/settings.json",
  settingsLocal: ".claude/settings.local.json",
  forkDetect: ".claude/commands/fork-detect.md",
  summarizeAll: ".claude/commands/summarize-all.md",
  summarizeFrom: ".claude/commands/summarize-from.md",
  clearSummaries: ".claude/commands/clear-summaries.md",
  contextStats: ".claude/commands/context-stats.md",
  stats: ".claude/commands/stats.md",
  reindex: ".claude/commands/reindex.md",
  gitignore: ".gitignore",
} as const;

/** The slash commands of the shared table (./summaries-commands.ts) ctx writes, by their INIT_FILES key. */
const SUMMARIES_COMMAND_FILES = {
  summarizeAll: "summarize-all",
  summarizeFrom: "summarize-from",
  clearSummaries: "clear-summaries",
  contextStats: "context-stats",
  stats: "stats",
  reindex: "reindex",
} as const satisfies Partial<Record<InitFileKey, SummariesCommandName>>;
export const CTX_DIR_ENTRY = ".ctx/";

export type InitFileKey = keyof typeof INIT_FILES;

/** What is at `.ctx`: nothing, a folder (with its permission bits, null where they mean nothing, e.g. Windows), or something else. */
export type CtxDirFacts =
  | { kind: "missing" }
  | { kind: "folder"; mode: number | null }
  | { kind: "other"; path: string; what: string };

export interface ProjectSnapshot {
  /** Current text of each file, null when it does not exist. */
  files: Record<InitFileKey, string | null>;
  /** Files that are symbolic links: ctx writes through them (the shell resolves the target) and never deletes them. */
  linked?: readonly InitFileKey[];
  ctxDir: CtxDirFacts;
}

export type InitAction = "create" | "update" | "unchanged" | "remove" | "skip";
export type InitOperation = { kind: "write"; content: string } | { kind: "delete" } | { kind: "private-dir" };

export interface PlannedChange {
  file: string;
  action: InitAction;
  details: string[];
  /** What to do on disk; absent for unchanged and skipped entries. */
  operation?: InitOperation;
}

export type InitMode = "install" | "remove";

export interface InitPlanOptions {
  /** `--statusline`: point Claude Code's status line at `ctx statusline`. */
  statusLine?: boolean;
  /** `--force`: replace a status line that is not ctx's. */
  force?: boolean;
  /** `--hooks`: PostToolUse through ctx's MCP server (`mcp`, the default) or as a process per call (`command`). */
  hooks?: HookWiring;
}

export function planInit(
  snapshot: ProjectSnapshot,
  mode: InitMode,
  cmd: CtxCommand,
  options: InitPlanOptions = {},
): PlannedChange[] {
  const { files } = snapshot;
  const install = mode === "install";
  const linked = new Set(snapshot.linked ?? []);
  // First, so a `.ctx` that is not a folder stops the run before anything else is even planned.
  const ctxDir = planCtxDir(snapshot.ctxDir, mode);
  const edits = (key: InitFileKey, change: PlannedChange) => keepLink(change, linked.has(key));
  return [
    edits(
      "mcpJson",
      planJson(INIT_FILES.mcpJson, files.mcpJson, mode, (value) =>
        install ? mergeMcpServer(value, cmd, INIT_FILES.mcpJson) : removeMcpServer(value, cmd),
      ),
    ),
    edits(
      "settings",
      planJson(INIT_FILES.settings, files.settings, mode, (value) =>
        install
          ? withStatusLine(mergeCtxHooks(value, cmd, INIT_FILES.settings, options.hooks ?? "mcp"), (v) =>
              options.statusLine ? mergeStatusLine(v, cmd, options.force === true) : { value: v, details: [] },
            )
          : withStatusLine(removeCtxHooks(value, cmd), (v) => removeStatusLine(v, cmd)),
      ),
    ),
    edits(
      "settingsLocal",
      planJson(INIT_FILES.settingsLocal, files.settingsLocal, mode, (value) =>
        install ? mergeEnabledServer(value, INIT_FILES.settingsLocal) : removeEnabledServer(value),
      ),
    ),
    edits("forkDetect", planForkDetect(files.forkDetect, mode)),
    ...Object.entries(SUMMARIES_COMMAND_FILES).map(([key, name]) =>
      edits(
        key as InitFileKey,
        planCommandFile(
          INIT_FILES[key as InitFileKey],
          files[key as InitFileKey],
          mode,
          renderSummariesCommand(name),
          `/${name}`,
        ),
      ),
    ),
    edits("gitignore", planGitignore(files.gitignore, mode)),
    ctxDir,
  ];
}

function withStatusLine(first: EditResult, then: (value: JsonObject) => EditResult): EditResult {
  const second = then(first.value);
  return { value: second.value, details: [...first.details, ...second.details] };
}

/**
 * A symbolic link is the person's (dotfiles, a shared config): ctx edits the target through it but never
 * deletes the link. Where removing would delete the file, its target is emptied instead.
 */
function keepLink(change: PlannedChange, linked: boolean): PlannedChange {
  if (!linked || change.operation?.kind !== "delete") return change;
  const kept = "kept: a symbolic link (ctx edits its target but never deletes the link)";
  if (change.file.startsWith(".claude/commands/")) return { file: change.file, action: "skip", details: [kept] };
  const content = change.file === INIT_FILES.gitignore ? "" : serializeJson({});
  const details = change.details.filter((detail) => !detail.startsWith("file deleted"));
  return { file: change.file, action: "update", details: [...details, kept], operation: { kind: "write", content } };
}

/** Why init cannot use a `.ctx` that is not a folder; doctor reports the same. */
export function describeCtxPathConflict(path: string, what: string): { message: string; fix: string } {
  const aside = quoteShellWord(`${path}.other`);
  return {
    message: `${path} exists but is ${what}, not a folder: ctx keeps its state in a .ctx/ folder there`,
    fix: `rename or remove it (another tool may use that name), for example \`mv ${quoteShellWord(path)} ${aside}\`, then run ctx init`,
  };
}

/** True when an install run would write nothing (a file left alone because the person edited it counts as done). */
export function isAlreadySetUp(changes: readonly PlannedChange[]): boolean {
  return changes.every((change) => change.operation === undefined);
}

function planJson(
  file: string,
  text: string | null,
  mode: InitMode,
  edit: (value: JsonObject) => EditResult,
): PlannedChange {
  const parsed = text === null ? { value: {}, style: DEFAULT_JSON_STYLE } : parseJsonObjectFile(file, text);
  const result = edit(parsed.value);
  if (jsonEqual(result.value, parsed.value)) return { file, action: "unchanged", details: result.details };
  if (mode === "remove" && text !== null && Object.keys(result.value).length === 0) {
    return {
      file,
      action: "remove",
      details: [...result.details, "file deleted: nothing else was in it"],
      operation: { kind: "delete" },
    };
  }
  const content = serializeJson(result.value, parsed.style);
  return {
    file,
    action: text === null ? "create" : "update",
    details: result.details,
    operation: { kind: "write", content },
  };
}

function planForkDetect(text: string | null, mode: InitMode): PlannedChange {
  return planCommandFile(INIT_FILES.forkDetect, text, mode, renderForkDetectCommand(), "/fork-detect");
}

/** A slash command file ctx writes: created, updated while unmodified, never overwritten once edited. */
function planCommandFile(
  file: string,
  text: string | null,
  mode: InitMode,
  content: string,
  label: string,
): PlannedChange {
  if (mode === "remove") {
    if (text === null) return { file, action: "unchanged", details: [] };
    if (isUnmodifiedCtxFile(text))
      return { file, action: "remove", details: [`- ${label}`], operation: { kind: "delete" } };
    return { file, action: "skip", details: ["edited by you (or not written by ctx): left in place"] };
  }
  if (text === null) return { file, action: "create", details: [`+ ${label}`], operation: { kind: "write", content } };
  if (text === content) return { file, action: "unchanged", details: [] };
  if (isUnmodifiedCtxFile(text)) {
    return {
      file,
      action: "update",
      details: [`~ ${label}: ctx's newer version`],
      operation: { kind: "write", content },
    };
  }
  return {
    file,
    action: "skip",
    details: [
      "differs from ctx's version and was edited by you (or not written by ctx): left as is; delete it and run ctx init to get ctx's version",
    ],
  };
}

function planGitignore(text: string | null, mode: InitMode): PlannedChange {
  const file = INIT_FILES.gitignore;
  const edit = mode === "install" ? addCtxToGitignore(text) : removeCtxFromGitignore(text);
  if (edit.text === text) return { file, action: "unchanged", details: edit.details };
  if (edit.text === null)
    return {
      file,
      action: "remove",
      details: [...edit.details, "file deleted: nothing else was in it"],
      operation: { kind: "delete" },
    };
  const action = text === null ? "create" : "update";
  return { file, action, details: edit.details, operation: { kind: "write", content: edit.text } };
}

function planCtxDir(dir: CtxDirFacts, mode: InitMode): PlannedChange {
  const file = CTX_DIR_ENTRY;
  if (dir.kind === "other") {
    if (mode === "remove") return { file, action: "unchanged", details: [`not a folder, so not ctx's: left alone`] };
    const { message, fix } = describeCtxPathConflict(dir.path, dir.what);
    throw new CtxError("INIT_CONFLICT", message, { hint: `${fix}; nothing was written` });
  }
  if (mode === "remove") {
    if (dir.kind === "missing") return { file, action: "unchanged", details: [] };
    return {
      file,
      action: "skip",
      details: ["kept: ctx --remove never deletes your saved context; `rm -rf .ctx` if you want it gone"],
    };
  }
  if (dir.kind === "missing")
    return {
      file,
      action: "create",
      details: ["+ folder for ctx's state (mode 0700)"],
      operation: { kind: "private-dir" },
    };
  // Group or other access is what matters (state holds conversations); ensurePrivateDir removes exactly that.
  if (dir.mode !== null && (dir.mode & 0o077) !== 0) {
    const from = dir.mode.toString(8).padStart(4, "0");
    return { file, action: "update", details: [`~ mode ${from} -> 0700`], operation: { kind: "private-dir" } };
  }
  return { file, action: "unchanged", details: [] };
}
