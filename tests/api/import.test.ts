/**
 * Import from WordPress and Disqus (docs/import.md): WordPress's own theme unit test export and Isso's Disqus export
 * through the admin route, the mapping table's rows, a second run creating nothing, a dry run writing nothing, and
 * the refusals (DOCTYPE, a file of neither format). One Strapi for the file.
 */
import fs from 'fs';
import os from 'os';
import path from 'path';
import { adminToken, createUser } from '../helpers/fixtures';
import { PLUGIN, setupStrapi, type TestApp } from '../helpers/strapi';

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'import');
const WXR = path.join(FIXTURES, 'themeunittestdata.wordpress.xml');
const DISQUS = path.join(FIXTURES, 'isso-disqus.xml');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bag-import-test-'));

const write = (name: string, text: string) => {
  const file = path.join(tmp, name);
  fs.writeFileSync(file, text);
  return file;
};

/** A WXR of one post with hostile HTML and comments (a guest's, a spam one, a reply), at an old address. */
const hostileWxr = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:wp="http://wordpress.org/export/1.2/" xmlns:excerpt="http://wordpress.org/export/1.2/excerpt/">
<channel><wp:wxr_version>1.2</wp:wxr_version><wp:base_blog_url>https://old.example</wp:base_blog_url>
<wp:author><wp:author_login>ada</wp:author_login><wp:author_email>ada-import@example.com</wp:author_email></wp:author>
<item><title>Hostile</title><link>https://old.example/2019/05/hostile/</link><dc:creator>ada</dc:creator>
<content:encoded><![CDATA[<!-- wp:paragraph --><p onclick="alert(1)">Hello <a href="javascript:alert(2)">link</a> <img src="x" onerror="alert(3)"> &lt;script&gt;alert(4)&lt;/script&gt;</p><!-- /wp:paragraph --><script>alert(5)</script><style>p{}</style><iframe src="https://evil.example"></iframe><p><strong>kept</strong></p>]]></content:encoded>
<excerpt:encoded><![CDATA[Short]]></excerpt:encoded>
<wp:post_id>77</wp:post_id><wp:post_date_gmt>2019-05-01 10:00:00</wp:post_date_gmt><wp:post_name>hostile</wp:post_name><wp:status>publish</wp:status><wp:post_type>post</wp:post_type><wp:post_password></wp:post_password>
<wp:comment><wp:comment_id>1</wp:comment_id><wp:comment_author>Guest Gary</wp:comment_author><wp:comment_author_email>gary@example.net</wp:comment_author_email><wp:comment_author_IP>203.0.113.9</wp:comment_author_IP><wp:comment_date_gmt>2019-05-02 08:00:00</wp:comment_date_gmt><wp:comment_content><![CDATA[First <script>alert(6)</script>]]></wp:comment_content><wp:comment_approved>1</wp:comment_approved><wp:comment_type>comment</wp:comment_type><wp:comment_parent>0</wp:comment_parent></wp:comment>
<wp:comment><wp:comment_id>2</wp:comment_id><wp:comment_author>Ada</wp:comment_author><wp:comment_author_email>ada-import@example.com</wp:comment_author_email><wp:comment_author_IP>198.51.100.1</wp:comment_author_IP><wp:comment_date_gmt>2019-05-03 08:00:00</wp:comment_date_gmt><wp:comment_content>A reply</wp:comment_content><wp:comment_approved>0</wp:comment_approved><wp:comment_type></wp:comment_type><wp:comment_parent>1</wp:comment_parent></wp:comment>
<wp:comment><wp:comment_id>3</wp:comment_id><wp:comment_author>Spammer</wp:comment_author><wp:comment_author_email></wp:comment_author_email><wp:comment_author_IP></wp:comment_author_IP><wp:comment_date_gmt>2019-05-03 09:00:00</wp:comment_date_gmt><wp:comment_content>Buy</wp:comment_content><wp:comment_approved>spam</wp:comment_approved><wp:comment_type></wp:comment_type><wp:comment_parent>0</wp:comment_parent></wp:comment>
<wp:comment><wp:comment_id>4</wp:comment_id><wp:comment_author>Bin</wp:comment_author><wp:comment_author_email></wp:comment_author_email><wp:comment_author_IP></wp:comment_author_IP><wp:comment_date_gmt>2019-05-03 09:00:00</wp:comment_date_gmt><wp:comment_content>Gone</wp:comment_content><wp:comment_approved>trash</wp:comment_approved><wp:comment_type></wp:comment_type><wp:comment_parent>0</wp:comment_parent></wp:comment>
</item></channel></rss>`;

/** A Disqus export whose thread is the hostile post's old WordPress address: a reply to a deleted post, a spam post. */
const disqusOnOldAddress = `<?xml version="1.0"?>
<disqus xmlns="http://disqus.com" xmlns:dsq="http://disqus.com/disqus-internals">
<thread dsq:id="t1"><link>https://old.example/2019/05/hostile/?utm=x</link></thread>
<thread dsq:id="t2"><link>https://old.example/nowhere/</link></thread>
<post dsq:id="p1"><message><![CDATA[<p>Taken back</p>]]></message><createdAt>2020-01-01T00:00:00Z</createdAt><isDeleted>true</isDeleted><isSpam>false</isSpam><author><name>Del</name></author><thread dsq:id="t1"/></post>
<post dsq:id="p2"><message><![CDATA[<p>Answer to a deleted one</p>]]></message><createdAt>2020-01-02T00:00:00Z</createdAt><isDeleted>false</isDeleted><isSpam>false</isSpam><author><name>Rita</name></author><ipAddress>192.0.2.4</ipAddress><thread dsq:id="t1"/><parent dsq:id="p1"/></post>
<post dsq:id="p3"><message>spam</message><createdAt>2020-01-03T00:00:00Z</createdAt><isDeleted>false</isDeleted><isSpam>true</isSpam><author><name>S</name></author><thread dsq:id="t1"/></post>
<post dsq:id="p4"><message>alone deleted</message><createdAt>2020-01-03T00:00:00Z</createdAt><isDeleted>true</isDeleted><isSpam>false</isSpam><author><name>S</name></author><thread dsq:id="t1"/></post>
<post dsq:id="p5"><message>lost</message><createdAt>2020-01-03T00:00:00Z</createdAt><isDeleted>false</isDeleted><isSpam>false</isSpam><author><name>S</name></author><thread dsq:id="t2"/></post>
</disqus>`;

interface Report {
  id: number;
  status: string;
  dryRun: boolean;
  processed: number;
  total: number;
  counts: Record<string, number>;
  skipped: { kind: string; sourceId: string; reason: string }[];
  error: string | null;
}

describe('import from WordPress and Disqus (docs/import.md)', () => {
  let app: TestApp;
  let admin: string;
  const documents = (name: string) => app.strapi.documents(`${PLUGIN}.${name}` as never);
  const upload = (file: string, source: string, dryRun?: boolean) => {
    const req = app.request().post('/cms-plugin-bag/imports').set('Authorization', `Bearer ${admin}`).attach('file', file).field('source', source);
    return dryRun === undefined ? req : req.field('dryRun', String(dryRun));
  };
  /** Runs an import through the admin route and waits for its report (polling its GET until it is done or failed). */
  const runImport = async (file: string, source: string, dryRun?: boolean): Promise<Report> => {
    const started = await upload(file, source, dryRun);
    if (started.status !== 202) throw new Error(JSON.stringify(started.body));
    expect(started.body.data).toEqual({ id: expect.any(Number), status: 'queued' });
    for (;;) {
      const res = await app.request().get(`/cms-plugin-bag/imports/${started.body.data.id}`).set('Authorization', `Bearer ${admin}`).expect(200);
      const report = res.body.data as Report;
      if (report.status === 'done' || report.status === 'failed') return report;
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  const reasons = (report: Report, kind: string) => report.skipped.filter((s) => s.kind === kind).map((s) => `${s.sourceId}:${s.reason}`);

  beforeAll(async () => {
    app = await setupStrapi({ config: { site: { url: 'https://new.example' } } });
    admin = await adminToken(app);
    await createUser(app.strapi, { email: 'ada-import@example.com', username: 'ada-import' });
  });
  afterAll(async () => {
    await app.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('refuses a DOCTYPE (400 Unsupported XML: DOCTYPE) and a file of neither format (400 Unrecognised export file)', async () => {
    const xxe = write('xxe.xml', `<?xml version="1.0"?><!DOCTYPE disqus [<!ENTITY x SYSTEM "file:///etc/passwd">]><disqus><thread dsq:id="1"><title>&x;</title></thread></disqus>`);
    const res = await upload(xxe, 'disqus').expect(400);
    expect([res.body.error.name, res.body.error.message]).toEqual(['ValidationError', 'Unsupported XML: DOCTYPE']);
    const rss = write('rss.xml', '<?xml version="1.0"?><rss version="2.0"><channel><title>t</title></channel></rss>');
    expect((await upload(rss, 'wordpress').expect(400)).body.error.message).toBe('Unrecognised export file');
    expect((await upload(write('text.xml', 'not xml at all'), 'wordpress').expect(400)).body.error.message).toBe('Unrecognised export file');
    expect((await upload(DISQUS, 'wordpress').expect(400)).body.error.message).toBe('Unrecognised export file');
  });

  let dryCounts: Record<string, number>;
  it('a dry run counts what a run would create and writes nothing', async () => {
    const report = await runImport(WXR, 'wordpress', true);
    dryCounts = report.counts;
    expect([report.status, report.error, report.dryRun]).toEqual(['done', null, true]);
    expect(report.counts).toMatchObject({ articles: 58, pages: 21, categories: 68, menus: 6 });
    expect(report.processed).toBe(report.total);
    expect(await documents('article').count({} as never)).toBe(0);
    expect(await documents('category').count({} as never)).toBe(0);
    expect(await documents('redirect').count({} as never)).toBe(0);
  }, 120_000);

  it('imports WordPress’s theme unit test export: counts by kind, statuses, redirects, menus, comments', async () => {
    const report = await runImport(WXR, 'wordpress');
    expect([report.status, report.error]).toEqual(['done', null]);
    expect(report.counts).toMatchObject({ articles: 58, pages: 21, categories: 68, comments: 24, menus: 6 });
    expect(report.counts.tags).toBeGreaterThanOrEqual(110);
    expect(report.counts).toEqual(dryCounts);
    expect(report.counts.menuItems).toBeGreaterThan(0);
    expect(report.counts.redirects).toBeGreaterThanOrEqual(2 * 56);
    // Attachments and skipped comments are reported with their reason.
    expect(report.skipped.filter((s) => s.kind === 'attachment')).toHaveLength(37);
    expect(reasons(report, 'article')).toEqual(['1168:password-protected']);
    expect(reasons(report, 'comment').sort()).toEqual(expect.arrayContaining(['167:page comment', '1017:page comment']));
    expect(report.skipped.filter((s) => s.kind === 'comment' && (s.reason === 'pingback' || s.reason === 'trackback'))).toHaveLength(4);

    // publish → published with the export's date; draft and future → draft only; a password → draft only.
    const published = await documents('article').findMany({ filters: { slug: 'template-sticky' }, status: 'published' } as never) as unknown as { publishedAt: string }[];
    expect(new Date(published[0].publishedAt).toISOString()).toBe('2012-01-07T14:07:21.000Z');
    for (const slug of ['scheduled', 'template-password-protected']) {
      expect(await documents('article').count({ filters: { slug }, status: 'published' } as never)).toBe(0);
      expect(await documents('article').count({ filters: { slug }, status: 'draft' } as never)).toBe(1);
    }
    // Categories keep their parents.
    const child = (await documents('category').findMany({ filters: { slug: 'child-2' }, populate: ['parent'] } as never)) as unknown as { parent: { slug: string } | null }[];
    expect(child[0].parent?.slug).toBe('child-1');
    // Old addresses answer 301 to the new path.
    const redirects = (await app.request().get('/api/bag/redirects').expect(200)).body.data as { from: string; to: string; status: number }[];
    expect(redirects).toContainEqual({ from: '/2012/01/07/template-sticky', to: '/articles/template-sticky', status: 301 });
    expect(redirects).toContainEqual({ from: '/?p=1241', to: '/articles/template-sticky', status: 301 });
    // Threaded comments with their dates.
    const [post] = (await documents('article').findMany({ filters: { slug: 'template-comments' }, status: 'draft' } as never)) as unknown as { documentId: string }[];
    const comments = (await documents('comment').findMany({ filters: { article: { documentId: post.documentId } }, populate: ['parent'], limit: 100 } as never)) as unknown as { content: string; createdAt: string; parent: { content: string } | null }[];
    expect(comments.length).toBeGreaterThanOrEqual(18);
    expect(comments.filter((c) => c.parent !== null).length).toBeGreaterThan(5);
    expect(comments.map((c) => new Date(c.createdAt).toISOString())).toContain('2013-03-14T15:12:58.000Z');
    // Menus with nested items.
    const items = (await documents('menu-item').findMany({ filters: { menu: { slug: 'all-pages' } }, populate: ['parent'], limit: 100 } as never)) as unknown as { parent: unknown }[];
    expect(items.length).toBe(18);
    expect(items.filter((i) => i.parent !== null)).toHaveLength(11);
  }, 240_000);

  it('a second run of the same file creates nothing: every item is skipped as `exists`', async () => {
    const before = await documents('comment').count({} as never);
    const report = await runImport(WXR, 'wordpress');
    expect(report.status).toBe('done');
    expect(report.counts).toEqual({ articles: 0, pages: 0, categories: 0, tags: 0, comments: 0, menus: 0, menuItems: 0, redirects: 0 });
    expect(reasons(report, 'article').filter((r) => r.endsWith(':exists'))).toHaveLength(58);
    expect(reasons(report, 'page').filter((r) => r.endsWith(':exists'))).toHaveLength(21);
    expect(await documents('comment').count({} as never)).toBe(before);
  }, 120_000);

  it('HTML becomes sanitized Markdown; comments keep states, threading, IPs, guests’ names; users by e-mail', async () => {
    const report = await runImport(write('hostile.xml', hostileWxr), 'wordpress');
    expect(report.counts).toMatchObject({ articles: 1, comments: 3, redirects: 2 });
    expect(reasons(report, 'comment')).toEqual(['4:trash']);
    const [article] = (await documents('article').findMany({ filters: { slug: 'hostile' }, populate: ['author'], status: 'published' } as never)) as unknown as { content: string; summary: string; author: { email: string } | null }[];
    expect(article.content).toContain('**kept**');
    expect(article.content).not.toMatch(/(^|[^\\])<(script|style|iframe)|onclick|onerror|javascript:|wp:paragraph|alert\(5\)/i);
    expect(article.content).toContain('\\<script>alert(4)');
    expect(article.summary).toBe('Short');
    expect(article.author?.email).toBe('ada-import@example.com');
    const comments = (await app.strapi.db.query(`${PLUGIN}.comment` as never).findMany({ where: { article: { slug: 'hostile' } }, populate: ['author', 'parent'], orderBy: { id: 'asc' } } as never)) as unknown as Record<string, any>[];
    expect(comments.map((c) => [c.status, c.ip, c.authorName ?? null, c.author?.email ?? null, c.parent ? 'reply' : 'root'])).toEqual([
      ['approved', '203.0.113.9', 'Guest Gary', null, 'root'],
      ['pending', '198.51.100.1', null, 'ada-import@example.com', 'reply'],
      ['rejected', null, 'Spammer', null, 'root'],
    ]);
    expect(comments[0].content).not.toMatch(/script/);
    expect(new Date(comments[0].createdAt).toISOString()).toBe('2019-05-02T08:00:00.000Z');
  });

  it('Disqus: threads matched by old WordPress address; deleted kept only with replies; spam rejected; others `no article`', async () => {
    const isso = await runImport(DISQUS, 'disqus');
    expect([isso.status, isso.counts.comments]).toEqual(['done', 0]);
    expect(reasons(isso, 'thread').sort()).toEqual(['2:no article', '3:no article']);

    const report = await runImport(write('disqus.xml', disqusOnOldAddress), 'disqus');
    expect([report.status, report.error]).toEqual(['done', null]);
    expect(report.counts.comments).toBe(3);
    expect(reasons(report, 'thread')).toEqual(['t2:no article']);
    expect(reasons(report, 'comment')).toEqual(['p4:deleted']);
    const rows = (await app.strapi.db.query(`${PLUGIN}.comment` as never).findMany({ where: { article: { slug: 'hostile' }, createdAt: { $gte: new Date('2020-01-01') } }, populate: ['parent'], orderBy: { createdAt: 'asc' } } as never)) as unknown as Record<string, any>[];
    expect(rows.map((c) => [c.status, Boolean(c.deleted), c.content === '' ? '' : 'text', c.authorName ?? null, c.parent ? 'reply' : 'root'])).toEqual([
      ['approved', true, '', null, 'root'],
      ['approved', false, 'text', 'Rita', 'reply'],
      ['rejected', false, 'text', 'S', 'root'],
    ]);
    const again = await runImport(write('disqus.xml', disqusOnOldAddress), 'disqus');
    expect(again.counts.comments).toBe(0);
    expect(reasons(again, 'comment').sort()).toEqual(['p1:exists', 'p2:exists', 'p3:exists', 'p4:deleted']);
  });
});
