// The chains page's graph: a project's fork families laid out for SVG (docs/ui.md "Chains"). In the index's lineage
// every fork has exactly one parent (core/search/lineage.ts parentsInFamily), so a family is a tree and the graph a
// forest: a tidy tree layout places it exactly, each node in its depth's column and each leaf on a row of its own, so
// no two nodes can overlap (a subtree owns a contiguous run of rows). A general DAG layout (dagre, elkjs) would add
// crossing minimisation this graph never needs. Deterministic: children in creation order, then by id. Pure.

export const NODE_WIDTH = 240;
export const NODE_HEIGHT = 46;
export const GAP_X = 48;
export const GAP_Y = 14;
export const MARGIN = 12;

export interface ChainMember {
  id: string;
  /** The session it was forked from; null for an original (or a parent the graph does not hold). */
  parentId: string | null;
  createdAt: number;
}

export interface PlacedNode<T extends ChainMember> {
  member: T;
  x: number;
  y: number;
  depth: number;
}

export interface ChainLayout<T extends ChainMember> {
  nodes: PlacedNode<T>[];
  edges: Array<{ from: PlacedNode<T>; to: PlacedNode<T> }>;
  width: number;
  height: number;
}

const byAge = (a: ChainMember, b: ChainMember) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Positions for every member (top-left corners) and one edge per parent link; members whose ids repeat count once. */
export function layoutChains<T extends ChainMember>(members: readonly T[]): ChainLayout<T> {
  const byId = new Map<string, T>();
  for (const member of members) if (!byId.has(member.id)) byId.set(member.id, member);
  const children = new Map<string, T[]>();
  const roots: T[] = [];
  for (const member of byId.values()) {
    const parent = member.parentId === null || member.parentId === member.id ? undefined : byId.get(member.parentId);
    if (parent === undefined) roots.push(member);
    else children.set(parent.id, [...(children.get(parent.id) ?? []), member]);
  }
  const placed = new Map<string, PlacedNode<T>>();
  let row = 0;
  // Depth first; returns the row the node sits on (its first child's: the edge to it is straight).
  const place = (member: T, depth: number): number => {
    const node: PlacedNode<T> = { member, depth, x: MARGIN + depth * (NODE_WIDTH + GAP_X), y: 0 };
    placed.set(member.id, node);
    let own: number | null = null;
    for (const child of (children.get(member.id) ?? []).sort(byAge)) {
      if (placed.has(child.id)) continue;
      const at = place(child, depth + 1);
      own ??= at;
    }
    if (own === null) own = row++;
    node.y = MARGIN + own * (NODE_HEIGHT + GAP_Y);
    return own;
  };
  for (const root of roots.sort(byAge)) place(root, 0);
  // Members on a cycle of parent links (damaged lineage) reach no root: each unplaced one starts a tree of its own.
  for (const member of [...byId.values()].sort(byAge)) if (!placed.has(member.id)) place(member, 0);

  const nodes = [...placed.values()];
  const edges: ChainLayout<T>["edges"] = [];
  for (const node of nodes) {
    const parentId = node.member.parentId;
    const parent = parentId === null ? undefined : placed.get(parentId);
    if (parent !== undefined && parent !== node && parent.depth === node.depth - 1)
      edges.push({ from: parent, to: node });
  }
  const maxDepth = Math.max(0, ...nodes.map((node) => node.depth));
  return {
    nodes,
    edges,
    width: nodes.length === 0 ? 0 : 2 * MARGIN + (maxDepth + 1) * NODE_WIDTH + maxDepth * GAP_X,
    height: nodes.length === 0 ? 0 : 2 * MARGIN + row * NODE_HEIGHT + Math.max(0, row - 1) * GAP_Y,
  };
}
