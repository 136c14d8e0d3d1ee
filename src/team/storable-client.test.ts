import pg from "pg";
import { describe, expect, it } from "vitest";
import type { TeamClient } from "./connect.ts";
import { storableClient } from "./storable-client.ts";

/** A client that is never connected: its `query` records what it was given. */
function recordingClient(): { client: TeamClient; calls: unknown[][] } {
  const client = new pg.Client();
  const calls: unknown[][] = [];
  client.query = ((...args: unknown[]) => {
    calls.push(args);
    return Promise.resolve({ rows: [] });
  }) as unknown as TeamClient["query"];
  return { client, calls };
}

describe("the push's connection", () => {
  it("sends every string parameter, and every string in an array parameter, storable; bytes as they are", async () => {
    const { client, calls } = recordingClient();
    const bytes = Buffer.from([0, 0xff]);
    await storableClient(client).query("INSERT $1 $2 $3 $4", ["t\u0000", ["a\ud800", null], bytes, 3]);
    expect(calls[0]?.[0]).toBe("INSERT $1 $2 $3 $4");
    const sent = calls[0]?.[1] as unknown[];
    expect(sent).toEqual(["t\ufffd", ["a\ufffd", null], bytes, 3]);
    expect(sent[2]).toBe(bytes);
  });

  it("cleans the values of a statement given as an object, and passes a statement without values", async () => {
    const { client, calls } = recordingClient();
    await storableClient(client).query({ text: "SELECT $1", values: ["x\u0000"] });
    await storableClient(client).query("BEGIN");
    expect(calls[0]?.[0]).toEqual({ text: "SELECT $1", values: ["x\ufffd"] });
    expect(calls[1]?.[0]).toBe("BEGIN");
  });

  it("leaves everything else of the client as it is, bound to it", () => {
    const { client } = recordingClient();
    const wrapped = storableClient(client);
    expect(wrapped.escapeIdentifier('a"b')).toBe(client.escapeIdentifier('a"b'));
    expect(wrapped.database).toBe(client.database);
  });
});
