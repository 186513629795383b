import commentSchema from '../../content-types/comment/schema.json';
import { THREAD_SORTS } from './thread';
import { commentNode, commentStatus, createBody, threadQuery, threadSort } from './comments.shapes';

describe('comment shapes', () => {
  it('name the same statuses as the comment content type and the same sorts as the thread queries', () => {
    expect(commentStatus.options).toEqual(commentSchema.attributes.status.enum);
    expect(threadSort.options).toEqual([...THREAD_SORTS]);
  });

  it('take a new comment bare or in the REST envelope, ids as documentId or number', () => {
    const fields = { content: 'Hello', article: 'k2abc', parent: 12, author: null };
    expect(createBody.parse(fields)).toEqual(fields);
    expect(createBody.parse({ data: fields })).toEqual({ data: fields });
    expect(createBody.safeParse({ content: 'Hello' }).success).toBe(false);
    expect(createBody.safeParse({ content: 'Hello', article: 1.5 }).success).toBe(false);
    expect(createBody.safeParse({ data: { article: 'k2abc' } }).success).toBe(false);
  });

  it('keep a tree node to its public fields at every depth', () => {
    const author = { id: 1, documentId: 'u1', username: 'ada', email: 'ada@example.com', password: 'x' };
    const node = (children: unknown[]) => ({
      id: 1, documentId: 'c1', content: 'x', contentHtml: '<p>x</p>', createdAt: '2026-01-01T00:00:00.000Z', isAdmin: false,
      editedAt: null, pinned: false, deleted: false,
      author, ip: '203.0.113.9', userAgent: 'curl', status: 'approved', reportCount: 2, pinnedAt: null, children,
    });
    const parsed = commentNode.parse(node([node([node([])])])) as any;
    for (const level of [parsed, parsed.children[0], parsed.children[0].children[0]]) {
      expect(Object.keys(level).sort()).toEqual(['author', 'children', 'content', 'contentHtml', 'createdAt', 'deleted', 'documentId', 'editedAt', 'id', 'isAdmin', 'pinned']);
      expect(level.author).toEqual({ id: 1, documentId: 'u1', username: 'ada' });
    }
  });

  it('accept only the listed thread sorts and withCount values', () => {
    expect(threadQuery.sort.safeParse('top').success).toBe(true);
    expect(threadQuery.sort.safeParse('likes').success).toBe(false);
    expect(threadQuery.pagination.safeParse({ pageSize: '5', withCount: 'false' }).success).toBe(true);
    expect(threadQuery.pagination.safeParse({ withCount: 'no' }).success).toBe(false);
  });
});
