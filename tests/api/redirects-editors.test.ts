/**
 * Editors' redirects under review (docs/redirects.md#editors-redirects-redirect-type): draft & publish
 * (only a published redirect answers, so a role that cannot publish cannot make one live), `to` without whitespace or
 * control characters, no chain that loops back to its own `from`; and redirects saved before the type had draft &
 * publish keep answering.
 */
import { adminTokenWithRole } from '../helpers/comments';
import { adminToken } from '../helpers/fixtures';
import { PLUGIN, setupStrapi, type TestApp } from '../helpers/strapi';

const REDIRECT = `${PLUGIN}.redirect`;
const SITE = 'https://www.example.com';

describe('editors’ redirects under review', () => {
  let app: TestApp;
  let admin: string;
  const get = (path: string) => app.request().get(`/api/bag${path}`);
  const documents = (uid: string) => app.strapi.documents(uid as never);

  beforeAll(async () => {
    app = await setupStrapi({ config: { site: { url: SITE } } });
    admin = await adminToken(app);
  });
  afterAll(async () => {
    await app.stop();
  });

  it('a redirect answers only once published: an Author, who cannot publish, cannot make one live', async () => {
    const cm = `/content-manager/collection-types/${REDIRECT}`;
    const author = await adminTokenWithRole(app, 'strapi-author');
    const body = { to: 'https://elsewhere.example/', statusCode: 302 };
    const saved = await app.request().post(cm).set('Authorization', `Bearer ${author}`).send({ from: '/authors-own', ...body }).expect(201);
    const documentId = saved.body.data.documentId as string;
    await app.request().post(`${cm}/${documentId}/actions/publish`).set('Authorization', `Bearer ${author}`).send({}).expect(403);
    await app.request().post(`${cm}/actions/publish`).set('Authorization', `Bearer ${author}`).send({ from: '/authors-direct', ...body }).expect(403);
    const listed = () => get('/redirects').expect(200).then((res) => res.body.data as { from: string }[]);
    expect((await listed()).map((entry) => entry.from)).toEqual(expect.not.arrayContaining(['/authors-own', '/authors-direct']));
    expect(await documents(REDIRECT).findMany({ filters: { from: '/authors-own' }, status: 'published' } as never)).toEqual([]);

    // An administrator who may publish makes it live; unpublished, it answers nothing again.
    await app.request().post(`${cm}/${documentId}/actions/publish`).set('Authorization', `Bearer ${admin}`).send({}).expect(200);
    expect(await listed()).toContainEqual({ from: '/authors-own', to: 'https://elsewhere.example/', status: 302 });
    await app.request().post(`${cm}/${documentId}/actions/unpublish`).set('Authorization', `Bearer ${admin}`).send({}).expect(200);
    expect((await listed()).map((entry) => entry.from)).not.toContain('/authors-own');
  });

  it('refuses a `to` with whitespace or control characters, or that is not one path or an http(s) URL: 400 naming `to`', async () => {
    const create = (body: Record<string, unknown>) =>
      app.request().post(`/content-manager/collection-types/${REDIRECT}`).set('Authorization', `Bearer ${admin}`).send(body);
    const refused = async (to: string, message: string) => {
      const res = await create({ from: '/checked-to', to, statusCode: 301 });
      expect([res.status, res.body.error?.message, to]).toEqual([400, message, to]);
      expect(res.body.error.name).toBe('ValidationError');
      expect(res.body.error.details.errors[0].path).toEqual(['to']);
    };
    const SPACES = 'to must not contain whitespace or control characters';
    for (const to of ['/a\r\nSet-Cookie: x=1', '/a b', '/a\tb', ' /a', '/a\u0001', '/a\u007f', '/a\u0085', '/a\u00a0', '/a\u2028', 'https://example.com/\nx', 'https://example.com/a b', 'https://exa\tmple.com/']) {
      await refused(to, SPACES);
    }
    for (const to of ['//evil.example', '/\\evil.example', 'https:///evil.example', 'https:\\\\evil.example', 'javascript:alert(1)', 'ftp://evil.example/', 'evil.example']) {
      await refused(to, 'to must be a path starting with / or an absolute http(s) URL');
    }
    // However it is written: the Document Service refuses it too.
    await expect(documents(REDIRECT).create({ data: { from: '/checked-to', to: '/a\r\nb', statusCode: 301 } } as never)).rejects.toThrow(SPACES);
    expect(await documents(REDIRECT).findMany({ filters: { from: '/checked-to' } } as never)).toEqual([]);
  });

  it('refuses a redirect whose chain loops back to its own `from`, on create, update and clone: 400 naming `to`', async () => {
    const cm = `/content-manager/collection-types/${REDIRECT}`;
    const send = (method: 'post' | 'put', path: string, body: Record<string, unknown>) =>
      app.request()[method](`${cm}${path}`).set('Authorization', `Bearer ${admin}`).send(body);
    const LOOP = 'to leads back to from through other redirects (a loop)';
    const isLoop = (res: { status: number; body: { error?: { message?: string; details?: { errors?: { path: string[] }[] } } } }) => {
      expect([res.status, res.body.error?.message]).toEqual([400, LOOP]);
      expect(res.body.error?.details?.errors?.[0].path).toEqual(['to']);
    };
    // Itself, directly or through a trailing slash, percent-encoding or the site's own origin.
    isLoop(await send('post', '', { from: '/loop-self', to: '/loop-self', statusCode: 301 }));
    isLoop(await send('post', '', { from: '/loop-self', to: '/loop-%73elf/', statusCode: 301 }));
    isLoop(await send('post', '', { from: '/loop-self', to: `${SITE}/loop-self`, statusCode: 301 }));

    // a → b (published), b → c (a draft still counts: it goes live when published), then c → a closes the loop.
    await send('post', '/actions/publish', { from: '/loop-a', to: '/loop-b', statusCode: 301 }).expect(200);
    const b = (await send('post', '', { from: '/loop-b', to: '/loop-c', statusCode: 302 }).expect(201)).body.data.documentId as string;
    isLoop(await send('post', '', { from: '/loop-c', to: '/loop-a', statusCode: 301 }));
    // Not a loop: a chain out of the set, another origin, or a 410.
    const c = (await send('post', '', { from: '/loop-c', to: '/somewhere-else', statusCode: 301 }).expect(201)).body.data.documentId as string;
    await send('post', '', { from: '/loop-d', to: 'https://other.example/loop-a', statusCode: 301 }).expect(201);
    // An update that would close it is refused, and so is a clone (a → b → c → /somewhere-else → a).
    isLoop(await send('put', `/${c}`, { from: '/loop-c', to: '/loop-a', statusCode: 301 }));
    isLoop(await send('put', `/${c}`, { to: '/loop-b' }));
    isLoop(await send('post', `/clone/${b}`, { from: '/somewhere-else', to: '/loop-a' }));
    // Updates that close nothing are saved.
    await send('put', `/${c}`, { from: '/loop-c', statusCode: 410, to: '' }).expect(200);
    await send('put', `/${b}`, { from: '/loop-b', to: '/loop-c', statusCode: 301 }).expect(200);
    const stored = (await app.strapi.db.query(REDIRECT as never).findMany({ select: ['from', 'to'] })) as { from: string; to: string | null }[];
    expect(stored.map((row) => row.from)).toEqual(expect.not.arrayContaining(['/loop-self', '/somewhere-else']));
    expect(stored.filter((row) => row.from === '/loop-c').map((row) => row.to ?? '')).toEqual(['']);
  });
});

