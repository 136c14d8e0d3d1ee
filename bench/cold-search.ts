// A cold search process for the index benchmark when the build has no `ctx search` yet: opens the index,
// runs one searchSessions and prints the session ids. Runs from source (Node type stripping), unbundled.
import { defaultConfig } from "../src/config/defaults.ts";
import { searchSessions } from "../src/search/search-sessions.ts";
import { openSessionIndex } from "../src/search/session-index/session-index.ts";

const [dbPath, query] = process.argv.slice(2);
if (dbPath === undefined || query === undefined) throw new Error("usage: cold-search.ts <index.db> <query>");
const index = openSessionIndex(dbPath, { readonly: true });
const results = await searchSessions(index, query, { limit: 5, search: defaultConfig().search });
index.close();
process.stdout.write(`${JSON.stringify(results.map((r) => r.session.id))}\n`);
