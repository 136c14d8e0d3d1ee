// How `ctx --help` reads: the commands in groups (in the order people meet them), 1-3 examples under each
// command's own `--help`, and colour on the headings when the output is a terminal. The list comes from the
// descriptors below, not from the commands' modules, so `ctx --help` loads none of them.
import type { Command } from "commander";
import { colorsFor, highlightHelp } from "./color.ts";
import type { CliContext } from "./command-io.ts";

export const HELP_GROUPS = [
  "Set up",
  "Working context",
  "Find a session",
  "Context window",
  "Text",
  "Chat bridge",
  "Team",
  "Internal",
] as const;
export type HelpGroup = (typeof HELP_GROUPS)[number];

interface CommandDescriptor {
  group: HelpGroup;
  /** The command as the list names it: its name, "[options]" when it has any, its arguments. */
  term: string;
  description: string;
}

/** Every top-level command, in the order `ctx --help` lists them: what the list shows of each, so the list (and the
 *  program, ./program.ts) can name every command while loading only the one that runs. Each command's module takes
 *  its description from here; a test checks each term against the command it names. */
export const COMMANDS = {
  init: {
    group: "Set up",
    term: "init [options]",
    description: "wire ctx into this project's Claude Code settings (hooks, MCP server, /fork-detect)",
  },
  doctor: {
    group: "Set up",
    term: "doctor [options]",
    description: "check Node, PATH, the project's Claude Code wiring, .ctx/ and the config",
  },
  config: {
    group: "Set up",
    term: "config",
    description: "see and change settings: list, get, set, unset, path (defaults < global < project < CTX_* env)",
  },
  completion: {
    group: "Set up",
    term: "completion <shell>",
    description: "print the shell completion script for bash, zsh or fish",
  },
  status: {
    group: "Working context",
    term: "status [options]",
    description: "show what ctx holds for this project: sessions seen, state health",
  },
  save: {
    group: "Working context",
    term: "save [options]",
    description: "capture the current session's working context and save it now",
  },
  restore: {
    group: "Working context",
    term: "restore [options]",
    description: "print the saved context (default: the current state, summary mode)",
  },
  diff: {
    group: "Working context",
    term: "diff [options]",
    description: "what changed on disk since the save: modified, deleted and added files",
  },
  clear: {
    group: "Working context",
    term: "clear [options]",
    description: "delete the current saved context (snapshots, checkpoints and named saves are kept)",
  },
  checkpoint: {
    group: "Working context",
    term: "checkpoint [options]",
    description: "write a checkpoint of the current session's context now",
  },
  snapshot: {
    group: "Working context",
    term: "snapshot",
    description: "the snapshots taken before compactions: list, show, restore, pin, unpin, prune, recompress",
  },
  rules: {
    group: "Working context",
    term: "rules",
    description: "CLAUDE.md rules marked (ENFORCED) or (CRITICAL): list them, check a compaction kept them",
  },
  audit: {
    group: "Working context",
    term: "audit [options]",
    description: "what each compaction's summary lost of the context ctx saved before it, newest first",
  },
  archive: {
    group: "Working context",
    term: "archive",
    description:
      "unredacted copies of transcripts Claude Code's cleanup is about to delete: status, run, list, restore, prune",
  },
  budget: {
    group: "Working context",
    term: "budget",
    description: "the context budget re-injected after compactions: list, add, pin, unpin, evict, estimate, assemble",
  },
  index: {
    group: "Find a session",
    term: "index [options]",
    description: "index Claude Code's transcripts for fork-detect search (only what changed since the last run)",
  },
  stats: {
    group: "Find a session",
    term: "stats [options]",
    description:
      "show what the session index holds: sessions per project and month, size, last sync, duplicates, last reindex",
  },
  reindex: {
    group: "Find a session",
    term: "reindex [options]",
    description: "delete the session index and build it again (fixes a damaged index)",
  },
  search: {
    group: "Find a session",
    term: "search [options] <query...>",
    description: "find the past sessions closest to a task, with the command that forks each",
  },
  show: {
    group: "Find a session",
    term: "show [options] <session-id>",
    description: "read a session before forking it: its record, lineage, then prompts, replies, tools and files",
  },
  fork: {
    group: "Find a session",
    term: "fork [options] <session-id>",
    description: "fork a session, yours or a teammate's: print or run `claude --resume <id> --fork-session`",
  },
  forks: {
    group: "Find a session",
    term: "forks [options]",
    description: "list the forks made from your sessions, the search that offered each, and what became of it",
  },
  export: {
    group: "Find a session",
    term: "export [options] <id...>",
    description:
      "write sessions (transcripts, subagents, metadata, your tags and notes) to one redacted, checksummed bundle",
  },
  import: {
    group: "Find a session",
    term: "import [options] <file>",
    description:
      "place a bundle's sessions into Claude Code's folder for your checkout, and print their resume commands",
  },
  session: {
    group: "Find a session",
    term: "session",
    description: "star, tag and note sessions, and list them: star, unstar, tag, untag, note, list",
  },
  embed: {
    group: "Find a session",
    term: "embed [options]",
    description: "compute vectors for indexed chunks that have none (needs embedder.provider nomic or ollama)",
  },
  ui: {
    group: "Find a session",
    term: "ui [options]",
    description: "open a local page to search, read, star, tag and fork your sessions (loopback, one-time token)",
  },
  "context-stats": {
    group: "Context window",
    term: "context-stats [options]",
    description: "tokens per summary layer and the compression ratio of a session's assembled context",
  },
  statusline: {
    group: "Context window",
    term: "statusline",
    description: "Claude Code status line: reads its JSON on stdin, prints context used, tier, velocity, forecast",
  },
  report: {
    group: "Context window",
    term: "report [options]",
    description: "write an HTML page of the context window (compactions, guard tiers, snapshots) and recent sessions",
  },
  chunk: {
    group: "Text",
    term: "chunk [options]",
    description: "split text on stdin into chunks; prints them as a JSON array of strings",
  },
  summarize: {
    group: "Text",
    term: "summarize [options] [session]",
    description: "make a session's per-message summaries now (kept in .ctx/summaries/)",
  },
  summaries: {
    group: "Text",
    term: "summaries",
    description: "stored summaries and the LLM token ledger: ledger, clear",
  },
  bridge: {
    group: "Chat bridge",
    term: "bridge",
    description: "chat front ends for Claude Code (Synology Chat); see docs/bridge.md",
  },
  team: {
    group: "Team",
    term: "team",
    description:
      "share sessions with a team through a PostgreSQL server: init, migrate, add-member, join, status, share, push, forget",
  },
  serve: {
    group: "Internal",
    term: "serve [options]",
    description: "run the MCP server on stdin/stdout (Claude Code starts this)",
  },
  hook: {
    group: "Internal",
    term: "hook <event>",
    description: "handle a Claude Code hook event: reads the hook JSON on stdin, prints only the hook reply",
  },
} as const satisfies Record<string, CommandDescriptor>;
export type CommandName = keyof typeof COMMANDS;

