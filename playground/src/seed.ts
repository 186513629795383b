/** Demo content for the playground, created once on the first start against an empty database. */
import type { Core } from '@strapi/strapi';

const P = 'plugin::cms-plugin-bag';
export const DEMO_USER = { username: 'demo', email: 'demo@example.com', password: 'Demo-password-1' };

const lorem =
  'Strapi is a headless CMS. This article is demo content seeded by the cms-plugin-bag playground so that every endpoint has something to show.';

export async function seed(strapi: Core.Strapi) {
  const docs = strapi.documents;
  if ((await docs(`${P}.article`).count({})) > 0) return;

  const role = await strapi.db.query('plugin::users-permissions.role').findOne({ where: { type: 'authenticated' } });
  const user = await strapi.plugin('users-permissions').service('user').add({
    ...DEMO_USER,
    provider: 'local',
    confirmed: true,
    blocked: false,
    role: role.id,
  });

  const category = async (title: string, slug: string, parent?: string) =>
    docs(`${P}.category`).create({ data: { title, slug, description: `${title} articles`, parent } as never });
  const news = await category('News', 'news');
  const tech = await category('Tech', 'tech');
  await category('Company', 'company', news.documentId);
  const frontend = await category('Frontend', 'frontend', tech.documentId);
  const backend = await category('Backend', 'backend', tech.documentId);

  const tags = await Promise.all(
    ['Strapi', 'TypeScript', 'Security', 'Release'].map((title) =>
      docs(`${P}.tag`).create({ data: { title, slug: title.toLowerCase() } as never })
    )
  );

  const categories = [news, tech, frontend, backend];
  const articles = [];
  for (let i = 1; i <= 10; i += 1) {
    const article = await docs(`${P}.article`).create({
      data: {
        title: `Demo article ${i}`,
        slug: `demo-article-${i}`,
        summary: `Summary of demo article ${i}.`,
        content: `# Demo article ${i}\n\n${lorem}`,
        isTop: i <= 2,
        category: categories[i % categories.length].documentId,
        tags: [tags[i % tags.length].documentId, tags[(i + 1) % tags.length].documentId],
        author: user.documentId,
      } as never,
    });
    await docs(`${P}.article`).publish({ documentId: article.documentId });
    articles.push(article);
  }

  const menu = await docs(`${P}.menu`).create({ data: { title: 'Main menu', slug: 'main' } as never });
  const item = async (title: string, url: string, order: number, parent?: string, extra: Record<string, unknown> = {}) =>
    docs(`${P}.menu-item`).create({ data: { title, url, order, parent, menu: menu.documentId, ...extra } as never });
  await item('Home', '/', 0);
  const blog = await item('Blog', '/blog', 1, undefined, { isHot: true });
  await item('News', '/blog/news', 0, blog.documentId);
  const techItem = await item('Tech', '/blog/tech', 1, blog.documentId);
  await item('Frontend', '/blog/tech/frontend', 0, techItem.documentId);
  await item('About', '/about', 2);
  await item('GitHub', 'https://github.com/strapi/strapi', 3, undefined, { target: '_blank', icon: 'github' });

  const about = await docs(`${P}.page`).create({
    data: {
      title: 'About',
      slug: 'about',
      content: '# About us\n\nWe build websites on Strapi.',
      seoTitle: 'About us — CMS Bag demo',
      seoKeywords: 'strapi, cms, plugin',
      seoDescription: 'Who we are and what this demo site shows.',
    } as never,
  });
  await docs(`${P}.page`).publish({ documentId: about.documentId });

  const banners = [
    { title: 'Welcome', subtitle: 'A demo of cms-plugin-bag', link: '/', order: 0, group: 'home' },
    { title: 'Read the blog', subtitle: 'Articles, categories and tags', link: '/blog', order: 1, group: 'home' },
    { title: 'Blog header', subtitle: 'Latest posts', link: '/blog', order: 0, group: 'blog' },
  ];
  for (const data of banners) {
    const banner = await docs(`${P}.banner`).create({ data: data as never });
    await docs(`${P}.banner`).publish({ documentId: banner.documentId });
  }

  const comment = async (content: string, article: string, parent?: string) =>
    docs(`${P}.comment`).create({
      data: { content, article, parent, status: 'approved', author: user.documentId } as never,
    });
  for (const article of articles.slice(0, 3)) {
    const root = await comment(`Great post on ${article.title}!`, article.documentId);
    const reply = await comment('Thanks, glad it helped.', article.documentId, root.documentId);
    await comment('A reply to the reply.', article.documentId, reply.documentId);
    await comment('Another top-level comment.', article.documentId);
  }

  strapi.log.info(`Seeded demo content; demo user ${DEMO_USER.email} / ${DEMO_USER.password}`);
}
