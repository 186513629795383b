/**
 * The host's GraphQL plugin: its generated schema shows of the plugin's types only what REST under
 * /api/bag shows the same caller (anonymous, a user, a read-only API token), internal types are not in it, no
 * generic mutation writes a plugin type, and the host's `register`/`login` mutations take the plugin's captcha and
 * rate limits as `auth.hostRoutes` says. Both plugin orders.
 */
import { AUTH, imageCaptcha, observeCaptchaTexts, setSettings } from '../helpers/auth';
import { ARTICLE, COMMENT, seedComments } from '../helpers/comments';
import { createDocument, createUser, jwtFor, type TestUser } from '../helpers/fixtures';
import { GRAPHQL_ORDERS, graphql, type GraphqlResponse } from '../helpers/graphql';
import { PLUGIN, setupStrapi, type TestApp } from '../helpers/strapi';

const INTERNAL_TYPES = [
  'refresh-token',
  'captcha',
  'rate-limit',
  'comment-reaction',
  'comment-report',
  'comment-unsubscribe',
  'slug-redirect',
  'mfa-factor',
  'mfa-recovery-code',
  'mfa-challenge',
  'passkey',
  'webauthn-challenge',
];
const INTERNAL_LISTS = [
  'cmsPluginBagRefreshTokens',
  'cmsPluginBagCaptchas',
  'cmsPluginBagRateLimits',
  'cmsPluginBagCommentReactions',
  'cmsPluginBagCommentReports',
  'cmsPluginBagCommentUnsubscribes',
  'cmsPluginBagSlugRedirects',
  'cmsPluginBagMfaFactors',
  'cmsPluginBagMfaRecoveryCodes',
  'cmsPluginBagMfaChallenges',
  'cmsPluginBagPasskeys',
  'cmsPluginBagWebauthnChallenges',
];
const LIMIT = { interval: '1m', max: 3 };

/** The request was refused by GraphQL (no data for the field), with the host GraphQL plugin's error shape. */
const expectRefused = (res: GraphqlResponse, field: string) => {
  expect(res.errors?.length).toBeGreaterThan(0);
  expect(res.data?.[field] ?? null).toBeNull();
  for (const error of res.errors ?? []) expect(error.extensions?.code).not.toBe('INTERNAL_SERVER_ERROR');
};

/** Every string anywhere in a response (to look for a leaked draft title or e-mail address). */
const texts = (value: unknown): string[] =>
  typeof value === 'string' ? [value] : value && typeof value === 'object' ? Object.values(value).flatMap(texts) : [];

/** POST /graphql from client `ip` (the app trusts X-Forwarded-For), so each test has its own rate-limit counters. */
const graphqlFrom = async (app: TestApp, ip: string, query: string, variables: Record<string, unknown> = {}) => {
  const res = await app.request().post('/graphql').set('X-Forwarded-For', ip).send({ query, variables });
  return { status: res.status, data: res.body?.data, errors: res.body?.errors as GraphqlResponse['errors'], headers: res.headers };
};

const REGISTER = `mutation ($input: UsersPermissionsRegisterInput!) { register(input: $input) { jwt user { username } } }`;
const LOGIN = `mutation ($input: UsersPermissionsLoginInput!) { login(input: $input) { jwt } }`;
const FORGOT = `mutation ($email: String!) { forgotPassword(email: $email) { ok } }`;

