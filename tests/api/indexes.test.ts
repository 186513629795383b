/**
 * The plugin's secondary indexes (server/src/platform/indexes.ts): created at bootstrap, kept across a restart, and used by the article list's default order, forwards and backwards, instead of a full scan with a
 * temporary sort or a walk over the drafts.
 */
import { ensureRoomForViews, FILL_FACTOR } from '../../server/src/features/content/room-for-views';
import { createDocument } from '../helpers/fixtures';
import { isPostgres, PLUGIN, setupStrapi, type TestApp } from '../helpers/strapi';

const EXPECTED = {
  bag_articles: ['bag_idx_articles_top_published', 'bag_idx_articles_list', 'bag_idx_articles_published', 'bag_idx_articles_slug'],
  bag_pages: ['bag_idx_pages_slug'],
  bag_banners: ['bag_idx_banners_group'],
  bag_menus: ['bag_idx_menus_slug'],
  bag_categories: ['bag_idx_categories_slug'],
  bag_tags: ['bag_idx_tags_slug'],
  bag_comments: ['bag_idx_comments_status', 'bag_idx_comments_pinned'],
  // The access tokens' check and the sessions' revocations (docs/accounts.md#access-tokens).
  strapi_sessions: ['bag_idx_sessions_session_id', 'bag_idx_sessions_child_id'],
  bag_refresh_tokens: ['bag_refresh_tokens_user', 'bag_refresh_tokens_session'],
  bag_token_epochs: ['bag_token_epochs_user_uq'],
  // A redirect by `from`, an imported item by its old path (docs/import.md#measured).
  bag_redirects: ['bag_idx_redirects_from'],
  bag_import_sources: ['bag_import_sources_source_key_uq', 'bag_import_sources_path'],
};

/** The storage options PostgreSQL keeps for `table`. */
const storageOptions = async (app: TestApp, table: string): Promise<string[]> => {
  const { rows } = await app.strapi.db.connection.raw(`SELECT reloptions FROM pg_class WHERE relname = ?`, [table]);
  return rows[0].reloptions ?? [];
};

const indexNames = async (app: TestApp, table: string) =>
  (await app.strapi.db.dialect.schemaInspector.getIndexes(table)).map((index) => index.name);

describe('plugin indexes', () => {
  let app: TestApp;

  beforeAll(async () => {
    // A first start creates the indexes (a copy of the template database would have them already).
    app = await setupStrapi({ fresh: true });
  });
  afterAll(async () => {
    await app.stop();
  });

  it.each(Object.entries(EXPECTED))('creates the indexes of %s at bootstrap', async (table, names) => {
    expect(await indexNames(app, table)).toEqual(expect.arrayContaining(names));
  });

  it.each([
    ['the default article order', [{ isTop: 'desc' }, { publishedAt: 'desc' }]],
    ['its exact reverse (a page past the middle)', [{ isTop: 'asc' }, { publishedAt: 'asc' }, { id: 'desc' }]],
  ])('serves %s from the published rows of one locale, without a temporary sort', async (_name, sort) => {
    if ((await app.strapi.db.query(`${PLUGIN}.article` as never).count({ where: { slug: 'indexed-0' } })) === 0) {
      for (let i = 0; i < 3; i += 1) {
        await createDocument(app.strapi, `${PLUGIN}.article`, { title: `Indexed ${i}`, slug: `indexed-${i}`, isTop: i === 0 });
      }
    }
    const knex = app.strapi.db.connection;
    if (app.strapi.db.dialect.client === 'postgres') {
      // A three-row table is scanned whatever the indexes; check the index has the order the list query needs.
      const { rows } = await knex.raw(`SELECT indexdef FROM pg_indexes WHERE indexname = 'bag_idx_articles_list'`);
      expect(rows[0].indexdef).toContain('(locale, is_top DESC, published_at DESC, id) WHERE (published_at IS NOT NULL)');
      return;
    }

    const queries: { sql: string; bindings: unknown[] }[] = [];
    const record = (query: { sql: string; bindings?: unknown[] }) => queries.push({ sql: query.sql, bindings: query.bindings ?? [] });
    knex.on('query', record);
    await app.strapi.documents(`${PLUGIN}.article` as never).findMany({ status: 'published', sort, limit: 25 } as never);
    knex.off('query', record);

    const list = queries.find((query) => /from [`"]bag_articles[`"].*order by/i.test(query.sql));
    expect(list).toBeDefined();
    const plan = (await knex.raw(`EXPLAIN QUERY PLAN ${list!.sql}`, list!.bindings as never)) as { detail: string }[];
    const details = plan.map((row) => row.detail).join('\n');
    expect(details).toContain('USING INDEX bag_idx_articles_list (locale=?)');
    expect(details).not.toContain('TEMP B-TREE');
  });

  it('leaves room on the pages of the tables whose rows a read updates, on PostgreSQL only', async () => {
    const statements: string[] = [];
    const record = (query: { sql: string }) => statements.push(query.sql);
    app.strapi.db.connection.on('query', record);
    await ensureRoomForViews(app.strapi);
    app.strapi.db.connection.off('query', record);
    if (app.strapi.db.dialect.client !== 'postgres') {
      expect(statements).toEqual([]);
      return;
    }
    expect(await storageOptions(app, 'bag_articles')).toEqual([`fillfactor=${FILL_FACTOR}`]);
    expect(await storageOptions(app, 'bag_pages')).toEqual([`fillfactor=${FILL_FACTOR}`]);
    expect(await storageOptions(app, 'bag_banners')).toEqual([]);
    // Already set: read, not set again.
    expect(statements.filter((sql) => /alter table/i.test(sql))).toEqual([]);
  });

  // SQLite has no such setting (the test above checks that nothing is sent to it).
  if (isPostgres()) {
    it("keeps an operator's own fillfactor", async () => {
      await app.strapi.db.connection.raw('ALTER TABLE bag_articles SET (fillfactor = 90)');
      await ensureRoomForViews(app.strapi);
      expect(await storageOptions(app, 'bag_articles')).toEqual(['fillfactor=90']);
      await app.strapi.db.connection.raw('ALTER TABLE bag_articles RESET (fillfactor)');
      await ensureRoomForViews(app.strapi);
      expect(await storageOptions(app, 'bag_articles')).toEqual([`fillfactor=${FILL_FACTOR}`]);
    });
  }

  it('keeps them across a restart without failing on the existing ones', async () => {
    await app.stop({ keepDatabase: true });
    app = await setupStrapi({ databaseFile: app.databaseFile });
    expect(await indexNames(app, 'bag_articles')).toEqual(expect.arrayContaining(EXPECTED.bag_articles));
  });
});
