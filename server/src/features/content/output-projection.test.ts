import { exampleOf, flatTree, keysAlike, populatedTree, project, shapeOf } from './output-projection';

describe('output-projection', () => {
  it("tells components, dynamic zones and morph relations apart: their values' keys differ by document", () => {
    expect(keysAlike({ type: 'component' })).toBe(false);
    expect(keysAlike({ type: 'dynamiczone' })).toBe(false);
    expect(keysAlike({ type: 'relation', relation: 'morphToMany' })).toBe(false);
    expect(keysAlike({ type: 'relation', relation: 'morphToOne' })).toBe(false);
    expect(keysAlike({ type: 'relation', relation: 'manyToMany' })).toBe(true);
    expect(keysAlike({ type: 'media' })).toBe(true);
    expect(keysAlike({ type: 'string' })).toBe(true);
  });

  it('cuts every document to the keys the sanitizer kept of the example, inside relations too', () => {
    const documents = [
      { id: 1, title: 'a', secret: 's1', image: null },
      { id: 2, title: 'b', secret: 's2', image: { id: 9, url: '/u.png', folderPath: '/1' } },
    ];
    const relations = flatTree(['image']);
    const example = exampleOf(documents, relations);
    expect(example).toEqual({ id: 1, title: 'a', secret: 's1', image: { id: 9, url: '/u.png', folderPath: '/1' } });
    const shape = shapeOf(example, { id: 1, title: 'a', image: { id: 9, url: '/u.png' } }, relations)!;
    expect(documents.map((document) => project(document, shape))).toEqual([
      { id: 1, title: 'a', image: null },
      { id: 2, title: 'b', image: { id: 9, url: '/u.png' } },
    ]);
  });

  it('merges the related rows of every document into the example, level by level, and cuts each level', () => {
    const documents = [
      { id: 1, category: null, tags: [] },
      { id: 2, category: { id: 7, title: 'Front', parent: null }, tags: [] },
      { id: 3, category: { id: 8, title: 'Back', parent: { id: 5, title: 'Tech', secret: 'x' } }, tags: [{ id: 4, slug: 'ts' }] },
    ];
    const relations = new Map([['category', flatTree(['parent'])], ['tags', flatTree([])]]);
    const example = exampleOf(documents, relations);
    expect(example).toEqual({
      id: 1,
      category: { id: 7, title: 'Front', parent: { id: 5, title: 'Tech', secret: 'x' } },
      tags: [{ id: 4, slug: 'ts' }],
    });
    const sanitized = { id: 1, category: { id: 7, title: 'Front', parent: { id: 5, title: 'Tech' } }, tags: [{ id: 4, slug: 'ts' }] };
    const shape = shapeOf(example, sanitized, relations)!;
    expect(documents.map((document) => project(document, shape))).toEqual([
      { id: 1, category: null, tags: [] },
      { id: 2, category: { id: 7, title: 'Front', parent: null }, tags: [] },
      { id: 3, category: { id: 8, title: 'Back', parent: { id: 5, title: 'Tech' } }, tags: [{ id: 4, slug: 'ts' }] },
    ]);
    // A nested relation the sanitizer emptied instead of removing is a change of value: no shape.
    expect(shapeOf(example, { ...sanitized, category: { id: 7, title: 'Front', parent: null } }, relations)).toBeNull();
  });

  it('reads the relations a populate asks for, and none when values may differ in keys or more than fields are asked', () => {
    const models: Record<string, { attributes: Record<string, unknown> }> = {
      article: {
        attributes: {
          title: { type: 'string' },
          category: { type: 'relation', relation: 'manyToOne', target: 'category' },
          cover: { type: 'media' },
          seo: { type: 'component' },
          author: { type: 'relation', relation: 'manyToOne', target: 'user' },
        },
      },
      category: { attributes: { parent: { type: 'relation', relation: 'manyToOne', target: 'category' } } },
    };
    const strapi = { getModel: (uid: string) => models[uid] } as never;
    const tree = (populate: Record<string, unknown>, skip?: Set<string>) => populatedTree(strapi, models.article as never, populate, skip);
    expect(tree({ category: { populate: { parent: 'true' } }, cover: { fields: ['url'] }, author: true }, new Set(['author']))).toEqual(
      new Map([['category', new Map([['parent', new Map()]])], ['cover', new Map()]]),
    );
    expect(tree({ seo: true })).toBeNull();
    expect(tree({ title: true })).toBeNull();
    expect(tree({ category: { count: true } })).toBeNull();
    expect(tree({ category: { populate: '*' } })).toBeNull();
    expect(tree({ cover: { populate: { related: true } } })).toBeNull();
  });

  it('answers no shape when the sanitizer changed a value instead of removing a key', () => {
    const example = { id: 1, title: 'a' };
    expect(shapeOf(example, { id: 1, title: 'A' }, flatTree([]))).toBeNull();
  });
});
