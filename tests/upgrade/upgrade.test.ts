/**
 * Upgrade from the previous release on the same database (SQLite, or PostgreSQL with DATABASE_CLIENT=postgres).
 *
 * The previous release is its packed tarball (tests/upgrade/fixtures, built from its git tag by
 * scripts/previous-release.mjs), unpacked into .tmp/…/node_modules/cms-plugin-bag as `npm install` would, and booted
 * in the playground through CMS_BAG_PLUGIN_DIR. It is seeded through its Document Service and its HTTP routes
 * (draft, modified and published articles with category, tags, author and cover; pages; banners; nested menus whose
 * items link articles and pages; comment threads with likes and reports; views), an administrator revokes one
 * Users & Permissions action, and Strapi stops keeping the database. The current build then starts on it, and every
 * row, relation, counter, grant and public answer is compared with what the previous release had and answered.
 */
import { execFileSync } from 'child_process';
import crypto from 'crypto';
import fs from 'fs';
import path from 'path';
import type { Core } from '@strapi/strapi';
import { defaultGrants } from '../../server/src/routes/content-api';
import { adminToken, createUser, jwtFor, setPermission } from '../helpers/fixtures';
import { PLUGIN, ROOT, internalModels, removeDatabase, setupStrapi, type TestApp } from '../helpers/strapi';

const FIXTURES = path.join(__dirname, 'fixtures');
const PREVIOUS = JSON.parse(fs.readFileSync(path.join(FIXTURES, 'previous-release.json'), 'utf8')) as { tag: string; tarball: string; sha256: string };

const LOCALIZED = ['article', 'banner', 'category', 'menu', 'menu-item', 'page', 'tag'].map((type) => `${PLUGIN}.${type}`);
const ARTICLE = `${PLUGIN}.article`;
const PAGE = `${PLUGIN}.page`;
const ITEM = `${PLUGIN}.menu-item`;
/**
 * Models whose tables (and join tables) are compared row by row, besides every model of the plugin. Users &
 * Permissions' permission table changes by design (grants of new actions): it is compared by action.
 */
const HOST_MODELS = ['plugin::upload.file', 'plugin::users-permissions.user', 'plugin::users-permissions.role', 'plugin::i18n.locale'];

/** The same configuration for both releases (keys both know). */
const CONFIG = {
  rateLimit: {
    comment: { interval: '1h', max: 1000 },
    reaction: { interval: '1h', max: 1000 },
    report: { interval: '1h', max: 1000 },
  },
};
/** SITE_URL empty: the playground adds no `site` key, which the previous release's configuration does not know. */
const ENV = { PROXY_TRUST: 'true', SITE_URL: '' };
/**
 * Tables whose row count an upgrade changes by design: the host's settings store (the host adds its own keys on a
 * later start; every key is kept), and the Users & Permissions grants of actions new to this release.
 */
const CHANGED_BY_DESIGN = ['strapi_core_store_settings', 'up_permissions', 'up_permissions_role_lnk'];
/** Admin roles' permissions: the host adds the Super Admin's for content types new in a release (checked below). */
const ADMIN_PERMISSION_TABLES = ['admin_permissions', 'admin_permissions_role_lnk'];
/** Content types new since the previous release: the host gives the Super Admin role their Content Manager actions. */
const NEW_TYPES = ['redirect', 'newsletter'];
/** Plugin admin actions new since the previous release (no subject): the host gives them to the Super Admin role. */
const NEW_ADMIN_ACTIONS = ['import.content', 'newsletters.send'];
/**
 * Columns of a content type's table that the internal tables (server/src/models: content types in the previous
 * release, database models now) do not keep: an upgrade drops them, and every other column keeps its value.
 */
const CONTENT_TYPE_COLUMNS = ['document_id', 'published_at', 'locale', 'created_by_id', 'updated_by_id'];

/** The action an administrator revokes on the previous release: guests may no longer comment. */
const REVOKED = { role: 'public', action: 'comment.create' };
/**
 * An action the previous release is made not to know: its grant and its key in the granted-actions store are
 * removed before the upgrade, as if the route were new in this release (none is new in this one yet).
 */
const UNKNOWN_BEFORE = { role: 'authenticated', action: 'comment-feedback.unlike' };

