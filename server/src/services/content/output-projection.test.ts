import { exampleOf, keysAlike, project, shapeOf } from './output-projection';

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
    const relations = new Set(['image']);
    const example = exampleOf(documents, relations);
    expect(example).toEqual({ id: 1, title: 'a', secret: 's1', image: { id: 9, url: '/u.png', folderPath: '/1' } });
    const shape = shapeOf(example, { id: 1, title: 'a', image: { id: 9, url: '/u.png' } }, relations)!;
    expect(documents.map((document) => project(document, shape))).toEqual([
      { id: 1, title: 'a', image: null },
      { id: 2, title: 'b', image: { id: 9, url: '/u.png' } },
    ]);
  });

  it('answers no shape when the sanitizer changed a value instead of removing a key', () => {
    const example = { id: 1, title: 'a' };
    expect(shapeOf(example, { id: 1, title: 'A' }, new Set())).toBeNull();
  });
});
