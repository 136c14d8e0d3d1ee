// The chains page (docs/ui.md "Chains"): the fork families as one SVG, laid out by ./chain-graph.ts, each node a link
// to its session's page, forks that paid off marked. Hono JSX escapes every text and attribute; the only URL built
// here is `/session/<id>` with the id percent-encoded, so no session's text can become a link elsewhere. No inline
// style or script (the page's CSP): colours and marks are classes, styled by ../assets/views.css.
import { GAP_X, layoutChains, NODE_HEIGHT, NODE_WIDTH } from "./chain-graph.ts";
import type { ChainSession, ChainsData } from "./chains-data.ts";
import { clipLine, sessionHref, shortDate } from "./text.ts";

/** Characters of a title shown in a node (the whole title is its tooltip). */
const TITLE_CHARS = 30;

export function ChainsView({ data }: { data: ChainsData }) {
  const layout = layoutChains(data.sessions);
  const paidOff = data.sessions.filter((session) => session.verdict === "paid-off").length;
  return (
    <section class="view view-chains" aria-labelledby="chains-title">
      <h1 id="chains-title">Chains</h1>
      <p class="view-meta">
        Forks and their sources in {data.matched.length === 0 ? "no indexed project" : data.matched.join(", ")}:{" "}
        {layout.edges.length} fork(s), {paidOff} paid off.
        {data.familiesLeftOut > 0 ? ` ${data.familiesLeftOut} older chain(s) not drawn.` : ""}
      </p>
      {data.notice === null ? null : <p class="view-notice">{data.notice}</p>}
      {layout.nodes.length === 0 ? (
        <p class="view-empty">
          {data.matched.length === 0
            ? `No indexed project matches "${data.project}".`
            : "No forks in this project yet: a fork made by ctx fork, /fork-detect or claude --fork-session shows here."}
        </p>
      ) : (
        <div class="chains-scroll">
          <svg
            class="chains-graph"
            viewBox={`0 0 ${layout.width} ${layout.height}`}
            width={layout.width}
            height={layout.height}
            aria-label="fork chains"
          >
            {layout.edges.map(({ from, to }) => (
              <path
                class={`chain-edge verdict-${to.member.verdict ?? "none"}`}
                d={edgePath(from.x + NODE_WIDTH, from.y + NODE_HEIGHT / 2, to.x, to.y + NODE_HEIGHT / 2)}
              />
            ))}
            {layout.nodes.map((node) => (
              <ChainNode session={node.member} x={node.x} y={node.y} />
            ))}
          </svg>
        </div>
      )}
      <p class="chains-legend">
        <span class="legend-item verdict-paid-off">paid off</span>
        <span class="legend-item verdict-continued">continued</span>
        <span class="legend-item verdict-abandoned">abandoned</span>
        <span class="legend-item verdict-unknown">unknown</span>
        <span class="legend-item chain-compacted">compacted (ctx took a snapshot first)</span>
      </p>
    </section>
  );
}

function ChainNode({ session, x, y }: { session: ChainSession; x: number; y: number }) {
  const kind = session.parentId === null ? "original" : `fork, ${session.verdict ?? "outcome not read"}`;
  // The day only: the whole time is in the session's page, and the line must fit the node (NODE_WIDTH).
  const detail = `${shortDate(session.createdAt).slice(0, 10)} · ${session.messageCount} msg${session.compactions > 0 ? ` · ${session.compactions}× compacted` : ""}`;
  return (
    <a
      href={sessionHref(session.id)}
      class={`chain-node verdict-${session.verdict ?? "none"}${session.compactions > 0 ? " chain-compacted" : ""}`}
      data-session={session.id}
      data-x={x}
      data-y={y}
    >
      <title>{`${session.title || session.id} (${kind}) ${session.id}`}</title>
      <rect x={x} y={y} width={NODE_WIDTH} height={NODE_HEIGHT} rx={6} />
      <text x={x + 8} y={y + 18} class="chain-title">
        {clipLine(session.title || session.id, TITLE_CHARS)}
      </text>
      <text x={x + 8} y={y + 36} class="chain-detail">
        {detail}
      </text>
      {session.verdict === "paid-off" ? (
        <text x={x + NODE_WIDTH - 8} y={y + 18} text-anchor="end" class="chain-badge">
          ✓
        </text>
      ) : null}
    </a>
  );
}

/** A curve from a parent's right edge to its fork's left edge. */
function edgePath(x1: number, y1: number, x2: number, y2: number): string {
  const bend = GAP_X / 2;
  return `M${x1},${y1} C${x1 + bend},${y1} ${x2 - bend},${y2} ${x2},${y2}`;
}