type Row = Record<string, unknown>;
interface Snapshot {
  tables: Record<string, Row[]>;
  /** Rows per table, for every table of the database. */
  counts: Record<string, number>;
  storeKeys: string[];
  /** `role type → sorted actions` of Users & Permissions. */
  permissions: Record<string, string[]>;
  /** Admin permissions per subject (content type). */
  adminSubjects: Record<string, number>;
  granted: string[];
  /** Documents per localized type and status, as the Document Service lists them. */
  documents: Record<string, { draft: string[]; published: string[] }>;
  responses: Record<string, unknown>;
}

/** The tables of these models and of their relations (join tables, the media morph table). */
function tablesOf(strapi: Core.Strapi, uids: string[]): string[] {
  const names = new Set<string>();
  for (const uid of uids) {
    const meta = strapi.db.metadata.get(uid as never) as unknown as { tableName: string; attributes: Record<string, { joinTable?: { name: string } }> };
    names.add(meta.tableName);
    for (const attribute of Object.values(meta.attributes)) if (attribute.joinTable) names.add(attribute.joinTable.name);
  }
  return [...names].sort();
}

/** Every table of the plugin's and HOST_MODELS' models, but Users & Permissions' permission table and its links. */
const comparedTables = (strapi: Core.Strapi) => {
  const permissions = new Set(tablesOf(strapi, ['plugin::users-permissions.permission']));
  return tablesOf(strapi, [...pluginModels(strapi), ...HOST_MODELS]).filter((table) => !permissions.has(table));
};

const pluginModels = (strapi: Core.Strapi) => Object.keys(strapi.contentTypes).filter((uid) => uid.startsWith(`${PLUGIN}.`)).sort();

async function readTables(strapi: Core.Strapi, tables: string[]): Promise<Record<string, Row[]>> {
  const result: Record<string, Row[]> = {};
  for (const table of tables) result[table] = await strapi.db.connection(table).select('*').orderBy('id', 'asc');
  return result;
}

async function countRows(strapi: Core.Strapi): Promise<Record<string, number>> {
  const tables: string[] = await (strapi.db.dialect as unknown as { schemaInspector: { getTables(): Promise<string[]> } }).schemaInspector.getTables();
  const counts: Record<string, number> = {};
  for (const table of tables.sort()) {
    const [{ n }] = await strapi.db.connection(table).count({ n: '*' });
    counts[table] = Number(n);
  }
  return counts;
}

async function countAdminSubjects(strapi: Core.Strapi): Promise<Record<string, number>> {
  const rows = (await strapi.db.connection('admin_permissions').select('subject').count({ n: '*' }).groupBy('subject')) as unknown as {
    subject: string | null;
    n: number | string;
  }[];
  return Object.fromEntries(rows.map((row) => [String(row.subject), Number(row.n)]));
}

async function readPermissions(strapi: Core.Strapi): Promise<Record<string, string[]>> {
  const roles = await strapi.db.query('plugin::users-permissions.role').findMany({ populate: ['permissions'] });
  return Object.fromEntries(
    roles.map((role: { type: string; permissions: { action: string }[] }) => [role.type, role.permissions.map((p) => p.action).sort()])
  );
}

const grantedStore = (strapi: Core.Strapi) => strapi.store({ type: 'plugin', name: 'cms-plugin-bag', key: 'granted-actions' });

async function readDocuments(strapi: Core.Strapi) {
  const result: Snapshot['documents'] = {};
  for (const uid of LOCALIZED) {
    const list = async (status: 'draft' | 'published') =>
      ((await strapi.documents(uid as never).findMany({ status, fields: ['documentId'], limit: 10_000 } as never)) as { documentId: string }[])
        .map((doc) => doc.documentId)
        .sort();
    result[uid] = { draft: await list('draft'), published: await list('published') };
  }
  return result;
}

/**
 * Keys left out of the compared answers: `locale` and `localizations` (on details) and a comment node's `editedAt`,
 * `pinned`, `deleted` and `contentHtml`, and an article's `commentCount` and a detail's `meta.jsonLd`, which the current release adds,
 * and `views`, which each detail read
 * changes (the stored counts are compared with the rows, and counted on by their own test).
 */
const IGNORED = ['locale', 'localizations', 'views', 'editedAt', 'pinned', 'deleted', 'contentHtml', 'commentCount', 'jsonLd'];

