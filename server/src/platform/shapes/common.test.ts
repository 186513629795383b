import { identifier, publicAuthor, restListQuery } from './common';

describe('common shapes', () => {
  it('take an id as a documentId string or an integer, nothing else', () => {
    expect(identifier.parse('k2abc')).toBe('k2abc');
    expect(identifier.parse(7)).toBe(7);
    for (const value of [1.5, null, true, { id: 1 }]) expect(identifier.safeParse(value).success).toBe(false);
  });

  it('show a user with id, documentId and username only', () => {
    const user = { id: 3, documentId: 'u3', username: 'ada', email: 'ada@example.com', provider: 'local', blocked: false };
    expect(publicAuthor.parse(user)).toEqual({ id: 3, documentId: 'u3', username: 'ada' });
  });

  it('take REST list parameters in the forms qs makes of them', () => {
    expect(restListQuery.sort.safeParse(['title:asc', 'id']).success).toBe(true);
    expect(restListQuery.populate.safeParse({ category: { populate: '*' } }).success).toBe(true);
    expect(restListQuery.pagination.safeParse({ page: '2', pageSize: '10' }).success).toBe(true);
    expect(restListQuery.pagination.safeParse({ page: 2 }).success).toBe(false);
    expect(restListQuery.filters.safeParse('title').success).toBe(false);
  });
});
