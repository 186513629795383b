/**
 * Full-text search (docs/search.md): `GET /api/bag/search` ranks published articles of a locale (title above
 * content-only matches), stems where the database can, treats every character of `q` as text, escapes highlights
 * with only <mark> as markup, filters by category and tag, pages, refuses bad input with 400 naming the field, and
 * follows every kind of write at once (Document Service, Query Engine, Content Manager, raw SQL). An index lost while
 * the site was down is rebuilt at the next start.
 */
import { adminToken } from '../helpers/fixtures';
import { addLocales } from '../helpers/locales';
import { isPostgres, PLUGIN, setupStrapi, type TestApp } from '../helpers/strapi';

const ARTICLE = `${PLUGIN}.article`;
const CATEGORY = `${PLUGIN}.category`;
const TAG = `${PLUGIN}.tag`;

type Doc = { id: number; documentId: string };
interface Hit {
  documentId: string;
  slug: string;
  title: string;
  summary: string | null;
  publishedAt: string | null;
  highlight: { title: string; excerpt: string };
}

describe('GET /api/bag/search', () => {
  let app: TestApp;
  let seq = 0;
  const documents = (uid: string) => app.strapi.documents(uid as never) as any;
  const search = (query: Record<string, unknown>) => app.request().get('/api/bag/search').query(query);
  const slugs = async (query: Record<string, unknown>): Promise<string[]> => {
    const res = await search(query);
    expect(res.status).toBe(200);
    return (res.body.data as Hit[]).map((hit) => hit.slug);
  };

  /** Creates an article in `locale` and publishes it unless `publish: false`. */
  const article = async (fields: Record<string, unknown>, { locale = 'en', publish = true } = {}): Promise<Doc> => {
    seq += 1;
    const created = await documents(ARTICLE).create({ locale, data: { slug: `a-${seq}`, ...fields } });
    if (publish) await documents(ARTICLE).publish({ documentId: created.documentId, locale });
    return created;
  };

  let tech: Doc;
  let js: Doc;

  beforeAll(async () => {
    app = await setupStrapi();
    await addLocales(app.strapi, [{ code: 'fr', name: 'French (fr)' }]);
    tech = await documents(CATEGORY).create({ locale: 'en', data: { title: 'Tech', slug: 'tech' } });
    await documents(CATEGORY).create({ locale: 'en', data: { title: 'Life', slug: 'life' } });
    js = await documents(TAG).create({ locale: 'en', data: { title: 'JS', slug: 'js' } });
    await documents(TAG).create({ locale: 'en', data: { title: 'Go', slug: 'go' } });

    await article({ slug: 'title-match', title: 'Walrus habits', summary: 'An animal.', content: 'Nothing else here.' });
    await article({
      slug: 'content-match',
      title: 'Seaside diary',
      summary: 'A day out.',
      content: 'A long day at the beach. We talked about many things, weather, food and, once, a walrus far away.',
    });
    await article({ slug: 'runner', title: 'Morning', summary: 'Short.', content: 'The dog runs along the river every day.' });
    await article({
      slug: 'hostile',
      title: '<script>alert("x")</script> Danger & "quotes"',
      summary: 'Summary with <b>bold</b> danger',
      content: '# Heading\n\nSome **danger** in [a link](http://example.com/path) and <img src=x onerror=alert(1)>.',
    });
    await article({ slug: 'draft-only', title: 'Walrus draft', content: 'walrus' }, { publish: false });
    await article({ slug: 'en-filtered', title: 'Penguin one', content: 'x', category: tech.documentId, tags: [js.documentId] });
    await article({ slug: 'en-other', title: 'Penguin two', content: 'x' });
    await article({ slug: 'fr-morse', title: 'Le morse et le pingouin', content: 'Les chaussures de course' }, { locale: 'fr' });
  });

  afterAll(async () => {
    await app?.stop();
  });

  it('answers the documented shape for published articles of the default locale', async () => {
    const res = await search({ q: 'walrus' });
    expect(res.status).toBe(200);
    expect(res.body.meta.pagination).toEqual({ page: 1, pageSize: 10, pageCount: 1, total: 2 });
    const [first] = res.body.data as Hit[];
    expect(Object.keys(first).sort()).toEqual(['documentId', 'highlight', 'publishedAt', 'slug', 'summary', 'title']);
    expect(first).toMatchObject({ slug: 'title-match', title: 'Walrus habits', summary: 'An animal.' });
    expect(typeof first.publishedAt).toBe('string');
    expect(first.highlight.title).toBe('<mark>Walrus</mark> habits');
  });

  it('ranks a title match above a content-only match, and marks the excerpt', async () => {
    const res = await search({ q: 'walrus' });
    expect((res.body.data as Hit[]).map((hit) => hit.slug)).toEqual(['title-match', 'content-match']);
    expect(res.body.data[1].highlight.excerpt).toContain('<mark>walrus</mark>');
  });

  it('never returns drafts', async () => {
    expect(await slugs({ q: 'draft' })).toEqual([]);
  });

  it('stems English words ("running" finds "runs")', async () => {
    expect(await slugs({ q: 'running' })).toEqual(['runner']);
  });

  it('searches the requested locale only', async () => {
    expect(await slugs({ q: 'morse', locale: 'fr' })).toEqual(['fr-morse']);
    expect(await slugs({ q: 'morse' })).toEqual([]);
    expect(await slugs({ q: 'walrus', locale: 'fr' })).toEqual([]);
    const res = await search({ q: 'walrus', locale: 'xx' });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe('Unknown locale supplied');
  });

  it('filters by category and tag slugs; unknown ones are 404', async () => {
    expect((await slugs({ q: 'penguin' })).sort()).toEqual(['en-filtered', 'en-other']);
    expect(await slugs({ q: 'penguin', category: 'tech' })).toEqual(['en-filtered']);
    expect(await slugs({ q: 'penguin', category: 'life' })).toEqual([]);
    expect(await slugs({ q: 'penguin', tag: 'js' })).toEqual(['en-filtered']);
    expect(await slugs({ q: 'penguin', tag: 'go' })).toEqual([]);
    const category = await search({ q: 'penguin', category: 'nope' });
    expect(category.status).toBe(404);
    expect(category.body.error.message).toBe('Category not found');
    const tag = await search({ q: 'penguin', tag: 'nope' });
    expect(tag.status).toBe(404);
    expect(tag.body.error.message).toBe('Tag not found');
  });

  it('escapes highlights: only <mark> is markup', async () => {
    const res = await search({ q: 'danger' });
    expect(res.status).toBe(200);
    const [hit] = res.body.data as Hit[];
    expect(hit.slug).toBe('hostile');
    expect(hit.highlight.title).toBe('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; <mark>Danger</mark> &amp; &quot;quotes&quot;');
    for (const html of [hit.highlight.title, hit.highlight.excerpt]) {
      expect(html.replace(/<\/?mark>/g, '')).not.toMatch(/[<>]/);
    }
    expect(hit.highlight.excerpt).toContain('<mark>');
    // The raw fields stay as stored.
    expect(hit.title).toBe('<script>alert("x")</script> Danger & "quotes"');
  });

  it("keeps the author's characters in excerpts: tag-like text is escaped text, not dropped", async () => {
    await article({
      slug: 'html-tutorial',
      title: 'Writing HTML',
      content: 'Ocelot tutorial: &lt;entities&gt; stay, write <script>alert(1)</script> then <b>bold</b> & <i>more</i> text.',
    });
    const [hit] = (await search({ q: 'ocelot' })).body.data as Hit[];
    expect(hit.slug).toBe('html-tutorial');
    expect(hit.highlight.excerpt).toMatch(
      /^<mark>Ocelot<\/mark> tutorial: &amp;lt;entities&amp;gt; stay, write &lt;script&gt;alert\(1\)&lt;\/script/,
    );
    // However long the database's window, the excerpt is a piece of the escaped text.
    const escaped =
      'Ocelot tutorial: &amp;lt;entities&amp;gt; stay, write &lt;script&gt;alert(1)&lt;/script&gt; then &lt;b&gt;bold&lt;/b&gt; ' +
      '&amp; &lt;i&gt;more&lt;/i&gt; text.';
    expect(escaped).toContain(hit.highlight.excerpt.replace(/<\/?mark>/g, '').replace(/…/g, ''));
    // The summary's excerpt too (the hostile article's summary holds <b>bold</b>).
    const [hostile] = (await search({ q: 'danger' })).body.data as Hit[];
    expect(hostile.highlight.excerpt).toBe('Summary with &lt;b&gt;bold&lt;/b&gt; <mark>danger</mark>');
  });

  it("marks only matches: control characters in the author's text are not markers", async () => {
    await article({
      slug: 'controls',
      title: 'Quagga \u0002not\u0003 a \u0003match\u0002 \u0002quagga\u0003',
      summary: 'Stripes \u0002and\u0003 \u0002quagga\u0003\u0003 here\u0002',
      content: '\u0003Body\u0002 text',
    });
    const [hit] = (await search({ q: 'quagga' })).body.data as Hit[];
    expect(hit.slug).toBe('controls');
    expect(hit.highlight.title).toBe('<mark>Quagga</mark> not a match <mark>quagga</mark>');
    expect(hit.highlight.excerpt).toBe('Stripes and <mark>quagga</mark> here');
    // The raw fields stay as stored.
    expect(hit.title).toBe('Quagga \u0002not\u0003 a \u0003match\u0002 \u0002quagga\u0003');
  });

  it('takes every character of q as text (never 500)', async () => {
    const hostile = [
      '"', "'", '*', 'NEAR(a b)', 'title:x', 'a OR b', '-x', '(', ')', '\\', '%', '_', '&|!:*', '😀', '"walrus',
      'walrus*', 'title:walrus', 'walrus OR', 'NOT walrus', '!walrus & (', "walrus' OR '1'='1", '{title}: walrus',
      '^walrus', 'walrus:*', '<->', '@@', '\u0001\u0002\u0003', '"'.repeat(200), '*&|!:()'.repeat(28).slice(0, 200),
    ];
    for (const q of hostile) {
      const res = await search({ q });
      expect([q, res.status]).toEqual([q, 200]);
      expect(Array.isArray(res.body.data)).toBe(true);
    }
    // Operators around a real word are ignored, the word is found.
    for (const q of ['walrus*', '(walrus)', '-walrus', ':walrus:*', '"walrus"']) {
      expect(await slugs({ q })).toEqual(['title-match', 'content-match']);
    }
    // A column filter is two words: `title` must occur too.
    expect(await slugs({ q: 'title:walrus' })).toEqual([]);
    expect(await slugs({ q: '"walrus' })).toEqual(['title-match', 'content-match']);
    // FTS5 / tsquery operators are words like any other: "a OR b" needs both words, not either.
    expect(await slugs({ q: 'walrus OR penguin' })).toEqual([]);
    // NUL is refused by the plugin's NUL guard for every /api/bag route (400, never 500).
    expect((await search({ q: 'walrus\u0000' })).status).toBe(400);
  });

  it('refuses a missing, blank or too long q and bad pagination with 400 naming the field', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{}, 'q'],
      [{ q: '' }, 'q'],
      [{ q: '   ' }, 'q'],
      [{ q: 'x'.repeat(201) }, 'q'],
      [{ q: 'walrus', pagination: { pageSize: '101' } }, 'pagination.pageSize'],
      [{ q: 'walrus', pagination: { pageSize: '0' } }, 'pagination.pageSize'],
      [{ q: 'walrus', pagination: { page: 'x' } }, 'pagination.page'],
      // Past the largest safe integer the offset is no longer an integer to the database.
      [{ q: 'walrus', pagination: { page: '99999999999999999999' } }, 'pagination.page'],
      [{ q: 'walrus', pagination: { page: String(Number.MAX_SAFE_INTEGER + 2) } }, 'pagination.page'],
    ];
    for (const [query, field] of cases) {
      const res = await search(query);
      expect([field, res.status, res.body.error?.name]).toEqual([field, 400, 'ValidationError']);
      expect(res.body.error.details.errors[0].path).toEqual([field]);
    }
    expect((await search({ q: 'x'.repeat(200) })).status).toBe(200);
    expect((await search({ q: 'walrus', pagination: { pageSize: '100' } })).status).toBe(200);
    // The largest page accepted is an empty page, whatever the page size.
    const last = await search({ q: 'walrus', pagination: { page: String(Number.MAX_SAFE_INTEGER), pageSize: '100' } });
    expect([last.status, last.body.data]).toEqual([200, []]);
    expect(last.body.meta.pagination).toMatchObject({ page: Number.MAX_SAFE_INTEGER, total: 2 });
  });

  it('pages the results', async () => {
    for (let i = 0; i < 5; i += 1) await article({ slug: `pager-${i}`, title: `Zebra ${i}`, content: 'zebra' });
    const first = await search({ q: 'zebra', pagination: { page: '1', pageSize: '2' } });
    expect(first.body.meta.pagination).toEqual({ page: 1, pageSize: 2, pageCount: 3, total: 5 });
    const third = await search({ q: 'zebra', pagination: { page: '3', pageSize: '2' } });
    expect(third.body.data).toHaveLength(1);
    const all = [first, await search({ q: 'zebra', pagination: { page: '2', pageSize: '2' } }), third].flatMap(
      (res) => (res.body.data as Hit[]).map((hit) => hit.slug),
    );
    // Equal scores: the newest publication first.
    expect(all).toEqual(['pager-4', 'pager-3', 'pager-2', 'pager-1', 'pager-0']);
    const beyond = await search({ q: 'zebra', pagination: { page: '4', pageSize: '2' } });
    expect(beyond.body.data).toEqual([]);
  });

  it('walks the matches through the index: SQLite through the narrow article index, PostgreSQL through the GIN index', async () => {
    await article({ slug: 'plan-probe', title: 'Quokka', content: 'quokka' });
    const knex = app.strapi.db.connection;
    const statements: { sql: string; bindings: unknown[] }[] = [];
    const listener = (query: { sql: string; bindings: unknown[] }) => {
      if (query.sql.includes(isPostgres() ? 'plainto_tsquery(' : ' MATCH ')) statements.push(query);
    };
    knex.on('query', listener);
    try {
      expect(await slugs({ q: 'quokka' })).toEqual(['plan-probe']);
    } finally {
      knex.removeListener('query', listener);
    }
    if (isPostgres()) {
      // One statement ranks the matches, counts them (`count(*) OVER ()`) and reads the page's rows and highlights.
      expect(statements).toHaveLength(1);
      expect(statements[0].sql).toContain('count(*) OVER ()');
      expect(statements[0].sql).toContain('ts_headline(');
      // With a handful of rows the planner prefers to filter each article's entry by its key: with those plans
      // priced out (sequential and plain index scans, nested loops), the match must be served by the GIN index (one
      // it cannot serve, such as a tsvector computed per row, would leave only a scan).
      const explain = (options: string) =>
        knex.transaction(async (trx: any) => {
          for (const scan of ['seqscan', 'indexscan', 'nestloop']) await trx.raw(`SET LOCAL enable_${scan} = off`);
          // The logged statement numbers its placeholders ($1…) as the driver receives them; knex.raw wants `?`.
          const sql = statements[0].sql.replace(/\$\d+/g, '?');
          const plan = (await trx.raw(`EXPLAIN ${options} ${sql}`, statements[0].bindings)) as { rows: Record<string, unknown>[] };
          return plan.rows.map((row) => row['QUERY PLAN']);
        });
      expect((await explain('')).join('\n')).toMatch(/Bitmap Index Scan on bag_search_index_document/);
      // The matches are ranked and counted as narrow rows: neither the window counting them nor what it reads carries
      // a tsvector (~3.4 KB per article, which spilled to temporary files at 1,700 matches).
      type Node = { 'Node Type': string; Output?: string[]; Plans?: Node[] };
      const [[{ Plan: root }]] = (await explain('(VERBOSE, FORMAT JSON)')) as unknown as [[{ Plan: Node }]];
      const windows: Node[] = [];
      const walk = (node: Node) => {
        if (node['Node Type'] === 'WindowAgg') windows.push(node);
        node.Plans?.forEach(walk);
      };
      walk(root);
      expect(windows).toHaveLength(1);
      const carried = [windows[0], ...(windows[0].Plans ?? [])].flatMap((node) => node.Output ?? []);
      expect(carried.length).toBeGreaterThan(0);
      // (EXPLAIN names a column `s.document`; a computed rank shows its expression, `ts_rank(…, s.document, …)`.)
      expect(carried.filter((column) => /^\w+\.document$/.test(column))).toEqual([]);
      return;
    }
    // One statement ranks the matches, counts them (`count(*) OVER ()` around the bm25 subquery) and reads the page's
    // highlights: the matches are walked once, and must reach the article table through the covering index.
    expect(statements).toHaveLength(1);
    expect(statements[0].sql).toContain('count(*) OVER ()');
    expect(statements[0].sql).toContain('highlight(');
    for (const statement of statements) {
      const plan = (await knex.raw(`EXPLAIN QUERY PLAN ${statement.sql}`, statement.bindings)) as { detail: string }[];
      const details = plan.map((row) => row.detail).join('\n');
      expect(details).toMatch(/USING COVERING INDEX bag_search_articles/);
    }
  });

  describe('follows every write at once', () => {
    it('Document Service: create+publish, update+publish, unpublish, discardDraft, delete', async () => {
      const doc = await article({ slug: 'life-cycle', title: 'Octopus first', content: 'tentacles' });
      expect(await slugs({ q: 'octopus' })).toEqual(['life-cycle']);

      // A draft edit alone changes nothing; its publication does.
      await documents(ARTICLE).update({ documentId: doc.documentId, locale: 'en', data: { title: 'Squid second' } });
      expect(await slugs({ q: 'squid' })).toEqual([]);
      expect(await slugs({ q: 'octopus' })).toEqual(['life-cycle']);
      await documents(ARTICLE).publish({ documentId: doc.documentId, locale: 'en' });
      expect(await slugs({ q: 'squid' })).toEqual(['life-cycle']);
      expect(await slugs({ q: 'octopus' })).toEqual([]);

      // discardDraft brings the draft back to the published text: the index keeps the published text.
      await documents(ARTICLE).update({ documentId: doc.documentId, locale: 'en', data: { title: 'Cuttlefish draft' } });
      await documents(ARTICLE).discardDraft({ documentId: doc.documentId, locale: 'en' });
      expect(await slugs({ q: 'squid' })).toEqual(['life-cycle']);
      expect(await slugs({ q: 'cuttlefish' })).toEqual([]);

      await documents(ARTICLE).unpublish({ documentId: doc.documentId, locale: 'en' });
      expect(await slugs({ q: 'squid' })).toEqual([]);
      await documents(ARTICLE).publish({ documentId: doc.documentId, locale: 'en' });
      expect(await slugs({ q: 'squid' })).toEqual(['life-cycle']);

      await documents(ARTICLE).delete({ documentId: doc.documentId, locale: '*' });
      expect(await slugs({ q: 'squid' })).toEqual([]);
    });

    it('Query Engine and raw SQL writes', async () => {
      const doc = await article({ slug: 'engine', title: 'Lobster', content: 'claws' });
      const published = await app.strapi.db.query(ARTICLE).findOne({ where: { documentId: doc.documentId, publishedAt: { $notNull: true } } });
      await app.strapi.db.query(ARTICLE).update({ where: { id: published.id }, data: { title: 'Crab' } });
      expect(await slugs({ q: 'crab' })).toEqual(['engine']);
      expect(await slugs({ q: 'lobster' })).toEqual([]);

      const { tableName } = app.strapi.db.metadata.get(ARTICLE);
      await app.strapi.db.connection(tableName).where({ id: published.id }).update({ content: 'shrimp in raw sql' });
      expect(await slugs({ q: 'shrimp' })).toEqual(['engine']);

      await app.strapi.db.query(ARTICLE).delete({ where: { id: published.id } });
      expect(await slugs({ q: 'crab' })).toEqual([]);
    });

    it('Content Manager: publish and unpublish through the admin HTTP API', async () => {
      const token = await adminToken(app);
      const doc = await article({ slug: 'cm', title: 'Narwhal', content: 'horn' }, { publish: false });
      expect(await slugs({ q: 'narwhal' })).toEqual([]);
      const base = `/content-manager/collection-types/${ARTICLE}/${doc.documentId}`;
      const publish = await app.request().post(`${base}/actions/publish?locale=en`).set('Authorization', `Bearer ${token}`).send({});
      expect(publish.status).toBe(200);
      expect(await slugs({ q: 'narwhal' })).toEqual(['cm']);
      const unpublish = await app
        .request()
        .post(`${base}/actions/unpublish?locale=en`)
        .set('Authorization', `Bearer ${token}`)
        .send({});
      expect(unpublish.status).toBe(200);
      expect(await slugs({ q: 'narwhal' })).toEqual([]);
    });
  });

  it('rebuilds a lost index at start-up', async () => {
    const sql = isPostgres()
      ? ['DROP TRIGGER IF EXISTS bag_search_sync ON bag_articles', 'DELETE FROM bag_search_index']
      : ['DROP TRIGGER IF EXISTS bag_search_ai', 'DROP TRIGGER IF EXISTS bag_search_au', 'DELETE FROM bag_search_fts'];
    for (const statement of sql) await app.strapi.db.connection.raw(statement);
    // Written while the index was gone.
    await article({ slug: 'while-down', title: 'Manatee', content: 'slow' });
    expect(await slugs({ q: 'walrus' })).toEqual([]);
    expect(await slugs({ q: 'manatee' })).toEqual([]);

    await app.stop({ keepDatabase: true });
    app = await setupStrapi({ databaseFile: app.databaseFile });
    expect(await slugs({ q: 'walrus' })).toEqual(['title-match', 'content-match']);
    expect(await slugs({ q: 'manatee' })).toEqual(['while-down']);
    // The triggers are back too.
    await article({ slug: 'after-restart', title: 'Dugong', content: 'sea cow' });
    expect(await slugs({ q: 'dugong' })).toEqual(['after-restart']);
  });

  it('builds the index of a large existing database in the background, then finds every article', async () => {
    const { tableName } = app.strapi.db.metadata.get(ARTICLE);
    const knex = app.strapi.db.connection;
    const sql = isPostgres()
      ? ['DROP TRIGGER IF EXISTS bag_search_sync ON bag_articles']
      : ['DROP TRIGGER IF EXISTS bag_search_ai', 'DROP TRIGGER IF EXISTS bag_search_au', 'DROP TRIGGER IF EXISTS bag_search_ad'];
    for (const statement of sql) await knex.raw(statement);
    // Over the background threshold (5,000): published rows written with the triggers off, as before an upgrade.
    const now = new Date();
    const rows = Array.from({ length: 5_001 }, (_, i) => ({
      document_id: `bulk${String(i).padStart(20, '0')}`,
      title: `Bulk ${i} capybara`,
      slug: `bulk-${i}`,
      content: i === 4_999 ? 'the last one mentions an axolotl' : 'plain',
      locale: 'en',
      published_at: now,
      created_at: now,
      updated_at: now,
    }));
    await knex.transaction(async (trx) => {
      for (let i = 0; i < rows.length; i += 100) await trx(tableName).insert(rows.slice(i, i + 100));
    });
    expect(await slugs({ q: 'axolotl' })).toEqual([]);

    await app.stop({ keepDatabase: true });
    app = await setupStrapi({ databaseFile: app.databaseFile });
    await app.strapi.plugin('cms-plugin-bag').service('search').building();
    expect(await slugs({ q: 'axolotl' })).toEqual(['bulk-4999']);
    const all = await search({ q: 'capybara', pagination: { pageSize: '1' } });
    expect(all.body.meta.pagination.total).toBe(5_001);
  });
});
