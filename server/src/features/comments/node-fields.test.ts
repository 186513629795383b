import { nodeFields, pinnedAtOf, treeNode } from './node-fields';

/** A comment row as the tree's raw query selects it (SQLite: timestamps as epoch milliseconds, booleans as 0/1). */
const row = (over: Record<string, unknown> = {}) => ({
  id: 5,
  documentId: 'c5',
  content: 'Hello *you*',
  createdAt: Date.parse('2026-02-03T04:05:06.000Z'),
  isAdmin: 0,
  authorId: 3,
  authorDocumentId: 'u3',
  authorUsername: 'ada',
  authorEmail: 'ada@example.com',
  ip: '203.0.113.9',
  editedAt: null,
  pinnedAt: null,
  deleted: 0,
  contentHtml: null,
  ...over,
});

describe('public comment nodes from their rows (docs/comments.md#markdown)', () => {
  it('a tree node has the public keys only, with ISO dates and the public author', () => {
    expect(treeNode(row(), false)).toEqual({
      id: 5,
      documentId: 'c5',
      content: 'Hello *you*',
      createdAt: '2026-02-03T04:05:06.000Z',
      isAdmin: false,
      author: { id: 3, documentId: 'u3', username: 'ada' },
      editedAt: null,
      pinned: false,
      deleted: false,
    });
    expect(treeNode(row({ authorId: null }), false).author).toBeNull();
  });

  it('edited and pinned from their timestamps, in any form the databases return', () => {
    const node = treeNode(row({ editedAt: '2026-02-03T05:00:00.000Z', pinnedAt: new Date('2026-02-04T00:00:00.000Z') }), false);
    expect(node.editedAt).toBe('2026-02-03T05:00:00.000Z');
    expect(node.pinned).toBe(true);
    expect(pinnedAtOf(row({ pinnedAt: String(Date.parse('2026-02-04T00:00:00.000Z')) }))).toBe(Date.parse('2026-02-04T00:00:00.000Z'));
    expect(pinnedAtOf(row())).toBeUndefined();
  });

  it('with Markdown: the stored HTML, or the content rendered when none was stored; a tombstone renders empty', () => {
    expect(treeNode(row({ contentHtml: '<p>stored</p>\n' }), true).contentHtml).toBe('<p>stored</p>\n');
    expect(treeNode(row(), true).contentHtml).toBe('<p>Hello <em>you</em></p>\n');
    expect(treeNode(row({ deleted: 1, contentHtml: '<p>gone</p>' }), true)).toMatchObject({ deleted: true, contentHtml: '' });
    expect('contentHtml' in treeNode(row(), false)).toBe(false);
  });

  it('nodeFields adds the same keys as treeNode', () => {
    const fields = nodeFields(row({ editedAt: 1_700_000_000_000, pinnedAt: 1 }), true);
    expect(fields).toEqual({ editedAt: new Date(1_700_000_000_000).toISOString(), pinned: true, deleted: false, contentHtml: '<p>Hello <em>you</em></p>\n' });
    const node = treeNode(row({ editedAt: 1_700_000_000_000, pinnedAt: 1 }), true);
    expect({ editedAt: node.editedAt, pinned: node.pinned, deleted: node.deleted, contentHtml: node.contentHtml }).toEqual(fields);
  });
});
