import type { UID } from '@strapi/strapi';
import { adminToken } from '../helpers/fixtures';
import { PLUGIN, expectStartupFailure, internalModels, setupStrapi, type TestApp } from '../helpers/strapi';

const CONTENT_TYPES = {
  article: { draftAndPublish: true, attributes: ['title', 'slug', 'summary', 'content', 'cover', 'isTop', 'views', 'category', 'tags', 'author', 'comments'] },
  category: { draftAndPublish: false, attributes: ['title', 'slug', 'description', 'parent', 'children', 'articles'] },
  tag: { draftAndPublish: false, attributes: ['title', 'slug', 'articles'] },
  comment: { draftAndPublish: false, attributes: ['content', 'status', 'article', 'author', 'parent', 'children', 'ip', 'userAgent', 'isAdmin'] },
  menu: { draftAndPublish: false, attributes: ['title', 'slug', 'items'] },
  'menu-item': { draftAndPublish: false, attributes: ['title', 'url', 'target', 'icon', 'isHot', 'order', 'parent', 'children', 'menu'] },
  page: { draftAndPublish: true, attributes: ['title', 'slug', 'content', 'cover', 'seoTitle', 'seoKeywords', 'seoDescription', 'views'] },
  banner: { draftAndPublish: true, attributes: ['title', 'subtitle', 'image', 'link', 'order', 'group', 'isVisible'] },
  redirect: { draftAndPublish: true, attributes: ['from', 'to', 'statusCode'] },
  newsletter: { draftAndPublish: false, attributes: ['name', 'slug', 'description', 'categories', 'sendOnPublish'] },
} as const;

/** The internal tables (server/src/models): database models, not content types. */
const INTERNAL = [
  'refresh-token',
  'token-epoch',
  'view-day',
  'captcha',
  'rate-limit',
  'comment-reaction',
  'comment-report',
  'comment-subscription',
  'comment-thread',
  'comment-unsubscribe',
  'email-change',
  'slug-redirect',
  'sign-in-device',
  'mfa-factor',
  'mfa-recovery-code',
  'newsletter-recipient',
  'newsletter-send',
  'newsletter-subscriber',
  'mfa-challenge',
  'passkey',
  'webauthn-challenge',
  'import',
  'import-source',
];