describe.each(GRAPHQL_ORDERS)('GraphQL plugin %s cms-plugin-bag', (order) => {
  let app: TestApp;
  let author: TestUser;
  let reader: TestUser;
  let apiToken: string;
  let captchaTexts: ReturnType<typeof observeCaptchaTexts>;
  const fixture = {
    draftOnly: { documentId: '', title: `Never published ${order}` },
    editedTitle: `Unpublished edit ${order}`,
    published: { documentId: '', title: `Published ${order}` },
    hiddenBanner: `Hidden banner ${order}`,
    visibleBanner: `Visible banner ${order}`,
    pendingComment: `Pending comment ${order}`,
  };

  beforeAll(async () => {
    app = await setupStrapi({
      env: { GRAPHQL: order, PROXY_TRUST: 'true' },
      seed: true,
      config: { rateLimit: { login: LIMIT, register: LIMIT, sendCode: LIMIT } },
    });
    const { strapi } = app;
    captchaTexts = observeCaptchaTexts(strapi);
    author = await createUser(strapi);
    reader = await createUser(strapi);
    const category = await createDocument(strapi, `${PLUGIN}.category`, { title: `Cat ${order}`, slug: `cat-${order}` });
    const tag = await createDocument(strapi, `${PLUGIN}.tag`, { title: `Tag ${order}`, slug: `tag-${order}` });
    const links = { category: category.documentId, tags: [tag.documentId], author: author.documentId };
    const draft = await createDocument(strapi, ARTICLE, { title: fixture.draftOnly.title, slug: `never-${order}`, ...links }, { publish: false });
    fixture.draftOnly.documentId = draft.documentId;
    const published = await createDocument(strapi, ARTICLE, { title: fixture.published.title, slug: `published-${order}`, ...links });
    fixture.published.documentId = published.documentId;
    await strapi.documents(ARTICLE as never).update({ documentId: published.documentId, data: { title: fixture.editedTitle } as never });
    await createDocument(strapi, `${PLUGIN}.banner`, { title: fixture.hiddenBanner, isVisible: false });
    await createDocument(strapi, `${PLUGIN}.banner`, { title: fixture.visibleBanner });
    await seedComments(strapi, published.documentId, [
      { content: fixture.pendingComment, status: 'pending', parentIndex: null },
      { content: `Approved comment ${order}`, status: 'approved', parentIndex: null },
    ]);
    // Rows in the internal tables: a refresh token (a login through the plugin) and a captcha.
    const login = await app.request().post(`${AUTH}/login`).send({ identifier: reader.email, password: reader.password });
    expect(login.status).toBe(200);
    await app.request().get(`${AUTH}/captcha-image`).expect(200);
    const token = await strapi.service('admin::api-token').create({ name: `read-only ${order}`, description: '', type: 'read-only', kind: 'content-api', lifespan: null });
    apiToken = token.accessKey;
  });
  afterAll(async () => {
    await app?.stop();
  });

  const callers: Array<[string, () => string | undefined]> = [
    ['anonymous', () => undefined],
    ['a logged-in user', () => jwtFor(app.strapi, reader)],
    ['a read-only API token', () => apiToken],
  ];

  describe.each(callers)('as %s', (_name, token) => {
    const ask = (query: string, variables: Record<string, unknown> = {}) => graphql(app, query, variables, token());

    it('gets published articles only, whatever status is asked for (list, connection, by documentId)', async () => {
      const res = await ask(`{
        list: cmsPluginBagArticles(status: DRAFT, pagination: { limit: 100 }) { documentId title }
        connection: cmsPluginBagArticles_connection(status: DRAFT, pagination: { limit: 100 }) { nodes { documentId title } }
        draft: cmsPluginBagArticle(documentId: "${fixture.draftOnly.documentId}", status: DRAFT) { title }
        edited: cmsPluginBagArticle(documentId: "${fixture.published.documentId}", status: DRAFT) { title }
      }`);
      expect(res.errors).toBeUndefined();
      const shown = texts(res.data);
      expect(shown).toContain(fixture.published.title);
      expect(shown).not.toContain(fixture.draftOnly.title);
      expect(shown).not.toContain(fixture.editedTitle);
      expect(res.data?.draft).toBeNull();
      expect(res.data?.edited).toEqual({ title: fixture.published.title });
    });

    it('gets published articles only through relations, also under a root query asking for drafts', async () => {
      const res = await ask(`{
        cmsPluginBagCategories(status: DRAFT, filters: { slug: { eq: "cat-${order}" } }) {
          articles { title }
          articles_connection { nodes { title } }
        }
        cmsPluginBagTags(status: DRAFT, filters: { slug: { eq: "tag-${order}" } }) { articles { title } }
        cmsPluginBagArticles(status: DRAFT, filters: { slug: { eq: "published-${order}" } }) {
          category { articles { title } }
          tags { articles_connection { nodes { title } } }
        }
      }`);
      expect(res.errors).toBeUndefined();
      const shown = texts(res.data);
      expect(shown).toContain(fixture.published.title);
      expect(shown).not.toContain(fixture.draftOnly.title);
      expect(shown).not.toContain(fixture.editedTitle);
    });

    it('cannot probe drafts with a filter through a relation', async () => {
      const res = await ask(`{ cmsPluginBagCategories(filters: { articles: { title: { eq: "${fixture.draftOnly.title}" } } }) { slug } }`);
      expectRefused(res, 'cmsPluginBagCategories');
    });

    it('gets visible banners only, and no banner by documentId', async () => {
      const res = await ask(`{
        all: cmsPluginBagBanners(status: DRAFT, pagination: { limit: 100 }) { title }
        hidden: cmsPluginBagBanners(filters: { isVisible: { eq: false } }) { title }
      }`);
      expect(res.errors).toBeUndefined();
      const shown = texts(res.data);
      expect(shown).toContain(fixture.visibleBanner);
      expect(shown).not.toContain(fixture.hiddenBanner);
      expect(res.data?.hidden).toEqual([]);
      expectRefused(await ask(`{ cmsPluginBagBanner(documentId: "x") { title } }`), 'cmsPluginBagBanner');
    });

    it('sees an author as { id, documentId, username }, never an e-mail address', async () => {
      const ok = await ask(`{ cmsPluginBagArticles(filters: { slug: { eq: "published-${order}" } }) { author { documentId username } } }`);
      expect(ok.errors).toBeUndefined();
      expect(ok.data?.cmsPluginBagArticles).toEqual([{ author: { documentId: author.documentId, username: author.username } }]);
      expectRefused(await ask(`{ cmsPluginBagArticles { author { email } } }`), 'cmsPluginBagArticles');
      expectRefused(await ask(`{ cmsPluginBagCategories { articles { author { email } } } }`), 'cmsPluginBagCategories');
      expectRefused(
        await ask(`{ cmsPluginBagArticles(filters: { author: { email: { eq: "${author.email}" } } }) { title } }`),
        'cmsPluginBagArticles',
      );
    });

    it('gets no comments from the generic queries (no status, IP, pending comment)', async () => {
      for (const query of [
        `{ cmsPluginBagComments { content status } }`,
        `{ cmsPluginBagComments_connection { nodes { content } } }`,
        `{ cmsPluginBagArticles { comments { content status } } }`,
        `{ cmsPluginBagArticles { comments_connection { nodes { content } } } }`,
      ]) {
        const res = await ask(query);
        expect(res.errors?.length).toBeGreaterThan(0);
        expect(texts(res.data)).not.toContain(fixture.pendingComment);
      }
    });

    it('gets nothing of the internal types', async () => {
      for (const list of INTERNAL_LISTS) expectRefused(await ask(`{ ${list} { documentId } }`), list);
    });

    it('cannot write a plugin type with a generic mutation', async () => {
      const before = await app.strapi.db.query(COMMENT as never).count({});
      const res = await ask(
        `mutation ($article: ID!) {
          createCmsPluginBagComment(data: { content: "Hostile", article: $article, status: approved, isAdmin: true, likes: 9999 }) { documentId }
        }`,
        { article: fixture.draftOnly.documentId },
      );
      expectRefused(res, 'createCmsPluginBagComment');
      expect(await app.strapi.db.query(COMMENT as never).count({})).toBe(before);
      for (const mutation of [
        `mutation { updateCmsPluginBagArticle(documentId: "${fixture.published.documentId}", data: { title: "Defaced" }) { title } }`,
        `mutation { deleteCmsPluginBagBanner(documentId: "x") { documentId } }`,
        `mutation { createCmsPluginBagBanner(data: { title: "Spam" }) { documentId } }`,
      ]) {
        expect((await ask(mutation)).errors?.length).toBeGreaterThan(0);
      }
      const article = await app.strapi.documents(ARTICLE as never).findOne({ documentId: fixture.published.documentId, status: 'published' });
      expect(article).toMatchObject({ title: fixture.published.title });
    });
  });

  it('a relation an app adds (the playground\'s menu-item.article, to-one; .pages, to-many) shows published versions only', async () => {
    const menu = await createDocument(app.strapi, `${PLUGIN}.menu`, { title: `Menu ${order}`, slug: `menu-${order}` });
    const item = (title: string, article: string) =>
      createDocument(app.strapi, `${PLUGIN}.menu-item`, { title, url: '/x', menu: menu.documentId, article });
    await item('to draft', fixture.draftOnly.documentId);
    await item('to edited', fixture.published.documentId);
    const res = await graphql(
      app,
      `{ cmsPluginBagMenus(status: DRAFT, filters: { slug: { eq: "menu-${order}" } }) { items(sort: "title") { title article { title } pages { title } } } }`,
      {},
      apiToken,
    );
    expect(res.errors).toBeUndefined();
    expect(res.data).toEqual({
      cmsPluginBagMenus: [{ items: [{ title: 'to draft', article: null, pages: [] }, { title: 'to edited', article: { title: fixture.published.title }, pages: [] }] }],
    });
  });

  it('introspection shows no internal type and no generic mutation of a plugin type', async () => {
    const res = await graphql<{ __schema: { types: Array<{ name: string }>; mutationType: { fields: Array<{ name: string }> } } }>(
      app,
      `{ __schema { types { name } mutationType { fields { name } } } }`,
    );
    expect(res.errors).toBeUndefined();
    const types = res.data!.__schema.types.map(({ name }) => name);
    const internal = INTERNAL_TYPES.map((name) => `CmsPluginBag${name.replace(/(^|-)(\w)/g, (_m, _d, c: string) => c.toUpperCase())}`);
    expect(types).toContain('CmsPluginBagArticle');
    for (const name of internal) expect(types.filter((type) => type.startsWith(name))).toEqual([]);
    const mutations = res.data!.__schema.mutationType.fields.map(({ name }) => name);
    expect(mutations).toContain('register');
    expect(mutations.filter((name) => /CmsPluginBag/.test(name))).toEqual([]);
  });

  describe("the host's register, login and forgotPassword mutations (auth.hostRoutes 'guarded')", () => {
    beforeEach(async () => {
      await setSettings(app.strapi, { login: { captcha: { enabled: false, type: 'image' } }, register: { captcha: { enabled: true, type: 'email' } } });
    });

    it('register: refused without the captcha, like REST; with an image captcha it registers', async () => {
      const ip = `10.${order === 'before' ? 61 : 62}.0.1`;
      const input = (name: string) => ({ username: `${name}${order}`, email: `${name}-${order}@example.com`, password: 'Pw-graphql-1' });
      const missing = await graphqlFrom(app, ip, REGISTER, { input: input('nocaptcha') });
      expectRefused(missing, 'register');
      expect(missing.errors![0].message).toBe('Captcha code is required');
      expect(await app.strapi.db.query('plugin::users-permissions.user').count({ where: { username: `nocaptcha${order}` } })).toBe(0);

      await setSettings(app.strapi, { register: { captcha: { enabled: true, type: 'image' } } });
      const wrong = await imageCaptcha(app, captchaTexts);
      const refused = await graphqlFrom(app, ip, REGISTER, { input: { ...input('wrong'), key: wrong.key, code: 'nope' } });
      expect(refused.errors?.[0].message).toBe('Invalid or expired captcha code');
      const captcha = await imageCaptcha(app, captchaTexts);
      const ok = await graphqlFrom(app, ip, REGISTER, { input: { ...input('solved'), key: captcha.key, code: captcha.text } });
      expect(ok.errors).toBeUndefined();
      const me = await app.request().get(`${AUTH}/me`).set('Authorization', `Bearer ${(ok.data as any).register.jwt}`);
      expect({ status: me.status, username: me.body.username }).toEqual({ status: 200, username: `solved${order}` });
    });

    it('register: the same counters as the REST routes (REST requests count against the mutation and back)', async () => {
      const ip = `10.${order === 'before' ? 63 : 64}.0.1`;
      const body = { username: `counted${order}`, email: `counted-${order}@example.com`, password: 'Pw-graphql-1' };
      for (let i = 0; i < LIMIT.max; i += 1) {
        const rest = await app.request().post('/api/auth/local/register').set('X-Forwarded-For', ip).send(body);
        expect(rest.status).toBe(400);
      }
      const res = await graphqlFrom(app, ip, REGISTER, { input: body });
      expectRefused(res, 'register');
      expect(res.errors![0].message).toBe('Too many requests, please try again later.');
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      const rest = await app.request().post(`${AUTH}/register`).set('X-Forwarded-For', ip).send(body);
      expect(rest.status).toBe(429);
    });

    it('login: refused without the captcha when login.captcha is on; accepted with it', async () => {
      const ip = `10.${order === 'before' ? 65 : 66}.0.1`;
      const user = await createUser(app.strapi);
      await setSettings(app.strapi, { login: { captcha: { enabled: true, type: 'image' } } });
      const missing = await graphqlFrom(app, ip, LOGIN, { input: { identifier: user.email, password: user.password } });
      expectRefused(missing, 'login');
      expect(missing.errors![0].message).toBe('Captcha code is required');
      const captcha = await imageCaptcha(app, captchaTexts);
      const ok = await graphqlFrom(app, ip, LOGIN, { input: { identifier: user.email, password: user.password, key: captcha.key, code: captcha.text } });
      expect(ok.errors).toBeUndefined();
      expect(typeof (ok.data as any).login.jwt).toBe('string');
    });

    it('forgotPassword: refused while login.captcha is on (it cannot carry one); the same counters as REST', async () => {
      const ip = `10.${order === 'before' ? 69 : 70}.0.1`;
      const email = `nobody-${order}@example.com`;
      await setSettings(app.strapi, { login: { captcha: { enabled: true, type: 'image' } } });
      const missing = await graphqlFrom(app, ip, FORGOT, { email });
      expectRefused(missing, 'forgotPassword');
      expect(missing.errors![0].message).toBe('Captcha code is required');

      await setSettings(app.strapi, { login: { captcha: { enabled: false, type: 'image' } } });
      for (let i = 1; i < LIMIT.max; i += 1) {
        const rest = await app.request().post('/api/auth/forgot-password').set('X-Forwarded-For', ip).send({ email });
        expect(rest.status).toBe(200);
      }
      const limited = await graphqlFrom(app, ip, FORGOT, { email });
      expectRefused(limited, 'forgotPassword');
      expect(limited.errors![0].message).toBe('Too many requests, please try again later.');
    });

    it('login: failures share the per-identifier counter with REST (past the max, a captcha is required)', async () => {
      const user = await createUser(app.strapi);
      const wrong = { identifier: user.email, password: 'wrong-password' };
      for (let i = 0; i < LIMIT.max; i += 1) {
        const rest = await app.request().post('/api/auth/local').set('X-Forwarded-For', `10.${order === 'before' ? 67 : 68}.0.${i + 1}`).send(wrong);
        expect(rest.status).toBe(400);
      }
      const res = await graphqlFrom(app, `10.${order === 'before' ? 67 : 68}.1.1`, LOGIN, { input: { identifier: user.email, password: user.password } });
      expectRefused(res, 'login');
      expect(res.errors![0].message).toBe('Too many requests, please try again later.');
      expect(res.errors![0].extensions?.error).toMatchObject({ details: { captcha: 'required' } });
    });
  });
});

describe.each(GRAPHQL_ORDERS)("GraphQL plugin %s cms-plugin-bag, auth.hostRoutes 'open'", (order) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await setupStrapi({ env: { GRAPHQL: order }, config: { auth: { hostRoutes: 'open' } } });
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('leaves the register mutation as the host made it (no captcha asked)', async () => {
    const input = { username: `open${order}`, email: `open-${order}@example.com`, password: 'Pw-graphql-1' };
    const res = await graphql(app, REGISTER, { input });
    expect(res.errors).toBeUndefined();
    expect((res.data as any).register.user.username).toBe(`open${order}`);
    const introspection = await graphql(app, `{ __type(name: "UsersPermissionsRegisterInput") { inputFields { name } } }`);
    expect((introspection.data as any).__type.inputFields.map((field: { name: string }) => field.name).sort()).toEqual(['email', 'password', 'username']);
  });
});
