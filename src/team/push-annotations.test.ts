// The session library on the team server (issue 34, against a real PostgreSQL): the tags and note of a member's own
// session in a shared project go up with the push (queued by the library change itself, the note redacted), removing
// them empties them on the server, and tags a member gives a teammate's session stay on that member's machine.
import { mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FIXTURE } from "../../tests/helpers/claude-projects.ts";
import { runCliCaptured } from "../../tests/helpers/cli-run.ts";
import { startPgCluster } from "../../tests/helpers/pg-cluster.ts";
import { copySessionsInto, createGitCheckout, SPOTTER_CWD } from "../../tests/helpers/team-checkout.ts";
import { openSessionIndex } from "../search/session-index/session-index.ts";
import { outboxDepth } from "../search/session-index/team-outbox.ts";
import { updateLibrary } from "../search/session-library.ts";
import { syncIndex } from "../search/sync/sync-index.ts";
import { readSharedProjects, sharedRootsForIngest } from "../store/team/team-state.ts";
import { withTeamClient } from "./connect.ts";
import { pushPending } from "./push.ts";
import { fetchTeamCandidates } from "./search.ts";
import { addMember, migrateTeam } from "./service.ts";

const started = await startPgCluster();
const cluster = "cluster" in started ? started.cluster : null;
afterAll(async () => cluster?.stop());

describe.skipIf(cluster === null)(
  `team push of annotations${"skipReason" in started ? ` (${started.skipReason})` : ""}`,
  () => {
    const pg = cluster as NonNullable<typeof cluster>;
    let repo: string;
    let env: NodeJS.ProcessEnv;
    let dbPath: string;
    let ids: string[] = [];
    const sql = async (text: string) => (await pg.sql(text, "annotations")).rows;
    const push = async (user: "alice" | "bob") =>
      pushPending({
        url: pg.url(user, `${user}-pw`, "annotations"),
        team: "web",
        connectTimeoutMs: 2_000,
        env,
        dbPath,
        shared: await readSharedProjects(env),
        maxTranscriptMegabytes: 20,
      });
    const serverRow = async (id: string) =>
      (await sql(`SELECT labels, note, author FROM ctx_team.sessions WHERE id = '${id}'`))[0];
    const queued = () => {
      const index = openSessionIndex(dbPath);
      try {
        return outboxDepth(index).items;
      } finally {
        index.close();
      }
    };
    const library = () => ({ env, now: () => new Date() });

    beforeAll(async () => {
      await pg.createDatabase("annotations");
      await pg.createRole("alice", "alice-pw");
      await pg.createRole("bob", "bob-pw");
      await migrateTeam(pg.adminUrl("annotations"), { connectTimeoutMs: 5_000 });
      for (const role of ["alice", "bob"]) {
        await addMember(pg.adminUrl("annotations"), { connectTimeoutMs: 5_000 }, { role, team: "web" });
      }
      const base = realpathSync(mkdtempSync(join(tmpdir(), "ctx-team-annotations-")));
      repo = createGitCheckout(base, "spotter", "https://github.com/acme/spotter.git");
      const claudeDir = join(base, "claude");
      ids = copySessionsInto(join(claudeDir, "projects", "-spotter"), [FIXTURE.short, FIXTURE.toolHeavy], {
        from: SPOTTER_CWD,
        to: repo,
      });
      env = {
        CTX_HOME: join(base, "ctx-home"),
        HOME: base,
        CTX_TEAM__URL: pg.url("alice", "alice-pw", "annotations"),
        CTX_TEAM__NAME: "web",
      };
      dbPath = join(base, "ctx-home", "index.db");
      await syncIndex({ claudeDir, dbPath, libraryEnv: env });
      const shared = await runCliCaptured(["team", "share"], { cwd: repo, env });
      expect(shared.code, shared.stderr).toBe(0);
      await syncIndex({ claudeDir, dbPath, libraryEnv: env, teamShare: { roots: await sharedRootsForIngest(env) } });
      expect((await push("alice")).sessions).toBe(2);
    });

    it("a member's tags and redacted note go up with the next push, and their removal too", async () => {
      const [mine] = ids as [string];
      expect(await serverRow(mine)).toMatchObject({ labels: [], note: null, author: "alice" });
      await updateLibrary(library(), mine, { op: "tag", tags: ["Deploy", "ops"] });
      await updateLibrary(library(), mine, { op: "note", note: "works with --detached; key AKIAIOSFODNN7EXAMPLE" });
      expect(queued()).toBe(1);
      expect(await push("alice")).toMatchObject({ sessions: 1, chunks: 0 });
      const row = await serverRow(mine);
      expect(row?.labels).toEqual(["deploy", "ops"]);
      expect(row?.note).toMatch(/^works with --detached; key /);
      expect(row?.note).not.toContain("AKIAIOSFODNN7EXAMPLE");
      // The push of a row alone leaves the session's chunks and transcript as they were.
      expect(
        Number((await sql(`SELECT count(*) AS n FROM ctx_team.chunks WHERE session_id = '${mine}'`))[0]?.n),
      ).toBeGreaterThan(0);
      expect((await sql(`SELECT forkable FROM ctx_team.sessions WHERE id = '${mine}'`))[0]?.forkable).toBe(true);
      // A teammate's search sees them as the author's.
      const found = await withTeamClient(
        pg.url("bob", "bob-pw", "annotations"),
        { connectTimeoutMs: 2_000 },
        (client) => fetchTeamCandidates(client, "web", { query: "phoenix server", limit: 50 }),
      );
      expect(found.sessions.get(mine)).toMatchObject({ author: "alice", labels: ["deploy", "ops"] });
      expect(found.sessions.get(mine)?.note).toMatch(/^works with --detached/);

      await updateLibrary(library(), mine, { op: "untag", tags: ["deploy", "ops"] });
      await updateLibrary(library(), mine, { op: "note", note: null });
      await push("alice");
      expect(await serverRow(mine)).toMatchObject({ labels: [], note: null });
    });

    it("tags given to a teammate's session stay on this machine", async () => {
      const [, hers] = ids as [string, string];
      // Bob's machine holds alice's session (as `ctx fork` places it) in a checkout he shares, and tags it.
      await updateLibrary(library(), hers, { op: "tag", tags: ["bobs-view"] });
      await updateLibrary(library(), hers, { op: "note", note: "bob thinks this is the one" });
      const summary = await push("bob");
      expect(summary).toMatchObject({ sessions: 0, othersSessions: 1 });
      expect(await serverRow(hers)).toMatchObject({ labels: [], note: null, author: "alice" });
      expect(queued()).toBe(0);
    });
  },
);