/** Columns the current release adds to tables the previous one had: empty (null) on every upgraded row, but the HTML rendered in the background. */
const ADDED_COLUMNS: Record<string, string[]> = {
  bag_comments: ['author_name', 'content_html', 'deleted', 'edited_at', 'followers_notified_at', 'pinned_at'],
};

/**
 * What `npm install <tarball>` nests: a dependency of the previous release that the repository's tree has at another
 * version gets its own copy under the package (its zod 3 beside the current release's zod 4). The repository installs
 * each such version under the alias `<name>-v<major>` (package.json's devDependencies); it is linked in as `<name>`.
 */
function nestOwnVersions(pluginDir: string) {
  type Manifest = { version: string; dependencies?: Record<string, string> };
  const readManifest = (dir: string) => JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as Manifest;
  const manifest = readManifest(pluginDir);
  const versionIn = (dir: string) => readManifest(dir).version;
  for (const [name, version] of Object.entries(manifest.dependencies ?? {})) {
    const hoisted = path.join(ROOT, 'node_modules', name);
    if (fs.existsSync(hoisted) && versionIn(hoisted) === version) continue;
    const alias = path.join(ROOT, 'node_modules', `${name}-v${version.split('.')[0]}`);
    if (!fs.existsSync(alias) || versionIn(alias) !== version) {
      const wanted = `"${path.basename(alias)}": "npm:${name}@${version}"`;
      throw new Error(`the previous release needs ${name}@${version}: add ${wanted} to devDependencies`);
    }
    fs.mkdirSync(path.join(pluginDir, 'node_modules'), { recursive: true });
    fs.symlinkSync(alias, path.join(pluginDir, 'node_modules', name), 'dir');
  }
}

/** The answer without the IGNORED keys (a detail's `meta`, which held only `jsonLd`, goes with it when left empty). */
function strip(value: unknown, keys: string[]): unknown {
  if (Array.isArray(value)) return value.map((item) => strip(item, keys));
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([key]) => !keys.includes(key))
        .map(([key, item]) => [key, strip(item, keys)] as const)
        .filter(([key, item]) => !(key === 'meta' && item && typeof item === 'object' && Object.keys(item).length === 0)),
    );
  }
  return value;
}