describe('the plugin in a real Strapi', () => {
  let app: TestApp;

  beforeAll(async () => {
    // A first start: the host's default permissions must survive the plugin's own grants on a fresh database.
    app = await setupStrapi({ fresh: true });
  });
  afterAll(async () => {
    await app.stop();
  });

  it('is loaded by the host and answers over HTTP', async () => {
    expect(app.strapi.plugin('cms-plugin-bag')).toBeDefined();
    await app.request().get('/_health').expect(204);
  });

  it.each(Object.entries(CONTENT_TYPES))('registers %s with its fields and draft & publish setting', (name, expected) => {
    const model = app.strapi.getModel(`${PLUGIN}.${name}` as UID.ContentType);
    expect(model).toBeDefined();
    expect(Boolean(model.options?.draftAndPublish)).toBe(expected.draftAndPublish);
    expect(Object.keys(model.attributes)).toEqual(expect.arrayContaining([...expected.attributes]));
  });

  it('applies the documented defaults of the content types', () => {
    const attrs = (name: string) => app.strapi.getModel(`${PLUGIN}.${name}` as UID.ContentType).attributes as Record<string, any>;
    expect(attrs('comment').status).toMatchObject({ enum: ['pending', 'approved', 'rejected'], default: 'pending' });
    expect(attrs('menu-item').target).toMatchObject({ enum: ['_self', '_blank'], default: '_self' });
    expect(attrs('banner').group.default).toBe('home');
    expect(attrs('banner').isVisible.default).toBe(true);
    expect(attrs('article').summary.maxLength).toBe(500);
    expect(attrs('article').author.target).toBe('plugin::users-permissions.user');
    expect(attrs('redirect').statusCode).toMatchObject({ type: 'integer', default: 301 });
    expect(app.strapi.getModel(`${PLUGIN}.redirect` as UID.ContentType).pluginOptions).toMatchObject({ i18n: { localized: false } });
  });

  it('keeps its internal tables as database models, unknown to the Content Manager and the Content-Type Builder', async () => {
    const admin = `Bearer ${await adminToken(app)}`;
    const builder = await app.request().get('/content-type-builder/content-types').set('Authorization', admin).expect(200);
    const inBuilder = (builder.body.data as { uid: string }[]).map((type) => type.uid);
    const contentManager = app.strapi.plugin('content-manager').service('content-types').findAllContentTypes();
    const inContentManager = contentManager.map((ct: any) => ct.uid);
    const displayed = contentManager.filter((ct: any) => ct.isDisplayed).map((ct: any) => ct.uid);
    expect(displayed).toEqual(expect.arrayContaining(Object.keys(CONTENT_TYPES).map((n) => `${PLUGIN}.${n}`)));
    expect(inBuilder).toEqual(expect.arrayContaining(Object.keys(CONTENT_TYPES).map((n) => `${PLUGIN}.${n}`)));
    const models = internalModels(app.strapi).map((model) => model.uid);
    expect(models.sort()).toEqual(INTERNAL.map((name) => `${PLUGIN}.${name}`).sort());
    for (const name of INTERNAL) {
      const uid = `${PLUGIN}.${name}`;
      const known = { uid, contentType: uid in app.strapi.contentTypes, contentManager: inContentManager.includes(uid), builder: inBuilder.includes(uid) };
      expect(known).toEqual({ uid, contentType: false, contentManager: false, builder: false });
      const { tableName } = app.strapi.db.metadata.get(uid as never);
      expect({ uid, table: await app.strapi.db.getSchemaConnection().hasTable(tableName) }).toEqual({ uid, table: true });
    }
  });

  it('keeps the host default permissions on a fresh database', async () => {
    const authenticated = await app.strapi.db
      .query('plugin::users-permissions.role')
      .findOne({ where: { type: 'authenticated' }, populate: ['permissions'] });
    const actions = authenticated.permissions.map((p: { action: string }) => p.action);
    expect(actions).toContain('plugin::users-permissions.user.me');
  });
});

describe('configuration validation', () => {
  it('refuses to start on a bad value, naming the key', async () => {
    const error = await expectStartupFailure({ config: { login: { captcha: { type: 'sms' } } } });
    expect(error.message).toContain('cms-plugin-bag: login.captcha.type must be one of image, pow, email, any');
  });

  it('refuses a proof of work as what lifts a failed-login escalation', async () => {
    const error = await expectStartupFailure({ config: { login: { escalation: { type: 'pow' } } } });
    expect(error.message).toContain('cms-plugin-bag: login.escalation.type must be one of email, image, any');
  });

  it('refuses to start on an unknown key', async () => {
    const error = await expectStartupFailure({ config: { comments: { autoApprov: true } } });
    expect(error.message).toContain('cms-plugin-bag: unknown key comments.autoApprov');
  });

  it('refuses a proof-of-work difficulty outside 1 to 32 bits', async () => {
    for (const difficulty of [0, 33, 12.5]) {
      const error = await expectStartupFailure({ config: { captcha: { pow: { difficulty } } } });
      expect(error.message).toContain('cms-plugin-bag: captcha.pow.difficulty');
    }
  });

  it('refuses a comments.reports.guests that is not a boolean', async () => {
    const error = await expectStartupFailure({ config: { comments: { reports: { guests: 'yes' } } } });
    expect(error.message).toContain('cms-plugin-bag: comments.reports.guests must be a boolean, got string');
  });

  it('refuses a malformed comments.notifications.unsubscribeExpiresIn', async () => {
    const error = await expectStartupFailure({ config: { comments: { notifications: { unsubscribeExpiresIn: 'never' } } } });
    expect(error.message).toContain('cms-plugin-bag: comments.notifications.unsubscribeExpiresIn must be a duration');
  });

  it('refuses a malformed duration', async () => {
    const error = await expectStartupFailure({ config: { auth: { refreshToken: { expiresIn: 'forever' } } } });
    expect(error.message).toContain('cms-plugin-bag: auth.refreshToken.expiresIn');
  });
});
