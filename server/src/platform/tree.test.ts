import { buildTree, countNodes, linkTree } from './tree';

type Row = { id: number; parent: number | null; order: number };
const options = {
  id: (row: Row) => row.id,
  parentId: (row: Row) => row.parent,
  compare: (a: Row, b: Row) => a.order - b.order || a.id - b.id,
};
const shape = (nodes: any[]): any[] => nodes.map((node) => [node.id, shape(node.children)]);

describe('buildTree', () => {
  it('nests children under parents and orders siblings by order, then id', () => {
    const rows: Row[] = [
      { id: 5, parent: 1, order: 0 },
      { id: 1, parent: null, order: 1 },
      { id: 2, parent: null, order: 0 },
      { id: 4, parent: 1, order: 0 },
      { id: 3, parent: 4, order: 0 },
    ];
    expect(shape(buildTree(rows, options))).toEqual([[2, []], [1, [[4, [[3, []]]], [5, []]]]]);
  });

  it('puts an item whose parent is missing at the root', () => {
    const rows: Row[] = [{ id: 1, parent: 99, order: 0 }];
    expect(shape(buildTree(rows, options))).toEqual([[1, []]]);
  });

  it('breaks cycles and keeps every node exactly once', () => {
    const rows: Row[] = [
      { id: 1, parent: 3, order: 0 },
      { id: 2, parent: 1, order: 0 },
      { id: 3, parent: 2, order: 0 },
      { id: 4, parent: 4, order: 1 },
      { id: 5, parent: 2, order: 0 },
    ];
    const tree = buildTree(rows, options);
    expect(countNodes(tree)).toBe(5);
    expect(tree.map((node) => node.id)).toEqual(expect.arrayContaining([4]));
    expect(tree.length).toBe(2);
  });

  it('handles a 100,000-deep chain without recursion', () => {
    const rows: Row[] = Array.from({ length: 100_000 }, (_, i) => ({ id: i + 1, parent: i === 0 ? null : i, order: 0 }));
    const tree = buildTree(rows.reverse(), options);
    expect(tree).toHaveLength(1);
    expect(countNodes(tree)).toBe(100_000);
  });
});

describe('linkTree', () => {
  it('links the given nodes themselves, in the order buildTree gives, and leaves buildTree\'s rows untouched', () => {
    const rows: Row[] = [
      { id: 2, parent: 1, order: 1 },
      { id: 1, parent: null, order: 0 },
      { id: 3, parent: 1, order: 0 },
    ];
    const nodes = rows.map((row) => ({ ...row, children: [] as any[] }));
    const roots = linkTree(nodes, options);
    expect(roots[0]).toBe(nodes[1]);
    expect(roots[0].children[0]).toBe(nodes[2]);
    expect(shape(roots)).toEqual(shape(buildTree(rows, options)));
    expect(rows[1]).not.toHaveProperty('children');
  });
});
