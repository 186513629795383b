/**
 * The response cache across instances (docs/caching.md#why-it-is-never-stale): two playground processes (A, B) and the test
 * file's own instance on one PostgreSQL database, each with its own memory cache. 480 write-then-read pairs, every
 * kind of write, each read on an instance whose cache held the URL just before the write: no stale read. The kept
 * sitemap follows a publish made on the other instance. Then views stay exact with the cache on when both instances
 * count at once.
 */
import { adminToken, createDocument, createUser, jwtFor, setPermission } from '../helpers/fixtures';
import { startTwoInstances, type Instance, type TwoInstances } from '../helpers/instances';
import { PLUGIN, type TestApp } from '../helpers/strapi';

const ARTICLE = `${PLUGIN}.article`;
// 60 of each of the 8 kinds of write, 30 written on A and read on B, 30 the other way.
const PAIRS = 480;
const CONFIG = {
  comments: { autoApprove: true },
  rateLimit: { comment: { interval: '1h', max: 100_000 }, reaction: { interval: '1h', max: 100_000 } },
};

interface Kind {
  name: string;
  /** The URL whose answer the write changes. */
  url: string;
  write: (on: Instance, i: number) => Promise<void>;
  /** Whether the answer shows the write. */
  fresh: (res: { status: number; body: any }) => boolean;
}

