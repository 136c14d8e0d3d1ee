// Team rows as the team side hands them to fork detection (core/search/team-candidates.ts), for tests whose port
// answers without a server.
import type { TeamChunkRow, TeamSessionRow } from "../../src/core/search/team-candidates.ts";

/** A teammate's session of `github.com/acme/app`, of one chunk, between `startedAt` and `endedAt`. */
export function teamSessionRow(id: string, startedAt: number, endedAt: number): TeamSessionRow {
  return {
    id,
    author: "ana",
    project: "github.com/acme/app",
    title: id,
    branch: null,
    startedAt,
    endedAt,
    messageCount: 2,
    memoryMarkers: [],
    forkable: true,
    totalChunks: 1,
    chainQuality: null,
    labels: [],
    note: null,
  };
}

/** The first chunk of `sessionId`'s main transcript. */
export function teamChunkRow(sessionId: string, text: string): TeamChunkRow {
  return { sessionId, source: "main", chunkIndex: 0, text, memoryType: null, lastUuid: null };
}
