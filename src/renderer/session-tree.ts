/**
 * The active session as a tree, flattened into rows with box-drawing prefixes.
 * Tree-shaped on purpose (spec §4): v1 sessions are two levels deep, but rows
 * are produced by recursion, so a deeper tree needs no change here.
 */
import type { UiSession } from './protocol.js';

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
