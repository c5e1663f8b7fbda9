/**
 * The active session as a tree, flattened into rows with box-drawing prefixes.
 * Tree-shaped on purpose: sessions are two levels deep today, but rows
 * are produced by recursion, so a deeper tree needs no change here.
 */
import type { UiSession } from '../shared/renderer-protocol.js';

export interface TreeNode {
  paneId: string;
  children: TreeNode[];
}

export interface TreeRow {
  paneId: string;
  depth: number;
  /** "├─ ", "│  └─ " and so on; empty for the root. */
  prefix: string;
}

/** v1 shape: the root (orchestrator) with its children one level below. */
export function sessionTree(session: UiSession): TreeNode {
  return { paneId: session.rootId, children: session.childIds.map((paneId) => ({ paneId, children: [] })) };
}

export function flattenTree(root: TreeNode): TreeRow[] {
  const rows: TreeRow[] = [];
  const visit = (node: TreeNode, depth: number, lead: string, isLast: boolean) => {
    rows.push({ paneId: node.paneId, depth, prefix: depth === 0 ? '' : `${lead}${isLast ? '└─ ' : '├─ '}` });
    const childLead = depth === 0 ? '' : `${lead}${isLast ? '   ' : '│  '}`;
    node.children.forEach((child, index) => visit(child, depth + 1, childLead, index === node.children.length - 1));
  };
  visit(root, 0, '', true);
  return rows;
}

/** Which rows of a flattened tree the sidebar shows, and how many it hides on each side. */
export interface TreeWindow {
  first: number;
  count: number;
  above: number;
  below: number;
}

/**
 * The rows to show when the tree may be taller than its `space`: always the
 * focused row, and, for each side with hidden rows, one line saying how many
 * (so twenty children an orchestrator spawned are never silently cut to a
 * screenful). Below three lines there is no room for markers.
 */
export function treeWindow(total: number, focused: number, space: number): TreeWindow {
  const at = Math.max(0, focused);
  if (total <= space || space < 3) {
    const count = Math.max(0, Math.min(total, space));
    const first = Math.max(0, Math.min(at - count + 1, total - count));
    return { first, count, above: 0, below: 0 };
  }
  const withOneMarker = space - 1;
  if (at < withOneMarker) return { first: 0, count: withOneMarker, above: 0, below: total - withOneMarker };
  if (at >= total - withOneMarker) return { first: total - withOneMarker, count: withOneMarker, above: total - withOneMarker, below: 0 };
  // In the middle both markers show; the focused row sits at the bottom, as when scrolling down to it.
  const count = space - 2;
  const first = at - count + 1;
  return { first, count, above: first, below: total - first - count };
}