export const isCommandName = (name: string): name is CommandName => Object.hasOwn(COMMANDS, name);

/** Examples shown under `ctx <command> --help`, keyed by the command's path. */
export const COMMAND_EXAMPLES: Readonly<Record<string, readonly string[]>> = {
  init: ["ctx init", "ctx init --dry-run", "ctx init --statusline --hooks command"],
  doctor: ["ctx doctor", "ctx doctor --json | jq '.checks[] | select(.status != \"ok\")'"],
  config: ["ctx config list", "ctx config set search.minSimilarity 0.3 --project", "ctx config path"],
  "config list": ["ctx config list", "ctx config list --project --json"],
  "config get": ["ctx config get search.minSimilarity", "ctx config get guard.enabled --global"],
  "config set": ["ctx config set retention.maxSnapshots 10", "ctx config set embedder.provider ollama --project"],
  "config unset": ["ctx config unset retention.maxSnapshots --project"],
  "config path": ["ctx config path", "ctx config path --global"],
  completion: [
    "ctx completion bash > ~/.local/share/bash-completion/completions/ctx",
    "ctx completion zsh > ~/.zfunc/_ctx   # with fpath+=(~/.zfunc) before compinit in ~/.zshrc",
    "ctx completion fish > ~/.config/fish/completions/ctx.fish",
  ],
  status: ["ctx status", "ctx status --json | jq .health"],
  save: ["ctx save", "ctx save --name before-refactor"],
  restore: ["ctx restore --print", "ctx restore --name before-refactor", "ctx restore --checkpoint"],
  diff: ["ctx diff", "ctx diff --name before-refactor"],
  clear: ["ctx clear --force"],
  checkpoint: ["ctx checkpoint"],
  snapshot: ["ctx snapshot list", "ctx snapshot pin <id>", "ctx snapshot prune --dry-run"],
  "snapshot list": ["ctx snapshot list --verbose"],
  "snapshot show": ["ctx snapshot show 20260101T120000000Z-a1b2c3"],
  "snapshot restore": ["ctx snapshot restore <id> --print", "ctx snapshot restore <id> --as-current"],
  "snapshot pin": ["ctx snapshot pin <id>"],
  "snapshot unpin": ["ctx snapshot unpin <id>"],
  "snapshot prune": ["ctx snapshot prune --dry-run"],
  "snapshot recompress": ["ctx snapshot recompress"],
  budget: ['ctx budget add safety_constraints "Never run migrations against production"', "ctx budget list"],
  "budget list": ["ctx budget list --compartment active_task"],
  "budget add": ["ctx budget add active_task Wire the retry helper into the client --priority 4 --pin"],
  "budget evict": ["ctx budget evict b7", "ctx budget evict --tokens 500"],
  "budget estimate": ['ctx budget estimate "some text" --compartment ambient_knowledge'],
  "budget assemble": ["ctx budget assemble --max-tokens 500"],
  rules: ["ctx rules list", "ctx rules check"],
  "rules list": ["ctx rules list --json"],
  "rules check": ["ctx rules check", "ctx rules check --session <id>"],
  audit: ["ctx audit", "ctx audit --session <id> --json | jq '.compactions[0].lostItems'"],
  search: [
    'ctx search "start the phoenix server in the background"',
    'ctx search "flaky login test" --project this --since 3w',
    'ctx search "docker networking last week -kubernetes"',
    "ctx search \"retry helper\" --json | jq -r '.results[0].forkCommand'",
  ],
  show: [
    "ctx show 4d5611e5",
    "ctx show <session-id> --at <message-uuid>",
    "ctx show <session-id> --json | jq -r '.exchanges[].prompt'",
  ],
  fork: [
    "ctx fork <session-id>",
    "ctx fork <session-id> --at <message-uuid> --print",
    "ctx fork <teammate's session-id> --checkout ~/src/app",
    "ctx fork <session-id> --json | jq -r .forkCommand",
  ],
  export: ["ctx export <session-id> --out auth-fix.ctxbundle", "ctx export <id> <id> --out ~/handoff.ctxbundle --json"],
  import: [
    "ctx import auth-fix.ctxbundle",
    "ctx import auth-fix.ctxbundle --checkout ~/src/app --json | jq -r '.sessions[].resumeCommand'",
  ],
  index: ["ctx index", "ctx index --claude-dir ~/other-machine/.claude --full"],
  forks: ["ctx forks", "ctx forks --project this --since 30d", "ctx forks --json | jq '.stats.successRate'"],
  stats: ["ctx stats", "ctx stats --top 20", "ctx stats --check", "ctx stats --json | jq '.forks'"],
  reindex: ["ctx reindex"],
  embed: ["ctx embed --setup", "ctx embed"],
  session: ["ctx session star 1af7fc5e", "ctx session tag 1af7fc5e auth payments", "ctx session list --starred"],
  "session star": ["ctx session star 1af7fc5e", "ctx session star 1af7fc5e --json"],
  "session unstar": ["ctx session unstar 1af7fc5e"],
  "session tag": ["ctx session tag 1af7fc5e auth payments-v2", 'ctx search "token refresh" --tag auth'],
  "session untag": ["ctx session untag 1af7fc5e payments-v2"],
  "session note": [
    'ctx session note 1af7fc5e "the retry fix that worked; see the last exchange"',
    "ctx session note 1af7fc5e --clear",
  ],
  "session list": [
    "ctx session list",
    "ctx session list --starred --tag auth",
    "ctx session list --json | jq -r '.sessions[].sessionId'",
  ],
  archive: ["ctx archive", "ctx archive run", "ctx archive list --json", "ctx archive restore <session>"],
  "archive status": ["ctx archive", "ctx archive --json"],
  "archive run": ["ctx archive run", "ctx archive run --json"],
  "archive list": ["ctx archive list", "ctx archive list --json | jq -r '.sessions[].sessionId'"],
  "archive restore": ["ctx archive restore <session>", "ctx archive restore <session> --force"],
  "archive prune": ["ctx archive prune", "ctx archive prune --max-mb 500"],
  "archive pin": ["ctx archive pin <session>"],
  "archive unpin": ["ctx archive unpin <session>"],
  statusline: ["ctx init --statusline   # sets Claude Code's statusLine to this command"],
  "context-stats": ["ctx context-stats", "ctx context-stats --preset bridge --json"],
  ui: ["ctx ui --open", "ctx ui --port 8790", "ctx ui --json | jq -r .url"],
  report: ["ctx report --open", "ctx report --session <id> --out report.html"],
  summarize: ["ctx summarize", "ctx summarize --provider claude-cli --print"],
  summaries: ["ctx summaries ledger", "ctx summaries clear"],
  chunk: ["ctx chunk < long-prompt.md | jq length", "ctx chunk --output < reply.md | jq -r '.[]'"],
  serve: ["claude mcp add ctx -- ctx serve   # ctx init writes this into .mcp.json for you"],
  bridge: ["ctx bridge synology", "ctx bridge status --json"],
  "bridge synology": [
    "ctx config set bridge.synology.token <token> --global && ctx bridge synology",
    "ctx bridge synology --port 9000",
  ],
  "bridge status": ["ctx bridge status", "ctx bridge status --json | jq .sessions"],
  team: ["ctx team join postgresql://alice@db.example.com/ctx?sslmode=verify-full --team web", "ctx team status"],
  "team init": ["ctx team init postgresql://admin@db.example.com/ctx?sslmode=verify-full"],
  "team migrate": ["ctx team migrate", "ctx team migrate postgresql://admin@db.example.com/ctx --json"],
  "team add-member": ["ctx team add-member alice --team web --url postgresql://admin@db.example.com/ctx"],
  "team join": ["ctx team join postgresql://alice@db.example.com/ctx?sslmode=verify-full --team web"],
  "team status": ["ctx team status", "ctx team status --json | jq .counts"],
  "team share": ["cd ~/src/app && ctx team share"],
  "team unshare": ["cd ~/src/app && ctx team unshare"],
  "team push": ["ctx team push", "ctx team push --json | jq .summary"],
  "team forget": [
    "ctx team forget 1af7fc5e-8455-4414-9ccd-011d40f70b2a",
    "cd ~/src/app && ctx team forget --mine --project",
  ],
  hook: ['echo \'{"session_id":"s","hook_event_name":"SessionStart","source":"startup"}\' | ctx hook session-start'],
};

