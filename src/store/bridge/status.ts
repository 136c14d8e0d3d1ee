// `ctx bridge status`: the conversations the bridge keeps and the messages its journal still owes, read without
// the bridge's lock (a running bridge may be writing; every file is replaced atomically, so reads are whole).
import { replayJournal } from "../../core/bridge/journal.ts";
import { type BridgeStatusReport, sessionRowOf } from "../../core/bridge/status.ts";
import { journalPath, readJournal } from "./journal-store.ts";
import { bridgeDir, listBridgeSessions, sessionsDir } from "./session-store.ts";

export async function collectBridgeStatus(env: NodeJS.ProcessEnv): Promise<BridgeStatusReport> {
  const dir = sessionsDir(env);
  const listed = await listBridgeSessions(dir);
  const journal = await readJournal(journalPath(bridgeDir(env)));
  return {
    sessionsDir: dir,
    sessions: listed.sessions.map(({ session, bytes }) => sessionRowOf(session, bytes)),
    pendingMessages: replayJournal(journal.records).length,
    unreadable: listed.unreadable,
  };
}
