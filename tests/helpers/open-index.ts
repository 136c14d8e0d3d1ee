// A session index opened for one piece of a test's work, and closed after it whatever happens.
import { openSessionIndex, type SessionIndex } from "../../src/search/session-index/session-index.ts";

export function withIndex<T>(dbPath: string, work: (index: SessionIndex) => T): T {
  const index = openSessionIndex(dbPath);
  try {
    return work(index);
  } finally {
    index.close();
  }
}