/** Groups the top-level commands, puts the groups in order, and adds examples and colour to every help page. */
export function applyHelpLayout(program: Command, ctx: CliContext): void {
  const colors = colorsFor(ctx);
  // Commander lists groups in the order their first command appears; COMMANDS is in that order.
  for (const command of program.commands) {
    const name = command.name();
    if (isCommandName(name)) command.helpGroup(`${COMMANDS[name].group}:`);
  }
  program.addHelpCommand(false);

  const visit = (command: Command, path: string[]) => {
    // Commander formats the help plain; its colour is painted on after the text is sanitized (./output.ts).
    command.configureOutput({
      writeOut: (text) => ctx.out(text, (safe) => highlightHelp(safe, colors)),
      getOutHasColors: () => colors.isColorSupported,
      getErrHasColors: () => false,
      // The terminal's width on a terminal; 80 columns otherwise, so piped help (and its snapshots) never varies.
      getOutHelpWidth: () => (ctx.stdoutIsTTY ? (process.stdout.columns ?? 80) : 80),
    });
    const examples = COMMAND_EXAMPLES[path.join(" ")];
    if (examples !== undefined && examples.length > 0) {
      command.addHelpText("after", () => `\nExamples:\n${examples.map((e) => `  ${e}`).join("\n")}\n`);
    }
    for (const sub of command.commands) visit(sub, [...path, sub.name()]);
  };
  visit(program, []);
}