describe('editors’ redirects saved before `redirect` had draft & publish', () => {
  let app: TestApp;
  afterAll(async () => {
    await app.stop();
  });

  it('keep answering after the upgrade, and have a draft to edit', async () => {
    app = await setupStrapi();
    // As a database of the release without draft & publish holds it: one row, published.
    await app.strapi.db.query(REDIRECT as never).create({
      data: { documentId: 'beforedraftandpublish001', from: '/before-dp', to: '/after-dp', statusCode: 308, publishedAt: new Date() },
    });
    const store = app.strapi.store({ type: 'strapi', name: 'content_types' });
    const schema = (await store.get({ key: 'schema' })) as Record<string, { options: { draftAndPublish: boolean } }>;
    schema[REDIRECT].options.draftAndPublish = false;
    await store.set({ key: 'schema', value: schema });
    const { databaseFile } = app;
    await app.stop({ keepDatabase: true });

    // The host's own migration (draft & publish enabled on a type) gives every entry its draft.
    app = await setupStrapi({ databaseFile });
    expect((await app.request().get('/api/bag/redirects').expect(200)).body.data).toContainEqual({ from: '/before-dp', to: '/after-dp', status: 308 });
    const drafts = await app.strapi.documents(REDIRECT as never).findMany({ status: 'draft' } as never);
    expect(drafts).toEqual([expect.objectContaining({ documentId: 'beforedraftandpublish001', from: '/before-dp', to: '/after-dp' })]);
  });
});
