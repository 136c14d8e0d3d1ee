// The chains page over a real index of forks Claude Code 2.1.330 made (tests/fixtures/forks: a fork that paid off;
// tests/fixtures/claude-forks: an original with two forks), the layout on a larger family, and hostile titles.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  buildForkFixtureIndex,
  E2E_ORIGINAL,
  FORK,
  FORK_SOURCE as SOURCE,
} from "../../../tests/helpers/fork-fixture-index.ts";
import { expectInert, HOSTILE } from "../../../tests/helpers/hostile-views.ts";
import { type ChainMember, layoutChains, NODE_HEIGHT, NODE_WIDTH } from "./chain-graph.ts";
import { ChainsView } from "./chains.tsx";
import { type ChainSession, type ChainsData, loadChains } from "./chains-data.ts";

let root: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "ctx-ui-chains-"));
  env = await buildForkFixtureIndex(root);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const render = async (data: ChainsData) => String(await ChainsView({ data }).toString());

describe("loadChains", () => {
  it("draws this project's fork with its source and marks it paid off", async () => {
    const data = await loadChains(env, "/home/user/work/project");
    expect(data.matched).toEqual(["-home-user-work-project"]);
    const byId = new Map(data.sessions.map((session) => [session.id, session]));
    expect(byId.get(SOURCE)).toMatchObject({ parentId: null, verdict: null });
    expect(byId.get(FORK)).toMatchObject({ parentId: SOURCE, verdict: "paid-off" });
    expect(data.sessions).toHaveLength(2);
    const html = await render(data);
    expect(html).toContain(`href="/session/${FORK}"`);
    expect(html).toContain(`href="/session/${SOURCE}"`);
    expect(html).toMatch(/class="chain-node verdict-paid-off/);
    expect(html).toContain("1 fork(s), 1 paid off");
  });

  it("draws another project's family: an original and its two forks", async () => {
    const data = await loadChains(env, "/home/user/work/project", "ctx-e2e");
    expect(data.matched).toEqual(["-tmp-ctx-e2e-project"]);
    const forks = data.sessions.filter((session) => session.parentId === E2E_ORIGINAL);
    expect(forks).toHaveLength(2);
    const layout = layoutChains(data.sessions);
    expect(layout.edges).toHaveLength(2);
    expectNoOverlap(layout.nodes);
  });

  it("says so when no project matches, and when there is no index", async () => {
    const none = await loadChains(env, root, "no-such-project-anywhere");
    expect(none.matched).toEqual([]);
    expect(await render(none)).toContain("No indexed project matches");
    const bare = await loadChains({ CTX_HOME: join(root, "empty"), HOME: root }, root);
    expect(bare.notice).toContain("ctx index");
  });
});

describe("layoutChains", () => {
  // A family with forks of forks, two roots, a parent outside the graph and a cycle of damaged links.
  const family: ChainMember[] = [
    { id: "a", parentId: null, createdAt: 1 },
    { id: "b", parentId: "a", createdAt: 2 },
    { id: "c", parentId: "a", createdAt: 3 },
    { id: "d", parentId: "b", createdAt: 4 },
    { id: "e", parentId: "b", createdAt: 5 },
    { id: "f", parentId: "d", createdAt: 6 },
    { id: "g", parentId: "c", createdAt: 7 },
    { id: "h", parentId: null, createdAt: 8 },
    { id: "i", parentId: "h", createdAt: 9 },
    { id: "j", parentId: "gone", createdAt: 10 },
    { id: "x", parentId: "y", createdAt: 11 },
    { id: "y", parentId: "x", createdAt: 12 },
  ];

  it("places every node once, with no two overlapping, forks one column right of their parent", () => {
    const layout = layoutChains(family);
    expect(layout.nodes.map((node) => node.member.id).sort()).toEqual(family.map((member) => member.id).sort());
    expectNoOverlap(layout.nodes);
    for (const { from, to } of layout.edges) expect(to.x).toBeGreaterThan(from.x + NODE_WIDTH);
    for (const node of layout.nodes) {
      expect(node.x + NODE_WIDTH).toBeLessThanOrEqual(layout.width);
      expect(node.y + NODE_HEIGHT).toBeLessThanOrEqual(layout.height);
    }
    expect(layout.edges.map(({ from, to }) => `${from.member.id}>${to.member.id}`).sort()).toEqual(
      ["a>b", "a>c", "b>d", "b>e", "d>f", "c>g", "h>i", "x>y"].sort(),
    );
  });

  it("is deterministic whatever the input order", () => {
    const positions = (members: ChainMember[]) =>
      Object.fromEntries(layoutChains(members).nodes.map((node) => [node.member.id, [node.x, node.y]]));
    expect(positions([...family].reverse())).toEqual(positions(family));
  });

  it("lays out 500 forks in one family without overlap", () => {
    const many: ChainMember[] = [{ id: "r", parentId: null, createdAt: 0 }];
    for (let i = 1; i < 500; i++) many.push({ id: `n${i}`, parentId: i < 10 ? "r" : `n${i % 37 || 1}`, createdAt: i });
    expectNoOverlap(layoutChains(many).nodes);
  });
});

describe("ChainsView with hostile text", () => {
  it("renders titles, ids and projects as text only", async () => {
    const sessions: ChainSession[] = HOSTILE.map((text, i) => ({
      id: i === 0 ? "javascript:alert(1)" : `${text}-${i}`,
      parentId: i === 0 ? null : "javascript:alert(1)",
      createdAt: i,
      updatedAt: i,
      title: text,
      project: text,
      messageCount: 3,
      verdict: i % 2 === 0 ? "paid-off" : null,
      compactions: i % 3,
    }));
    const html = await render({
      project: HOSTILE[0] ?? "",
      matched: HOSTILE,
      sessions,
      familiesLeftOut: 0,
      notice: HOSTILE[1] ?? null,
    });
    expectInert(html);
    // Every link stays on this page's own /session/ route.
    for (const [, href] of html.matchAll(/href="([^"]*)"/g)) {
      expect(href?.replaceAll("&#39;", "'")).toMatch(/^\/session\/[^/?#:]*$/);
    }
  });
});

function expectNoOverlap(nodes: ReadonlyArray<{ x: number; y: number }>): void {
  const sorted = [...nodes].sort((a, b) => a.x - b.x || a.y - b.y);
  for (let i = 0; i < sorted.length; i++) {
    for (let j = i + 1; j < sorted.length; j++) {
      const a = sorted[i] as { x: number; y: number };
      const b = sorted[j] as { x: number; y: number };
      if (b.x >= a.x + NODE_WIDTH) break;
      const apart = b.y >= a.y + NODE_HEIGHT || a.y >= b.y + NODE_HEIGHT;
      expect(apart, `nodes at ${a.x},${a.y} and ${b.x},${b.y} overlap`).toBe(true);
    }
  }
}
