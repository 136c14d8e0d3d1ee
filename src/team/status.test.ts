// The team status assembled without a server: before joining nothing is asked, and an unreachable server is said
// as such without its password (the reachable case, on a real PostgreSQL: cli/commands/team.test.ts).
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { defaultConfig } from "../config/defaults.ts";
import { TEAM_SCHEMA_VERSION } from "../core/team/migrations.ts";
import { readTeamStatus, TeamStatusSchema } from "./status.ts";

const NOTHING_SHARED = {
  projects: [],
  outbox: { sessions: 0, items: 0, oldestAt: null },
  lastPushAt: null,
  lastError: null,
  setAside: [],
};

describe("ctx team status, assembled", () => {
  const base = mkdtempSync(join(tmpdir(), "ctx-team-status-"));
  const env = { HOME: base, CTX_HOME: join(base, "ctx-home") };

  it("asks no server before this machine joins, and reads what it shares all the same", async () => {
    const status = await readTeamStatus({ ...defaultConfig().team, name: "web" }, env);
    expect(TeamStatusSchema.parse(status)).toEqual({
      joined: false,
      server: null,
      team: "web",
      reachable: null,
      error: null,
      role: null,
      handle: null,
      schemaVersion: null,
      expectedSchemaVersion: TEAM_SCHEMA_VERSION,
      counts: null,
      writableSchemas: [],
      sharing: NOTHING_SHARED,
    });
  });

  it("says why a joined team's server cannot be reached, without its password", async () => {
    const settings = { ...defaultConfig().team, url: "postgresql://alice:S3cret-pw@127.0.0.1:1/lib", name: "web" };
    const status = await readTeamStatus({ ...settings, connectTimeoutMs: 1_000 }, env);
    expect(status).toMatchObject({
      joined: true,
      reachable: false,
      server: "postgresql://alice:***@127.0.0.1:1/lib",
      team: "web",
      sharing: NOTHING_SHARED,
    });
    expect(status.error).toContain("cannot connect to the team server");
    expect(JSON.stringify(status)).not.toContain("S3cret-pw");
  });
});
