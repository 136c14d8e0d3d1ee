// The layer rules of ARCHITECTURE.md, checked by `pnpm deps` (part of `pnpm check`): no import cycles, a pure
// core, and imports that only run down the layers:
//   bin -> cli | mcp | hooks -> summaries | setup | bridge | team | ui -> transplant | http -> search -> store -> config -> core
// (errors.ts, log.ts, terminal-text.ts and version.ts at the top of src/ are the base every layer may use; core may use
// errors.ts; the shells sanitize at their output, so core needs no terminal-text.ts).
// TypeScript 7 ships no compiler API yet, so dependency-cruiser parses with swc (both dev dependencies).

const SHELLS = "^src/(bin|cli|mcp|hooks)/";
const SERVICES = "^src/(search|summaries|setup|bridge|team|transplant|http|ui)/";
const TEST_FILES = "\\.test\\.ts$";

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment:
        "An import cycle (type-only imports count too): move what both sides need down to where both can import it.",
      from: {},
      to: { circular: true },
    },
    {
      name: "core-no-io",
      severity: "error",
      comment:
        'src/core is pure: the file system, processes, network and environment reach it through deps (ARCHITECTURE.md "Conventions").',
      from: { path: "^src/core/", pathNot: TEST_FILES },
      to: {
        dependencyTypes: ["core"],
        path: "^(node:)?(fs|fs/promises|child_process|net|http|https|http2|dgram|tls|process|worker_threads|cluster)$",
      },
    },
    {
      name: "core-imports-core",
      severity: "error",
      comment: "src/core imports only src/core and src/errors.ts (no store, config, search, shells, logger).",
      from: { path: "^src/core/", pathNot: TEST_FILES },
      to: { path: "^src/", pathNot: "^src/(core/|errors\\.ts$)" },
    },
    {
      name: "config-below-store",
      severity: "error",
      comment: "src/config sits right above core: it imports only config, core and the base modules.",
      from: { path: "^src/config/", pathNot: TEST_FILES },
      to: { path: "^src/", pathNot: "^src/(config/|core/|errors\\.ts$|log\\.ts$|terminal-text\\.ts$|version\\.ts$)" },
    },
    {
      name: "store-below-services",
      severity: "error",
      comment:
        "src/store (ctx's own files) does not import the services (search, summaries, setup, bridge, team, http, ui) or the shells.",
      from: { path: "^src/store/", pathNot: TEST_FILES },
      to: { path: `${SERVICES}|${SHELLS}` },
    },
    {
      name: "services-below-shells",
      severity: "error",
      comment:
        "search, summaries, setup, bridge, team, http and ui do not import the CLI, the MCP server, the hooks or the entry point.",
      from: { path: SERVICES, pathNot: TEST_FILES },
      to: { path: SHELLS },
    },
    {
      name: "search-below-other-services",
      severity: "error",
      comment:
        "src/search (the session index, fork detection) is the services' floor: team, setup and the rest build on it, never the reverse. Fork detection reaches the team through its port (ForkDetectOptions.teamCandidates, built by the shells).",
      from: { path: "^src/search/", pathNot: TEST_FILES },
      to: { path: SERVICES, pathNot: "^src/search/" },
    },
    {
      name: "shared-capabilities-below-their-users",
      severity: "error",
      comment:
        "src/transplant (a session placed on this machine) and src/http (ctx's HTTP listener) serve the team, the bridge and the coming library and page: they import none of those services.",
      from: { path: "^src/(transplant|http)/", pathNot: TEST_FILES },
      to: { path: "^src/(summaries|setup|bridge|team|ui)/" },
    },
    {
      name: "ui-apart",
      severity: "error",
      comment:
        "src/ui (the `ctx ui` page) is a service of its own on top of search, http and the store: no other service imports it, and it reaches the team only through the port the shell gives it.",
      from: { path: SERVICES, pathNot: `^src/ui/|${TEST_FILES}` },
      to: { path: "^src/ui/" },
    },
    {
      name: "ui-below-team",
      severity: "error",
      comment:
        "The page searches the team through fork detection's port (built by the CLI), never src/team itself; the Index page reads only the team's local status (team/status.ts readLocalTeamStatus: the outbox and last push, no connection, no PostgreSQL client).",
      from: { path: "^src/ui/", pathNot: TEST_FILES },
      to: { path: "^src/(team|bridge|summaries|setup)/", pathNot: "^src/team/(status|writable-schemas)\\.ts$" },
    },
    {
      name: "session-index-database-inside",
      severity: "error",
      comment:
        "Only src/search/session-index/ runs SQL against the session index: everything else reads and writes it through the folder's typed functions and methods, so a change of the index's tables stays there. node:sqlite, its loader (node-sqlite.ts) and the handle behind an open index (database.ts) are the folder's own; a test may read tables through database.ts.",
      from: { path: "^src/", pathNot: `^src/search/session-index/|${TEST_FILES}` },
      to: { path: "^(node:)?sqlite$|^src/search/session-index/(database|node-sqlite)\\.ts$" },
    },
    {
      name: "shells-apart",
      severity: "error",
      comment:
        "The MCP server and the hooks do not import the CLI or each other; the CLI may start either (`ctx serve`, `ctx hook`).",
      from: { path: "^src/(mcp|hooks)/", pathNot: TEST_FILES },
      to: { path: "^src/(cli|bin|mcp|hooks)/", pathNot: "^src/$1/" },
    },
    {
      name: "hooks-without-mcp-sdk",
      severity: "error",
      comment: "Hook processes must start fast: the hook path never loads the MCP SDK (docs/performance.md).",
      from: { path: "^src/hooks/", pathNot: TEST_FILES },
      to: { path: "@modelcontextprotocol" },
    },
    {
      name: "only-bin-is-the-entry",
      severity: "error",
      comment: "Nothing outside src/bin imports it: it is the only folder that touches process.argv and process.exit.",
      from: { pathNot: "^src/bin/" },
      to: { path: "^src/bin/" },
    },
  ],
  options: {
    parser: "swc",
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(dist|node_modules)/" },
    enhancedResolveOptions: { extensions: [".ts", ".js", ".d.ts"] },
  },
};
