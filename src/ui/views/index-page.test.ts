// The index page over a real index (tests/fixtures/forks, tests/fixtures/claude-forks and a project folder whose
// name is a payload), fork history's counts, and a joined team whose name, remote and last error are hostile: read
// locally, with no connection to the (unreachable) server and its password nowhere on the page.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildForkFixtureIndex } from "../../../tests/helpers/fork-fixture-index.ts";
import { expectInert } from "../../../tests/helpers/hostile-views.ts";
import { defaultConfig } from "../../config/defaults.ts";
import { addSharedProject, recordPush } from "../../store/team/team-state.ts";
import { loadIndexPage } from "./index-data.ts";
import { IndexView } from "./index-page.tsx";

const HOSTILE_PROJECT = "-home-<img src=x onerror=alert(1)>-\"app'";
const PASSWORD = "s3cret-pw-9f2";

let root: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "ctx-ui-index-"));
  env = await buildForkFixtureIndex(root, [
    { folder: HOSTILE_PROJECT, sessionId: "7a0c1a52-1111-4222-8333-944455556666" },
  ]);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const render = async (data: Awaited<ReturnType<typeof loadIndexPage>>) => String(await IndexView({ data }).toString());

describe("loadIndexPage", () => {
  it("shows ctx stats' figures, every project and month, and the fork counts", async () => {
    const data = await loadIndexPage(env, root, defaultConfig());
    if (!data.stats.ok || !data.forks.ok || !data.team.ok) throw new Error("a part failed");
    expect(data.stats.value).toMatchObject({ exists: true, sessions: 6, projects: 3, integrity: "not checked" });
    expect(data.forks.value.verdicts["paid-off"]).toBeGreaterThanOrEqual(1);
    expect(data.team.value.joined).toBe(false);
    const html = await render(data);
    expectInert(html);
    expect(html).toContain("<dt>sessions</dt><dd>6</dd>");
    expect(html).toContain("-home-&lt;img src=x onerror=alert(1)&gt;-&quot;app&#39;");
    expect(html).toContain("search success rate");
    expect(html).toContain("ctx stats --check checks the file&#39;s integrity");
    expect(html).toContain("Not joined to a team");
  });

  it("shows a joined team's outbox and last push from this machine alone", async () => {
    const hostile = "<script>alert('team')</script>";
    await addSharedProject(env, { remoteUrl: `github.com/acme/${hostile}`, repoPath: hostile }, root);
    await recordPush(env, { ok: false, error: `connect failed: <svg onload=alert(1)>` });
    const config = defaultConfig();
    config.team.url = `postgresql://member:${PASSWORD}@127.0.0.1:1/ctx?sslmode=disable`;
    config.team.name = hostile;
    const started = Date.now();
    const data = await loadIndexPage(env, root, config);
    // No connection was tried: nothing listens on port 1, and a connection attempt would report unreachable.
    expect(data.team).toMatchObject({ ok: true, value: { joined: true, reachable: null, error: null } });
    expect(Date.now() - started).toBeLessThan(config.team.connectTimeoutMs);
    const html = await render(data);
    expectInert(html);
    expect(html).not.toContain(PASSWORD);
    expect(html).toContain("&lt;script&gt;alert(&#39;team&#39;)&lt;/script&gt;");
    expect(html).toContain("connect failed: &lt;svg onload=alert(1)&gt;");
    expect(html).toContain("<dt>last push</dt><dd>never</dd>");
  });

  it("says so when there is no index", async () => {
    const data = await loadIndexPage({ CTX_HOME: join(root, "none"), HOME: root }, root, defaultConfig());
    expect(await render(data)).toContain("No session index yet");
  });
});
