/**
 * Builds a forest from flat rows in one pass with a map: no query per node, no quadratic scan, no recursion.
 * A row whose parent is missing from `rows` (deleted, in another menu or article, filtered out) or that sits in
 * a parent cycle is placed at the root, so nothing is lost and nothing loops.
 */
export type TreeNode<T> = T & { children: TreeNode<T>[] };

export interface TreeOptions<T> {
  id: (row: T) => number | string;
  /** The parent's id, or null/undefined for a root. */
  parentId: (row: T) => number | string | null | undefined;
  /** Sibling order; applied to every level. */
  compare?: (a: T, b: T) => number;
}

export function buildTree<T extends object>(rows: readonly T[], options: TreeOptions<T>): TreeNode<T>[] {
  return linkTree(
    rows.map((row) => ({ ...row, children: [] })),
    options,
  );
}

/**
 * `buildTree` on nodes made with an empty `children` array: links them in place instead of copying each row, which
 * is most of the cost on a 10,000-comment thread.
 */
export function linkTree<N extends { children: N[] }>(rows: readonly N[], options: TreeOptions<N>): N[] {
  const nodes = new Map<number | string, N>();
  for (const row of rows) nodes.set(options.id(row), row);

  // A row's effective parent: null when missing; cycles are broken below.
  const parentOf = new Map<number | string, number | string | null>();
  for (const row of rows) {
    const parent = options.parentId(row);
    const id = options.id(row);
    parentOf.set(id, parent !== null && parent !== undefined && parent !== id && nodes.has(parent) ? parent : null);
  }

  // Cycle detection without recursion: walk up from each node, colouring the path; a node met again on the
  // same walk closes a cycle, and the node where the walk started from inside the cycle becomes a root.
  const state = new Map<number | string, 1 | 2>(); // 1 = on the current walk, 2 = known to reach a root
  for (const start of parentOf.keys()) {
    if (state.has(start)) continue;
    const path: (number | string)[] = [];
    let current: number | string | null = start;
    while (current !== null && !state.has(current)) {
      state.set(current, 1);
      path.push(current);
      current = parentOf.get(current) ?? null;
    }
    if (current !== null && state.get(current) === 1) {
      // `current` is on this walk: the cycle is path[index(current)..]. Cut it at `current`.
      parentOf.set(current, null);
    }
    for (const id of path) state.set(id, 2);
  }

  const roots: N[] = [];
  for (const row of rows) {
    const id = options.id(row);
    const node = nodes.get(id)!;
    const parent = parentOf.get(id);
    if (parent === null || parent === undefined) roots.push(node);
    else nodes.get(parent)!.children.push(node);
  }

  if (options.compare) {
    const compare = options.compare;
    roots.sort(compare);
    for (const node of nodes.values()) if (node.children.length > 1) node.children.sort(compare);
  }
  return roots;
}

/** Number of nodes in a forest, counted without recursion. */
export function countNodes<T>(forest: readonly TreeNode<T>[]): number {
  let count = 0;
  const stack = [...forest];
  while (stack.length > 0) {
    const node = stack.pop()!;
    count += 1;
    for (const child of node.children) stack.push(child);
  }
  return count;
}
