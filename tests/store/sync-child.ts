// Child process for the session index's cross-process test: `node tests/store/sync-child.ts <claudeDir> <dbPath>`
// runs one syncIndex and prints its summary as JSON.
import { syncIndex } from "../../src/search/sync/sync-index.ts";

const [claudeDir, dbPath] = process.argv.slice(2);
if (claudeDir === undefined || dbPath === undefined) throw new Error("usage: sync-child.ts <claudeDir> <dbPath>");
const summary = await syncIndex({ claudeDir, dbPath });
process.stdout.write(`${JSON.stringify(summary)}\n`);