describe('response cache coherence across instances on one PostgreSQL database', () => {
  let setup: TestApp;
  let a: Instance;
  let b: Instance;
  let admin: string;

  let instances: TwoInstances;

  beforeAll(async () => {
    instances = await startTwoInstances({
      config: CONFIG,
      env: { PROXY_TRUST: 'true' },
      beforeInstances: async (app) => {
        admin = await adminToken(app);
      },
    });
    ({ setup, a, b } = instances);
  }, 240_000);
  afterAll(() => instances?.stop());

  const article = (slug: string) => createDocument(setup.strapi, ARTICLE, { title: slug, slug }) as Promise<{ id: number; documentId: string }>;

  it(`${PAIRS} write-then-read pairs, every kind of write, no stale read`, async () => {
    const documents = setup.strapi.documents(ARTICLE as never);
    const dsDoc = await article('coherence-ds');
    const qeDoc = await article('coherence-qe');
    const cmDoc = await article('coherence-cm');
    const toggleDoc = await article('coherence-toggle');
    const commentDoc = await article('coherence-comments');
    const moderatedDoc = await article('coherence-moderated');
    const user = await createUser(setup.strapi);
    const userAuth = `Bearer ${jwtFor(setup.strapi, user)}`;

    const post = (on: Instance, body: Record<string, unknown>, ip: string) =>
      on.request().post('/api/bag/comments').set('X-Forwarded-For', ip).send(body).expect(201);
    const liked = (await post(a, { content: 'like me', article: commentDoc.documentId }, '198.51.100.1')).body.data;
    const moderated = (await post(a, { content: 'moderate me', article: moderatedDoc.documentId }, '198.51.100.2')).body.data;

    const state = { title: '', published: true, comments: 1, likes: 0, approved: true, tagsAllowed: true };
    const kinds: Kind[] = [
      {
        name: 'Document Service update + publish',
        url: '/api/bag/articles/coherence-ds',
        write: async (_on, i) => {
          state.title = `ds ${i}`;
          await documents.update({ documentId: dsDoc.documentId, data: { title: state.title } as never });
          await documents.publish({ documentId: dsDoc.documentId });
        },
        fresh: (res) => res.status === 200 && res.body.data.title === state.title,
      },
      {
        name: 'Query Engine update',
        url: '/api/bag/articles?filters[slug][$eq]=coherence-qe',
        write: async (_on, i) => {
          state.title = `qe ${i}`;
          await setup.strapi.db
            .query(ARTICLE as never)
            .updateMany({ where: { documentId: qeDoc.documentId, publishedAt: { $notNull: true } }, data: { title: state.title } });
        },
        fresh: (res) => res.status === 200 && res.body.data[0]?.title === state.title,
      },
      {
        name: 'Content Manager save + publish (admin HTTP API, other instance)',
        url: '/api/bag/articles/coherence-cm',
        write: async (on, i) => {
          state.title = `cm ${i}`;
          const cm = `/content-manager/collection-types/${ARTICLE}/${cmDoc.documentId}`;
          await on.request().put(cm).set('Authorization', `Bearer ${admin}`).send({ title: state.title }).expect(200);
          await on.request().post(`${cm}/actions/publish`).set('Authorization', `Bearer ${admin}`).send({}).expect(200);
        },
        fresh: (res) => res.status === 200 && res.body.data.title === state.title,
      },
      {
        name: 'Document Service unpublish / publish',
        url: '/api/bag/articles/coherence-toggle',
        write: async () => {
          state.published = !state.published;
          if (state.published) await documents.publish({ documentId: toggleDoc.documentId });
          else await documents.unpublish({ documentId: toggleDoc.documentId });
        },
        fresh: (res) => res.status === (state.published ? 200 : 404),
      },
      {
        name: 'comment (plugin route)',
        url: `/api/bag/comments/counts?articles=${commentDoc.documentId}`,
        write: async (on, i) => {
          await post(on, { content: `comment ${i}`, article: commentDoc.documentId }, `198.51.100.${10 + (i % 200)}`);
          state.comments += 1;
        },
        fresh: (res) => res.status === 200 && res.body.data[commentDoc.documentId] === state.comments,
      },
      {
        name: 'like / unlike (plugin route, raw SQL)',
        url: `/api/bag/articles/${commentDoc.documentId}/comments?pagination[pageSize]=100&sort=createdAt:asc`,
        write: async (on) => {
          const route = on.request()[state.likes === 0 ? 'post' : 'delete'](`/api/bag/comments/${liked.id}/like`);
          await route.set('Authorization', userAuth).expect(200);
          state.likes = 1 - state.likes;
        },
        fresh: (res) => res.status === 200 && res.body.data.find((node: { id: number }) => node.id === liked.id)?.likes === state.likes,
      },
      {
        name: 'moderation (admin route)',
        url: `/api/bag/comments/counts?articles=${moderatedDoc.documentId}`,
        write: async (on) => {
          state.approved = !state.approved;
          await on
            .request()
            .put('/cms-plugin-bag/comments/status')
            .set('Authorization', `Bearer ${admin}`)
            .send({ documentIds: [moderated.documentId], status: state.approved ? 'approved' : 'rejected' })
            .expect(200);
        },
        fresh: (res) => res.status === 200 && res.body.data[moderatedDoc.documentId] === (state.approved ? 1 : 0),
      },
      {
        name: 'Users & Permissions: public action revoked / granted',
        url: '/api/bag/tags',
        write: async () => {
          state.tagsAllowed = !state.tagsAllowed;
          await setPermission(setup.strapi, 'public', `${PLUGIN}.tag.find`, state.tagsAllowed);
        },
        fresh: (res) => res.status === (state.tagsAllowed ? 200 : 403),
      },
    ];

    const stale: string[] = [];
    const started = Date.now();
    for (let i = 0; i < PAIRS; i += 1) {
      const kind = kinds[i % kinds.length];
      // Each kind in turn, written on A in one round of the kinds and on B in the next.
      const [writer, reader] = Math.floor(i / kinds.length) % 2 === 0 ? [a, b] : [b, a];
      // Both caches hold the URL's current answer before the write (the reader's second read is a hit).
      await Promise.all([a, b].map((instance) => instance.request().get(kind.url)));
      await reader.request().get(kind.url);
      await kind.write(writer, i);
      const res = await reader.request().get(kind.url);
      if (!kind.fresh(res)) stale.push(`#${i} ${kind.name} read on ${reader.name}: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
    }
    const seconds = (Date.now() - started) / 1000;
    console.log(`cache coherence: ${PAIRS} write-then-read pairs (${kinds.length} kinds), ${stale.length} stale reads, ${seconds.toFixed(1)} s`);
    expect(stale).toEqual([]);

    // The caches were in use: each reader's second read before a write was a hit.
    let hits = 0;
    for (const instance of [a, b]) {
      const stats = (await instance.request().get('/cms-plugin-bag/cache').set('Authorization', `Bearer ${admin}`).expect(200)).body.data;
      hits += stats.types.reduce((sum: number, type: { hits: number }) => sum + type.hits, 0);
    }
    console.log(`cache coherence: ${hits} hits on A and B together`);
    expect(hits).toBeGreaterThanOrEqual(PAIRS * 0.8);
  }, 1_200_000);

  it('the kept sitemap: a Content Manager publish on one instance shows in the next sitemap read on the other', async () => {
    const doc = await article('coherence-sitemap-0');
    const cm = `/content-manager/collection-types/${ARTICLE}/${doc.documentId}`;
    const sitemapHits = async () => {
      let hits = 0;
      for (const instance of [a, b]) {
        const stats = (await instance.request().get('/cms-plugin-bag/cache').set('Authorization', `Bearer ${admin}`).expect(200)).body.data;
        hits += stats.types.find((type: { type: string }) => type.type === 'sitemap')?.hits ?? 0;
      }
      return hits;
    };
    const before = await sitemapHits();
    for (let i = 1; i <= 10; i += 1) {
      const [writer, reader] = i % 2 === 0 ? [a, b] : [b, a];
      await reader.request().get('/api/bag/sitemap.xml').expect(200);
      // The second read is the kept copy.
      const kept = await reader.request().get('/api/bag/sitemap.xml').expect(200);
      expect(kept.text).toContain(`article=coherence-sitemap-${i - 1}&amp;locale=en</loc>`);
      await writer.request().put(cm).set('Authorization', `Bearer ${admin}`).send({ slug: `coherence-sitemap-${i}` }).expect(200);
      await writer.request().post(`${cm}/actions/publish`).set('Authorization', `Bearer ${admin}`).send({}).expect(200);
      const after = await reader.request().get('/api/bag/sitemap.xml').expect(200);
      expect(after.text).toContain(`article=coherence-sitemap-${i}&amp;locale=en</loc>`);
      expect(after.text).not.toContain(`article=coherence-sitemap-${i - 1}&amp;locale=en</loc>`);
    }
    expect(await sitemapHits()).toBeGreaterThanOrEqual(before + 10);
  });

  it('views stay exact with the cache on: 50 concurrent reads over both instances add 50', async () => {
    const doc = await article('coherence-views');
    const views = async () => {
      const rows = await setup.strapi.db.query(ARTICLE as never).findMany({ where: { documentId: doc.documentId }, select: ['views'] });
      return Math.max(...rows.map((row: { views: number }) => Number(row.views)));
    };
    // Cached on both.
    await a.request().get('/api/bag/articles/coherence-views').expect(200);
    await b.request().get('/api/bag/articles/coherence-views').expect(200);
    const before = await views();
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) => (i % 2 === 0 ? a : b).request().get('/api/bag/articles/coherence-views').expect(200))
    );
    expect(await views()).toBe(before + 50);
    const shown = responses.map((res) => res.body.data.views).sort((x, y) => x - y);
    expect(shown).toEqual(Array.from({ length: 50 }, (_, i) => before + i + 1));
    // A re-publish keeps the count.
    await setup.strapi.documents(ARTICLE as never).publish({ documentId: doc.documentId });
    expect((await a.request().get('/api/bag/articles/coherence-views').expect(200)).body.data.views).toBe(before + 51);
  });
});
