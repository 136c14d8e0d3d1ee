// `<CTX_HOME>/summaries-ledger.json`: the LLM providers' daily token ledger. Plain JSON so a person can read it
// (`ctx summaries ledger` prints it), written atomically (0600) under the file's lock, so concurrent
// summarisers add up instead of overwriting each other. A damaged ledger is moved aside and started afresh.
import { readFile, rename } from "node:fs/promises";
import { dirname, join } from "node:path";
import { ctxHome } from "../../config/paths.ts";
import {
  type CapCheck,
  checkDailyCap,
  type Ledger,
  type LedgerEntry,
  LedgerSchema,
  recordLedgerUsage,
} from "../../core/summaries/ledger.ts";
import { ensurePrivateDir, writeFileAtomic } from "../files/atomic-write.ts";
import { withLock } from "../files/lock.ts";

export function ledgerPath(env: NodeJS.ProcessEnv): string {
  return join(ctxHome(env), "summaries-ledger.json");
}

export interface LedgerRead {
  ledger: Ledger | null;
  /** Where a damaged ledger was moved; null when it was sound or absent. */
  movedAside: string | null;
}

/** The ledger, or null when there is none. A damaged file is reported, not thrown (see readLedgerOrQuarantine). */
export async function readLedger(path: string): Promise<Ledger | null> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
  try {
    const parsed = LedgerSchema.safeParse(JSON.parse(text));
    if (parsed.success) return parsed.data;
  } catch {
    // not JSON: damaged
  }
  throw new LedgerDamaged(path);
}

class LedgerDamaged extends Error {}

async function readOrQuarantine(path: string, now: Date): Promise<LedgerRead> {
  try {
    return { ledger: await readLedger(path), movedAside: null };
  } catch (error) {
    if (!(error instanceof LedgerDamaged)) throw error;
    const aside = `${path}.corrupt-${now.toISOString().replace(/[:.]/g, "-")}`;
    await rename(path, aside);
    return { ledger: null, movedAside: aside };
  }
}

/** Reads the ledger under its lock (a damaged one is moved aside). */
export async function loadLedger(path: string, now: Date): Promise<LedgerRead> {
  await ensurePrivateDir(dirname(path));
  return withLock(path, () => readOrQuarantine(path, now));
}

/** Adds one entry to the ledger under its lock. */
export async function addToLedger(path: string, entry: LedgerEntry, now: Date): Promise<Ledger> {
  await ensurePrivateDir(dirname(path));
  return withLock(path, async () => {
    const { ledger } = await readOrQuarantine(path, now);
    const next = recordLedgerUsage(ledger, entry);
    await writeFileAtomic(path, `${JSON.stringify(next, null, 2)}\n`);
    return next;
  });
}

export interface Reservation {
  day: string;
  provider: string;
  model: string;
  inputTokens: number;
  outputTokens: number;
  cap: number;
}

/**
 * Checks today's cap and, when the request fits, books its estimate in the same locked step, so two
 * summarisers running at once cannot both pass a check for the last tokens of the day. A refused request is
 * counted under `refused`.
 */
export async function reserveTokens(path: string, reservation: Reservation, now: Date): Promise<CapCheck> {
  await ensurePrivateDir(dirname(path));
  return withLock(path, async () => {
    const { ledger } = await readOrQuarantine(path, now);
    const wanted = reservation.inputTokens + reservation.outputTokens;
    const check = checkDailyCap(ledger, reservation.day, reservation.cap, wanted);
    const entry: LedgerEntry = check.allowed
      ? { ...reservation, requests: 1 }
      : { day: reservation.day, provider: reservation.provider, model: reservation.model, refused: 1 };
    await writeFileAtomic(path, `${JSON.stringify(recordLedgerUsage(ledger, entry), null, 2)}\n`);
    return check;
  });
}
