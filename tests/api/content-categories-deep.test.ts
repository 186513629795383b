/** Categories nest as deep as their data: a chain deeper than V8's JSON.stringify can write is still served. */
import { PLUGIN, setupStrapi, type TestApp } from '../helpers/strapi';

const CATEGORY = `${PLUGIN}.category`;

interface Node {
  slug: string;
  children: Node[];
}

describe('GET /api/bag/categories with a deep chain', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await setupStrapi();
  });
  afterAll(async () => {
    await app.stop();
  });

  it('serves a 5,000-deep chain of categories', async () => {
    const depth = 5000;
    const knex = app.strapi.db.connection;
    const meta = app.strapi.db.metadata.get(CATEGORY as never) as unknown as {
      tableName: string;
      attributes: { parent: { joinTable: { name: string; joinColumn: { name: string }; inverseJoinColumn: { name: string } } } };
    };
    const now = new Date();
    await knex.batchInsert(
      meta.tableName,
      Array.from({ length: depth }, (_, i) => ({
        document_id: `deep-category-${i}`.padEnd(24, 'x'),
        title: `Level ${String(i).padStart(5, '0')}`,
        slug: `level-${i}`,
        created_at: now,
        updated_at: now,
        published_at: now,
        locale: 'en',
      })),
      500
    );
    const ids: number[] = (await knex(meta.tableName).select('id').where('slug', 'like', 'level-%').orderBy('id', 'asc')).map(
      (row: { id: number }) => row.id
    );
    const link = meta.attributes.parent.joinTable;
    await knex.batchInsert(
      link.name,
      ids.slice(1).map((id, i) => ({ [link.joinColumn.name]: id, [link.inverseJoinColumn.name]: ids[i] })),
      500
    );

    const res = await app.request().get('/api/bag/categories').expect(200);
    const root = (res.body.data as Node[]).find((node) => node.slug === 'level-0')!;
    let node = root;
    let levels = 1;
    while (node.children.length > 0) {
      expect(node.children).toHaveLength(1);
      node = node.children[0];
      levels += 1;
    }
    expect(levels).toBe(depth);
    expect(node.slug).toBe(`level-${depth - 1}`);
  });
});
