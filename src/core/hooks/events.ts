// The hook events ctx handles: the one table the rest derives from. `ctx hook <event>` takes the row's key, its
// Claude Code name or an alias; the handler is src/hooks/handlers/<key>.hook.ts, loaded by that name
// (src/hooks/runtime/table.ts); `lean` rows run in the lean entry (src/bin/lean.ts, built on its own), the others in
// the program; `wiring` is what `ctx init` and the plugin write into Claude Code's settings (core/setup/init/
// hooks-spec.ts), what `ctx doctor` checks and what `ctx hook --help` lists. Data only (no imports): src/bin/ctx.ts reads
// it to route a hook before anything else loads.
//
// Adding an event: a row here, its handler file and the handler's test (ARCHITECTURE.md, "Adding things").

export interface HookEventSpec {
  /** Claude Code's name: `hook_event_name` in inputs, `hookEventName` in replies, the key in settings.json. */
  claude: string;
  /** More names `ctx hook` accepts. */
  aliases?: readonly string[];
  /** What it is for, one line (`ctx hook --help`). */
  summary: string;
  /** Claude Code runs it after every tool call or every turn: it runs in the lean entry (docs/performance.md). */
  lean?: boolean;
  wiring: {
    /** Omitted for events without matcher support (UserPromptSubmit, Stop) and where every source counts. */
    matcher?: string;
    /** SECONDS (Claude Code's unit). A declared SessionEnd timeout raises the shared 1.5 s SessionEnd budget. */
    timeout: number;
    /** The same work as a tool on ctx's MCP server, for an `mcp_tool` handler (docs/mcp-tool-hooks.md). */
    mcpTool?: { tool: string; input: Record<string, string> };
  };
}

/** `${field}`: Claude Code fills it from the hook's input in an `mcp_tool` handler's input values. */
const fromHook = (field: string) => `\${${field}}`;

export const HOOK_EVENTS = {
  "session-start": {
    claude: "SessionStart",
    summary: "records the session; after a compaction re-injects the saved state, led by what the summary lost",
    // 30 s: the compact re-injection is fast, but a stuck lock must never hang a session start for 600 s.
    wiring: { matcher: "startup|resume|clear|compact|fork", timeout: 30 },
  },
  "pre-compact": {
    claude: "PreCompact",
    summary: "captures, saves, snapshots and verifies the context before Claude Code compacts",
    wiring: { matcher: "manual|auto", timeout: 60 },
  },
  "post-compact": {
    claude: "PostCompact",
    summary: "audits what the compaction summary lost (Claude Code 2.1.76+)",
    wiring: { matcher: "manual|auto", timeout: 30 },
  },
  "post-tool-use": {
    claude: "PostToolUse",
    summary: "the rolling checkpoint and the context guard, after every tool call",
    lean: true,
    // Through ctx's connected MCP server where `ctx init` wires one (Stop steps the guard for a turn whose calls
    // went unticked, e.g. before the server connected); a process otherwise.
    wiring: {
      matcher: "*",
      timeout: 10,
      mcpTool: {
        tool: "ctx_guard_tick",
        input: {
          session_id: fromHook("session_id"),
          transcript_path: fromHook("transcript_path"),
          tool_use_id: fromHook("tool_use_id"),
        },
      },
    },
  },
  "user-prompt-submit": {
    claude: "UserPromptSubmit",
    aliases: ["prompt"],
    summary: "after a compaction, the first prompt carries what the summary lost",
    wiring: { timeout: 10 },
  },
  stop: {
    claude: "Stop",
    summary: "the rolling checkpoint at the end of every turn, and the guard for a turn left unticked",
    lean: true,
    wiring: { timeout: 10 },
  },
  "session-end": {
    claude: "SessionEnd",
    summary: "records the end of the session, saves its context and queues it for the index",
    wiring: { timeout: 10 },
  },
} as const satisfies Record<string, HookEventSpec>;

export type HookEvent = keyof typeof HOOK_EVENTS;
/** Claude Code's names of the events ctx handles. */
export type ClaudeHookEvent = (typeof HOOK_EVENTS)[HookEvent]["claude"];

export const HOOK_EVENT_NAMES = Object.keys(HOOK_EVENTS) as HookEvent[];

const spec = (event: HookEvent): HookEventSpec => HOOK_EVENTS[event];

/** The names `ctx hook` accepts for an event: its own, Claude Code's, its aliases. */
const namesOf = (event: HookEvent): string[] => [event, spec(event).claude, ...(spec(event).aliases ?? [])];

/** The event a name given to `ctx hook` means (ctx's, Claude Code's or an alias), or null. */
export function resolveHookEvent(name: string): HookEvent | null {
  return HOOK_EVENT_NAMES.find((event) => namesOf(event).includes(name)) ?? null;
}

/** Every name `ctx hook` accepts. */
export const hookEventNames = (): string[] => HOOK_EVENT_NAMES.flatMap(namesOf);

/** Whether the lean entry runs it. */
export const isLeanEvent = (event: HookEvent): boolean => spec(event).lean === true;

/** Every name `ctx hook` accepts for a lean event: src/bin/ctx.ts routes these to the lean entry (the build writes
 *  the list into it, so that it imports nothing to decide). */
export const leanHookNames = (): string[] => HOOK_EVENT_NAMES.filter(isLeanEvent).flatMap(namesOf);
