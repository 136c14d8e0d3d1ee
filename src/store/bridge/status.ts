// `ctx bridge status`: the conversations the bridge keeps, the messages its journal still owes and the reply parts
// waiting for the chat, read without the bridge's lock (a running bridge may be writing; every file is replaced
// atomically, so reads are whole).
import { replayJournal } from "../../core/bridge/journal.ts";
import { pendingDelivery } from "../../core/bridge/outbox.ts";
import { type BridgeStatusReport, sessionRowOf } from "../../core/bridge/status.ts";
import { journalPath, readJournal } from "./journal-store.ts";
import { bridgeDir, listBridgeSessions, sessionsDir } from "./session-store.ts";

export async function collectBridgeStatus(env: NodeJS.ProcessEnv, now = new Date()): Promise<BridgeStatusReport> {
  const dir = sessionsDir(env);
  const listed = await listBridgeSessions(dir);
  const journal = await readJournal(journalPath(bridgeDir(env)));
  const open = replayJournal(journal.records, now.toISOString());
  const pending = pendingDelivery(open);
  return {
    sessionsDir: dir,
    sessions: listed.sessions.map(({ session, bytes }) => sessionRowOf(session, bytes)),
    pendingMessages: open.length,
    pendingParts: pending.parts,
    oldestPendingAt: pending.oldestDueAt,
    oldestPendingSeconds:
      pending.oldestDueAt === null
        ? null
        : Math.max(0, Math.round((now.getTime() - Date.parse(pending.oldestDueAt)) / 1000)),
    unreadable: listed.unreadable,
  };
}
