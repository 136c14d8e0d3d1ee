// Row-level security on a real PostgreSQL, with real roles: the administrator is a plain role that owns the
// database (as on a managed server), alice and bob are in team "web", carol in team "data". A member reads its
// teams' rows and nothing of another team's; it writes only its own rows, whatever it tries.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPgCluster } from "../../tests/helpers/pg-cluster.ts";
import { connectTeam, type TeamClient } from "./connect.ts";
import { countTeamRows } from "./inspect.ts";
import { addTeamMember } from "./members.ts";
import { migrateTeamSchema } from "./migrate.ts";

const started = await startPgCluster();
const cluster = "cluster" in started ? started.cluster : null;
const options = { connectTimeoutMs: 5_000 };
const clients: TeamClient[] = [];
afterAll(async () => {
  for (const client of clients) await client.end().catch(() => {});
  await cluster?.stop();
});

const SECRET_WORD = "quokkalantern";

describe.skipIf(cluster === null)(
  `team row-level security${"skipReason" in started ? ` (${started.skipReason})` : ""}`,
  () => {
    const pg = cluster as NonNullable<typeof cluster>;
    const as = async (role: string) => {
      const client = await connectTeam(pg.url(role, `${role}-pw`, "library"), options);
      clients.push(client);
      return client;
    };
    let admin: TeamClient;
    let alice: TeamClient;
    let bob: TeamClient;
    let carol: TeamClient;
    let web: string;
    let data: string;

    beforeAll(async () => {
      for (const role of ["owner", "alice", "bob", "carol"]) await pg.createRole(role, `${role}-pw`);
      await pg.sql('CREATE DATABASE library OWNER "owner"');
      admin = await as("owner");
      await migrateTeamSchema(admin);
      await addTeamMember(admin, { role: "alice", team: "web" });
      await addTeamMember(admin, { role: "bob", team: "web", handle: "bobby" });
      await addTeamMember(admin, { role: "carol", team: "data" });
      const teams = await admin.query<{ id: string; name: string }>("SELECT id, name FROM ctx_team.teams");
      web = teams.rows.find((t) => t.name === "web")?.id as string;
      data = teams.rows.find((t) => t.name === "data")?.id as string;
      [alice, bob, carol] = [await as("alice"), await as("bob"), await as("carol")];

      const pushSession = async (client: TeamClient, team: string, id: string, remote: string) => {
        await client.query(
          "INSERT INTO ctx_team.projects (team_id, remote_url) VALUES ($1, $2) ON CONFLICT DO NOTHING",
          [team, remote],
        );
        const project = await client.query<{ id: string }>(
          "SELECT id FROM ctx_team.projects WHERE team_id = $1 AND remote_url = $2 AND added_by = current_user",
          [team, remote],
        );
        await client.query(
          "INSERT INTO ctx_team.sessions (team_id, id, project_id, title, message_count) VALUES ($1, $2, $3, $4, 2)",
          [team, id, project.rows[0]?.id, `session ${id}`],
        );
        await client.query(
          `INSERT INTO ctx_team.chunks (team_id, session_id, chunk_index, start_offset, first_message, last_message, text)
         VALUES ($1, $2, 0, 0, 0, 1, $3)`,
          [team, id, `we fixed the ${SECRET_WORD} cache for ${id}`],
        );
        await client.query(
          "INSERT INTO ctx_team.transcripts (team_id, session_id, codec, raw_bytes, sha256, data) VALUES ($1, $2, 'gzip', 3, 'x', $3)",
          [team, id, Buffer.from([1, 2, 3])],
        );
      };
      await pushSession(alice, web, "alice-1", "github.com/acme/web");
      await pushSession(bob, web, "bob-1", "github.com/acme/web");
      await pushSession(carol, data, "carol-1", "github.com/acme/data");
    });

    const count = async (client: TeamClient, table: string) =>
      Number((await client.query<{ n: string }>(`SELECT count(*) AS n FROM ctx_team.${table}`)).rows[0]?.n);

    it("shows a member of team data nothing of team web: sessions, chunks, transcripts, projects, members, teams", async () => {
      expect((await carol.query("SELECT id FROM ctx_team.sessions")).rows).toEqual([{ id: "carol-1" }]);
      expect((await carol.query("SELECT session_id FROM ctx_team.chunks")).rows).toEqual([{ session_id: "carol-1" }]);
      expect((await carol.query("SELECT session_id FROM ctx_team.transcripts")).rows).toEqual([
        { session_id: "carol-1" },
      ]);
      expect((await carol.query("SELECT remote_url FROM ctx_team.projects")).rows).toEqual([
        { remote_url: "github.com/acme/data" },
      ]);
      expect((await carol.query("SELECT role_name FROM ctx_team.members")).rows).toEqual([{ role_name: "carol" }]);
      expect((await carol.query("SELECT name FROM ctx_team.teams")).rows).toEqual([{ name: "data" }]);
      const found = await carol.query(
        "SELECT session_id FROM ctx_team.chunks WHERE search @@ plainto_tsquery('english', $1) ORDER BY session_id",
        [SECRET_WORD],
      );
      expect(found.rows).toEqual([{ session_id: "carol-1" }]);
      // Asking the membership function about another role tells nothing.
      expect((await carol.query("SELECT * FROM ctx_team.member_teams('alice')")).rows).toEqual([]);
    });

    it("lets teammates read each other's sessions and find them by full-text search", async () => {
      const found = await bob.query(
        "SELECT session_id FROM ctx_team.chunks WHERE search @@ plainto_tsquery('english', $1) ORDER BY session_id",
        [SECRET_WORD],
      );
      expect(found.rows).toEqual([{ session_id: "alice-1" }, { session_id: "bob-1" }]);
      expect((await bob.query("SELECT role_name, handle FROM ctx_team.members ORDER BY role_name")).rows).toEqual([
        { role_name: "alice", handle: "alice" },
        { role_name: "bob", handle: "bobby" },
      ]);
    });

    it("never lets a member change or delete a teammate's rows", async () => {
      expect((await bob.query("UPDATE ctx_team.sessions SET title = 'mine now' WHERE id = 'alice-1'")).rowCount).toBe(
        0,
      );
      expect((await bob.query("UPDATE ctx_team.chunks SET text = 'gone' WHERE session_id = 'alice-1'")).rowCount).toBe(
        0,
      );
      expect((await bob.query("DELETE FROM ctx_team.chunks WHERE session_id = 'alice-1'")).rowCount).toBe(0);
      expect((await bob.query("DELETE FROM ctx_team.transcripts WHERE session_id = 'alice-1'")).rowCount).toBe(0);
      expect((await bob.query("DELETE FROM ctx_team.sessions WHERE id = 'alice-1'")).rowCount).toBe(0);
      expect((await bob.query("DELETE FROM ctx_team.projects WHERE added_by = 'alice'")).rowCount).toBe(0);
      const kept = await admin.query(
        `SELECT s.title, c.text FROM ctx_team.sessions s JOIN ctx_team.chunks c ON c.session_id = s.id WHERE s.id = 'alice-1'`,
      );
      expect(kept.rows).toEqual([{ title: "session alice-1", text: `we fixed the ${SECRET_WORD} cache for alice-1` }]);
    });

    it("refuses rows written in a teammate's name, into a teammate's session, or into another team", async () => {
      const project = (await bob.query<{ id: string }>("SELECT id FROM ctx_team.projects WHERE team_id = $1", [web]))
        .rows[0]?.id;
      await expect(
        bob.query(
          "INSERT INTO ctx_team.sessions (team_id, id, project_id, author) VALUES ($1, 'forged', $2, 'alice')",
          [web, project],
        ),
      ).rejects.toThrow(/row-level security/);
      await expect(
        bob.query(
          `INSERT INTO ctx_team.chunks (team_id, session_id, chunk_index, start_offset, first_message, last_message, text)
         VALUES ($1, 'alice-1', 7, 0, 0, 1, 'planted')`,
          [web],
        ),
      ).rejects.toThrow(/row-level security/);
      await expect(bob.query("UPDATE ctx_team.sessions SET author = 'alice' WHERE id = 'bob-1'")).rejects.toThrow(
        /row-level security/,
      );
      await expect(
        carol.query("INSERT INTO ctx_team.sessions (team_id, id, project_id) VALUES ($1, 'intruder', $2)", [
          web,
          project,
        ]),
      ).rejects.toThrow(/row-level security/);
      // A session of team data pointing at team web's project: the foreign key keeps a project in its own team.
      await expect(
        carol.query("INSERT INTO ctx_team.sessions (team_id, id, project_id) VALUES ($1, 'crossed', $2)", [
          data,
          project,
        ]),
      ).rejects.toThrow(/foreign key/);
      await expect(
        carol.query("INSERT INTO ctx_team.members (team_id, role_name, handle) VALUES ($1, 'carol', 'c')", [web]),
      ).rejects.toThrow(/permission denied/);
    });

    it("keeps a member's sessions on a project row of their own: a teammate's row cannot be used or changed", async () => {
      const rows = await bob.query<{ id: string; added_by: string }>(
        "SELECT id, added_by FROM ctx_team.projects WHERE team_id = $1 ORDER BY added_by",
        [web],
      );
      expect(rows.rows.map((r) => r.added_by)).toEqual(["alice", "bob"]);
      // Two rows, one project: `ctx team status` counts the project once.
      expect((await countTeamRows(bob, "web"))?.projects).toBe(1);
      const alices = rows.rows[0]?.id;
      await expect(
        bob.query("INSERT INTO ctx_team.sessions (team_id, id, project_id) VALUES ($1, 'on-alices-row', $2)", [
          web,
          alices,
        ]),
      ).rejects.toThrow(/sessions_project_of_author/);
      await expect(
        bob.query("UPDATE ctx_team.sessions SET project_id = $1 WHERE id = 'bob-1'", [alices]),
      ).rejects.toThrow(/sessions_project_of_author/);
      expect(
        (await bob.query("UPDATE ctx_team.projects SET repo_path = '../x' WHERE added_by = 'alice'")).rowCount,
      ).toBe(0);
    });

    it("lets a member change and delete its own rows, the chunks and transcript going with the session", async () => {
      expect((await bob.query("UPDATE ctx_team.sessions SET title = 'renamed' WHERE id = 'bob-1'")).rowCount).toBe(1);
      expect((await bob.query("DELETE FROM ctx_team.sessions WHERE id = 'bob-1'")).rowCount).toBe(1);
      expect(await count(admin, "chunks")).toBe(2);
      expect(await count(admin, "transcripts")).toBe(2);
      expect((await admin.query("SELECT id FROM ctx_team.sessions ORDER BY id")).rows).toEqual([
        { id: "alice-1" },
        { id: "carol-1" },
      ]);
    });
  },
);