describe(`upgrade from the previous release (${PREVIOUS.tag}) on the same database`, () => {
  const installDir = path.join(ROOT, '.tmp', `upgrade-${process.pid}-${crypto.randomBytes(3).toString('hex')}`);
  const previousPlugin = path.join(installDir, 'node_modules', 'cms-plugin-bag');
  let databaseFile: string | undefined;
  let app: TestApp;
  let before: Snapshot;
  /** Public GETs compared across the upgrade. */
  const reads: string[] = [];
  const seeded = {} as {
    modified: { documentId: string };
    draftOnly: { documentId: string };
    cover: number;
    demoUser: { id: number };
    commented: string;
    rootComment: number;
  };

  const read = (target: TestApp, url: string) => target.request().get(url);

  beforeAll(async () => {
    // The tarball scripts/previous-release.mjs built from the tag, as its provenance file records.
    const tarball = fs.readFileSync(path.join(FIXTURES, PREVIOUS.tarball));
    expect(crypto.createHash('sha256').update(tarball).digest('hex')).toBe(PREVIOUS.sha256);
    // `npm install <tarball>`'s layout: the package's own dependencies resolve up to the repository's node_modules,
    // or, at a version the repository has another one of, from a copy nested in the package.
    fs.mkdirSync(previousPlugin, { recursive: true });
    execFileSync('tar', ['-xzf', path.join(FIXTURES, PREVIOUS.tarball), '-C', previousPlugin, '--strip-components=1']);
    nestOwnVersions(previousPlugin);

    // A fresh database: the run's template database was made by this build, not by the previous release.
    const old = await setupStrapi({ fresh: true, seed: true, config: CONFIG, env: { ...ENV, CMS_BAG_PLUGIN_DIR: previousPlugin } });
    databaseFile = old.databaseFile;
    try {
      await seedPrevious(old);
      before = await snapshot(old);
    } finally {
      await old.stop({ keepDatabase: true });
    }
    app = await setupStrapi({ databaseFile, config: CONFIG, env: ENV });
  }, 240_000);

  afterAll(async () => {
    if (app) await app.stop();
    else if (databaseFile) await removeDatabase(databaseFile);
    fs.rmSync(installDir, { recursive: true, force: true });
  });

  async function seedPrevious(old: TestApp) {
    const { strapi } = old;
    // The previous release is what booted: its content types are not localized yet.
    expect(strapi.plugin('cms-plugin-bag').service('locales')).toBeUndefined();
    expect((strapi.getModel(ARTICLE as never) as { pluginOptions?: { i18n?: unknown } }).pluginOptions?.i18n).toBeUndefined();

    const docs = (uid: string) => strapi.documents(uid as never);
    const demoUser = await strapi.db.query('plugin::users-permissions.user').findOne({ where: { username: 'demo' } });
    seeded.demoUser = { id: demoUser.id };
    const cover = await strapi.db.query('plugin::upload.file').create({
      data: { name: 'cover.png', hash: 'cover_upgrade', ext: '.png', mime: 'image/png', size: 1.5, width: 4, height: 3, url: '/uploads/cover_upgrade.png', provider: 'local' },
    });
    seeded.cover = cover.id;
    const category = await docs(`${PLUGIN}.category`).create({ data: { title: 'Archive', slug: 'archive' } as never });
    const tag = await docs(`${PLUGIN}.tag`).create({ data: { title: 'Legacy', slug: 'legacy' } as never });
    const relations = { category: category.documentId, tags: [tag.documentId], author: demoUser.documentId, cover: cover.id };

    // Published, then edited as a draft: two rows that differ.
    const modified = await docs(ARTICLE).create({
      data: { title: 'Upgrade article', slug: 'upgrade-article', summary: 'Published before the upgrade.', isTop: true, ...relations } as never,
    });
    await docs(ARTICLE).publish({ documentId: modified.documentId });
    await docs(ARTICLE).update({ documentId: modified.documentId, data: { title: 'Upgrade article (edited draft)' } as never });
    seeded.modified = { documentId: modified.documentId };
    const draftOnly = await docs(ARTICLE).create({ data: { title: 'Never published', slug: 'never-published', ...relations } as never });
    seeded.draftOnly = { documentId: draftOnly.documentId };
    await docs(PAGE).create({ data: { title: 'Draft page', slug: 'draft-page', content: 'Not yet.' } as never });
    await docs(`${PLUGIN}.banner`).create({ data: { title: 'Draft banner', link: '/draft', order: 5, group: 'home' } as never });

    // A second menu whose items use the playground's extension: an article and pages.
    const about = await docs(PAGE).findFirst({ filters: { slug: 'about' } } as never);
    const footer = await docs(`${PLUGIN}.menu`).create({ data: { title: 'Footer', slug: 'footer' } as never });
    const readItem = await docs(ITEM).create({
      data: { title: 'Read', url: '/read', order: 0, menu: footer.documentId, badge: 'new', article: modified.documentId, pages: [about!.documentId] } as never,
    });
    await docs(ITEM).create({ data: { title: 'Read more', url: '/read/more', order: 0, menu: footer.documentId, parent: readItem.documentId, target: '_blank' } as never });
    await docs(ITEM).create({ data: { title: 'Contact', url: '/contact', order: 1, menu: footer.documentId, isHot: true, pages: [about!.documentId] } as never });

    // Comments through the previous release's routes: a guest, a user, replies, moderation, likes and a report.
    const admin = `Bearer ${await adminToken(old)}`;
    const user = await createUser(strapi);
    const userAuth = `Bearer ${jwtFor(strapi, user)}`;
    seeded.commented = modified.documentId;
    const post = (body: Record<string, unknown>, auth?: string, ip = '198.51.100.1') => {
      const req = old.request().post('/api/bag/comments').set('X-Forwarded-For', ip).set('User-Agent', 'UpgradeTest/1.0');
      return (auth ? req.set('Authorization', auth) : req).send(body).expect((res) => {
        if (res.status !== 201) throw new Error(`POST /api/bag/comments: ${res.status} ${JSON.stringify(res.body)}`);
      });
    };
    const status = (documentIds: string[], value: string) =>
      old.request().put('/cms-plugin-bag/comments/status').set('Authorization', admin).send({ documentIds, status: value }).expect(200);
    // Replies only to approved comments: each one is approved before it is answered.
    const root = (await post({ content: 'Guest root', article: modified.documentId })).body.data;
    const userRoot = (await post({ content: 'User root', article: modified.documentId }, userAuth)).body.data;
    await status([root.documentId, userRoot.documentId], 'approved');
    const reply = (await post({ content: 'Reply', article: modified.documentId, parent: root.documentId }, userAuth)).body.data;
    await status([reply.documentId], 'approved');
    const nested = (await post({ content: 'Reply to the reply', article: modified.documentId, parent: reply.documentId }, undefined, '198.51.100.2')).body.data;
    await status([nested.documentId], 'approved');
    const rejected = (await post({ content: 'Rejected', article: modified.documentId }, undefined, '198.51.100.3')).body.data;
    await status([rejected.documentId], 'rejected');
    await post({ content: 'Still pending', article: modified.documentId }, undefined, '198.51.100.4');
    seeded.rootComment = root.id;
    for (const ip of ['203.0.113.1', '203.0.113.2']) await old.request().post(`/api/bag/comments/${root.id}/like`).set('X-Forwarded-For', ip).expect(200);
    await old.request().post(`/api/bag/comments/${reply.id}/like`).set('Authorization', userAuth).expect(200);
    await old.request().post(`/api/bag/comments/${userRoot.id}/report`).set('Authorization', `Bearer ${jwtFor(strapi, demoUser)}`).send({ reason: 'spam' }).expect(200);

    // Views: three reads of the article, two of the page.
    for (let i = 0; i < 3; i += 1) await read(old, '/api/bag/articles/upgrade-article').expect(200);
    for (let i = 0; i < 2; i += 1) await read(old, '/api/bag/pages/about').expect(200);

    // The administrator revokes one default grant; another is made unknown to the previous release.
    await setPermission(strapi, REVOKED.role, `plugin::cms-plugin-bag.${REVOKED.action}`, false);
    await setPermission(strapi, UNKNOWN_BEFORE.role, `plugin::cms-plugin-bag.${UNKNOWN_BEFORE.action}`, false);
    const granted = ((await grantedStore(strapi).get({})) as string[]).filter((key) => key !== `${UNKNOWN_BEFORE.role}:${UNKNOWN_BEFORE.action}`);
    await grantedStore(strapi).set({ value: granted });

    reads.push(
      '/api/bag/articles?pagination[pageSize]=100',
      '/api/bag/pages',
      '/api/bag/banners',
      '/api/bag/banners/home',
      '/api/bag/categories',
      '/api/bag/tags',
      '/api/bag/menus/main',
      '/api/bag/menus/footer',
      `/api/bag/articles/${modified.documentId}/comments`,
      `/api/bag/articles/${modified.documentId}/comments?sort=top&pagination[pageSize]=1`,
      `/api/bag/comments/${root.id}/replies`,
      `/api/bag/comments/${reply.id}/replies`,
      `/api/bag/comments/counts?articles=${modified.documentId},${draftOnly.documentId}`
    );
    const demoArticles = (await read(old, '/api/bag/articles?pagination[pageSize]=100').expect(200)).body.data as { documentId: string }[];
    reads.push(`/api/bag/comments/counts?articles=${demoArticles.map((a) => a.documentId).join(',')}`);
    reads.push('/api/bag/articles/upgrade-article', '/api/bag/articles/demo-article-1', '/api/bag/pages/about');
  }

  async function snapshot(target: TestApp): Promise<Snapshot> {
    const { strapi } = target;
    const responses: Record<string, unknown> = {};
    for (const url of reads) {
      const res = await read(target, url);
      expect({ url, status: res.status }).toEqual({ url, status: 200 });
      responses[url] = res.body;
    }
    return {
      tables: await readTables(strapi, comparedTables(strapi)),
      counts: await countRows(strapi),
      storeKeys: (await strapi.db.connection('strapi_core_store_settings').select('key')).map((row: { key: string }) => row.key),
      permissions: await readPermissions(strapi),
      adminSubjects: await countAdminSubjects(strapi),
      granted: (((await grantedStore(strapi).get({})) as string[]) ?? []).slice().sort(),
      documents: await readDocuments(strapi),
      responses,
    };
  }

  it('boots the current release: the seven content types are localized', () => {
    expect(app.strapi.plugin('cms-plugin-bag').service('locales')).toBeDefined();
    for (const uid of LOCALIZED) {
      expect({ uid, i18n: (app.strapi.getModel(uid as never) as { pluginOptions?: { i18n?: unknown } }).pluginOptions?.i18n }).toEqual({
        uid,
        i18n: { localized: true },
      });
    }
  });

  it('keeps every row of every table, relations included; localized rows are in the default locale, none without one', async () => {
    const defaultLocale: string = await app.strapi.plugin('i18n').service('locales').getDefaultLocale();
    expect(defaultLocale).toBe('en');
    const localizedTables = new Set(LOCALIZED.map((uid) => app.strapi.db.metadata.get(uid as never).tableName));
    const internal = new Set(internalModels(app.strapi).map((model) => model.tableName));
    // The previous release's internal tables are among the compared ones.
    expect([...internal].filter((table) => table in before.tables).sort()).toEqual(
      ['bag_captchas', 'bag_comment_reactions', 'bag_comment_reports', 'bag_comment_unsubscribes', 'bag_rate_limits', 'bag_refresh_tokens'].sort()
    );
    const after = await readTables(app.strapi, Object.keys(before.tables));

    for (const [table, rows] of Object.entries(before.tables)) {
      const counts = { table, rows: after[table].length };
      expect(counts).toEqual({ table, rows: rows.length });
      const dropped = internal.has(table) ? CONTENT_TYPE_COLUMNS : [];
      const withoutDropped = (row: Row) => Object.fromEntries(Object.entries(row).filter(([column]) => !dropped.includes(column)));
      const expected = rows.map((row) => withoutDropped(localizedTables.has(table) ? { ...row, locale: defaultLocale } : row));
      if (internal.has(table) && rows.length > 0) {
        const left = CONTENT_TYPE_COLUMNS.filter((column) => after[table].some((row) => column in row));
        expect({ table, left, hadThem: CONTENT_TYPE_COLUMNS.some((column) => column in rows[0]) }).toEqual({ table, left: [], hadThem: true });
      }
      // Columns the current release adds are compared on their own below; every old column keeps its value.
      const added = new Set(ADDED_COLUMNS[table] ?? []);
      const kept = after[table].map((row) => Object.fromEntries(Object.entries(row).filter(([column]) => !added.has(column))));
      expect({ table, rows: kept }).toEqual({ table, rows: expected });
      const newColumns = [...new Set(after[table].flatMap((row) => Object.keys(row)))].filter((column) => !(rows[0] && column in rows[0]));
      if (rows.length > 0) expect({ table, newColumns: newColumns.sort() }).toEqual({ table, newColumns: [...added].sort() });
      for (const row of after[table]) {
        for (const column of added) {
          // The comments' HTML is rendered in the background after start-up: not yet, or the rendered content.
          const value = column === 'content_html' && typeof row[column] === 'string' ? expect.stringContaining('<p>') : null;
          expect({ table, column, value: row[column] }).toEqual({ table, column, value });
        }
      }
    }
    // Drafts and published rows both, of every localized type.
    for (const uid of LOCALIZED) {
      const { tableName } = app.strapi.db.metadata.get(uid as never);
      const rows = after[tableName];
      expect({ uid, withoutLocale: rows.filter((row) => row.locale !== defaultLocale).length }).toEqual({ uid, withoutLocale: 0 });
      if ((app.strapi.getModel(uid as never) as { options?: { draftAndPublish?: boolean } }).options?.draftAndPublish) {
        expect({ uid, drafts: rows.some((row) => row.published_at === null) }).toEqual({ uid, drafts: true });
        expect({ uid, published: rows.some((row) => row.published_at !== null) }).toEqual({ uid, published: true });
      }
    }
    // The seeded relations are among the compared join rows.
    const article = await app.strapi.documents(ARTICLE as never).findOne({
      documentId: seeded.modified.documentId,
      status: 'draft',
      populate: ['category', 'tags', 'author', 'cover'],
    } as never);
    expect(article).toMatchObject({
      title: 'Upgrade article (edited draft)',
      locale: 'en',
      category: { slug: 'archive' },
      tags: [{ slug: 'legacy' }],
      cover: { id: seeded.cover },
    });
    const draftOnly = { documentId: seeded.draftOnly.documentId, populate: ['category', 'tags', 'cover'] };
    expect(await app.strapi.documents(ARTICLE as never).findOne({ ...draftOnly, status: 'draft' } as never)).toMatchObject({
      title: 'Never published',
      locale: 'en',
      category: { slug: 'archive' },
      tags: [{ slug: 'legacy' }],
      cover: { id: seeded.cover },
    });
    expect(await app.strapi.documents(ARTICLE as never).findOne({ ...draftOnly, status: 'published' } as never)).toBeNull();
    const item = await app.strapi.documents(ITEM as never).findFirst({ filters: { title: 'Read' }, populate: ['menu', 'article', 'pages', 'parent', 'children'] } as never);
    expect(item).toMatchObject({ locale: 'en', menu: { slug: 'footer' }, article: { slug: 'upgrade-article' }, pages: [{ slug: 'about' }], parent: null, children: [{ title: 'Read more' }] });
  });

  it('keeps the row count of every table of the database, but the tables the host and the grants write by design', async () => {
    const after = await countRows(app.strapi);
    const changed = Object.keys(before.counts).filter((table) => after[table] !== before.counts[table]);
    expect(changed.filter((table) => !CHANGED_BY_DESIGN.includes(table) && !ADMIN_PERMISSION_TABLES.includes(table))).toEqual([]);
    // The host gives the Super Admin role the Content Manager actions of the content types new in this release (the
    // editors' `redirect`), and removes those of the internal types, which are database models now: no other admin
    // permission changes.
    const subjects = await countAdminSubjects(app.strapi);
    const newTypes = NEW_TYPES.map((name) => `${PLUGIN}.${name}`);
    const internalUids = internalModels(app.strapi).map((model) => model.uid);
    for (const subject of new Set([...Object.keys(before.adminSubjects), ...Object.keys(subjects)])) {
      const count = { subject, before: before.adminSubjects[subject] ?? 0, after: subjects[subject] ?? 0 };
      if (newTypes.includes(subject)) expect(count).toEqual({ ...count, before: 0, after: expect.any(Number) });
      else if (internalUids.includes(subject)) expect(count).toEqual({ ...count, after: 0 });
      else if (subject === 'null') expect(count).toEqual({ ...count, after: count.before + NEW_ADMIN_ACTIONS.length });
      else expect(count).toEqual({ ...count, after: count.before });
    }
    expect(newTypes.map((subject) => subjects[subject] ?? 0).every((n) => n > 0)).toBe(true);
    expect(internalUids.some((subject) => (before.adminSubjects[subject] ?? 0) > 0)).toBe(true);
    const added = after.admin_permissions - before.counts.admin_permissions;
    expect(after.admin_permissions_role_lnk - before.counts.admin_permissions_role_lnk).toBe(added);
    expect(Object.keys(after)).toEqual(expect.arrayContaining(Object.keys(before.counts)));
    // Every key of the settings store is kept, but the Content Manager's configurations of the internal types (no
    // content types any more), which it removes itself.
    const keys = (await app.strapi.db.connection('strapi_core_store_settings').select('key')).map((row: { key: string }) => row.key);
    const internalConfigurations = internalUids.map((uid) => `plugin_content_manager_configuration_content_types::${uid}`);
    expect(before.storeKeys.filter((key) => internalConfigurations.includes(key))).not.toEqual([]);
    expect(keys.filter((key) => internalConfigurations.includes(key))).toEqual([]);
    expect(keys).toEqual(expect.arrayContaining(before.storeKeys.filter((key) => !internalConfigurations.includes(key))));
  });

  it('lists every document of every localized type, draft and published, through the Document Service', async () => {
    expect(await readDocuments(app.strapi)).toEqual(before.documents);
  });

  it('answers every public read as the previous release did, apart from the new `locale` and `localizations` keys', async () => {
    for (const url of reads) {
      const res = await read(app, url);
      expect({ url, status: res.status }).toEqual({ url, status: 200 });
      expect({ url, body: strip(res.body, IGNORED) }).toEqual({ url, body: strip(before.responses[url], IGNORED) });
    }
  });

  it('keeps the view counters and counts one per read on every row of the document', async () => {
    const viewsOf = async () =>
      (await app.strapi.db.query(ARTICLE as never).findMany({ where: { documentId: seeded.modified.documentId }, select: ['views'] })).map(
        (row: { views: number }) => row.views
      );
    // The counts the previous release left are compared with every other column by the row test.
    const [start, other] = await viewsOf();
    expect(start).toBeGreaterThanOrEqual(3);
    expect(other).toBe(start);
    const first = await read(app, '/api/bag/articles/upgrade-article').expect(200);
    expect(first.body.data).toMatchObject({ views: start + 1, locale: 'en' });
    const second = await read(app, '/api/bag/articles/upgrade-article').expect(200);
    expect(second.body.data.views).toBe(start + 2);
    expect(await viewsOf()).toEqual([start + 2, start + 2]);
  });

  it('serves the comment threads: counts right, likes kept, new comments and likes work', async () => {
    const thread = await read(app, `/api/bag/articles/${seeded.commented}/comments`).expect(200);
    expect(thread.body.data.map((node: { content: string }) => node.content).sort()).toEqual(['Guest root', 'User root']);
    const counts = await read(app, `/api/bag/comments/counts?articles=${seeded.commented}`).expect(200);
    expect(counts.body.data).toEqual({ [seeded.commented]: 4 });
    const liked = await app.request().post(`/api/bag/comments/${seeded.rootComment}/like`).set('X-Forwarded-For', '203.0.113.3').expect(200);
    expect(liked.body.data).toMatchObject({ likes: 3, liked: true });
    // The same guest as before the upgrade: still one like.
    const again = await app.request().post(`/api/bag/comments/${seeded.rootComment}/like`).set('X-Forwarded-For', '203.0.113.1').expect(200);
    expect(again.body.data).toMatchObject({ likes: 3, liked: true });
    const auth = `Bearer ${jwtFor(app.strapi, seeded.demoUser)}`;
    await app.request().post('/api/bag/comments').set('Authorization', auth).send({ content: 'After the upgrade', article: seeded.commented }).expect(201);
  });

  it('keeps the Users & Permissions grants: the revoked action stays revoked, an action the previous release did not know is granted', async () => {
    const after = await readPermissions(app.strapi);
    const full = (action: string) => `plugin::cms-plugin-bag.${action}`;
    expect(before.permissions[REVOKED.role]).not.toContain(full(REVOKED.action));
    expect(before.permissions[UNKNOWN_BEFORE.role]).not.toContain(full(UNKNOWN_BEFORE.action));
    expect(after[REVOKED.role]).not.toContain(full(REVOKED.action));

    // Every default grant of this release is held, but the revoked one; nothing the previous release held is lost.
    for (const [role, actions] of Object.entries(defaultGrants)) {
      const expected = actions.filter((action) => !(role === REVOKED.role && action === REVOKED.action)).map(full);
      expect({ role, missing: expected.filter((action) => !after[role].includes(action)) }).toEqual({ role, missing: [] });
      expect({ role, lost: before.permissions[role].filter((action) => !after[role].includes(action)) }).toEqual({ role, lost: [] });
    }
    // Only actions the previous release had not granted were added.
    const granted = ((await grantedStore(app.strapi).get({})) as string[]).slice().sort();
    const newKeys = granted.filter((key) => !before.granted.includes(key));
    expect(newKeys).toContain(`${UNKNOWN_BEFORE.role}:${UNKNOWN_BEFORE.action}`);
    // A route new in this release (the redirects list) is granted to guests and users on the first start.
    expect(newKeys).toEqual(expect.arrayContaining(['public:redirect.find', 'authenticated:redirect.find']));
    // And the second-factor and passkey routes (their Bearer routes answer 401 without a token, not the role's 403).
    expect(newKeys).toEqual(expect.arrayContaining(['public:mfa.finishLogin', 'authenticated:mfa.totpSetup', 'public:passkey.loginOptions']));
    expect((await app.request().get('/api/bag/redirects').expect(200)).body).toEqual({ data: [] });
    for (const role of Object.keys(after)) {
      const added = after[role].filter((action) => !before.permissions[role].includes(action));
      const expectedAdded = newKeys.filter((key) => key.startsWith(`${role}:`)).map((key) => full(key.slice(role.length + 1)));
      expect({ role, added: added.sort() }).toEqual({ role, added: expectedAdded.sort() });
    }
    expect(granted).toEqual(expect.arrayContaining([`${REVOKED.role}:${REVOKED.action}`, ...before.granted]));

    // As the roles say: guests may not comment any more; the unknown action now answers the authenticated.
    await app.request().post('/api/bag/comments').send({ content: 'guest', article: seeded.commented }).expect(403);
    const auth = `Bearer ${jwtFor(app.strapi, seeded.demoUser)}`;
    await app.request().delete(`/api/bag/comments/${seeded.rootComment}/like`).set('Authorization', auth).expect(200);
  });

  it('keeps the administrators: the previous release\'s admin logs in', async () => {
    expect(typeof (await adminToken(app))).toBe('string');
  });
});
