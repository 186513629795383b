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
  const welcome: Doc[] = [];
  for (const data of banners) {
    const banner = await docs(`${P}.banner`).create({ data: data as never });
    await docs(`${P}.banner`).publish({ documentId: banner.documentId });
    welcome.push(banner);
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

  // Only with a release of the plugin whose types are localized (the upgrade test seeds the previous one, which has none:
  // there a write "in fr" would overwrite the English documents).
  if (strapi.plugin('i18n').service('content-types').isLocalizedContentType(strapi.getModel(`${P}.article` as never))) {
    await seedFrench(strapi, { news, tech, articles: articles.slice(0, 3), menu, about, welcome: welcome[0] });
  }

  strapi.log.info(`Seeded demo content; demo user ${DEMO_USER.email} / ${DEMO_USER.password}`);
}

/** The second locale of the demo site: the host's i18n plugin gets `fr`, as Settings → Internationalization adds one. */
export const DEMO_LOCALE = { code: 'fr', name: 'French (fr)' };

type Doc = { documentId: string };

/**
 * French versions of part of the demo content, so that the playground shows translations (the Content Manager's
 * locale switcher, `?locale=fr` on the routes): two categories, the first three articles, the About page, the main
 * menu with its own items, and the welcome banner. The rest stays English-only, as a site being translated is.
 */
async function seedFrench(strapi: Core.Strapi, demo: { news: Doc; tech: Doc; articles: Doc[]; menu: Doc; about: Doc; welcome: Doc }) {
  const docs = strapi.documents;
  const locales = strapi.plugin('i18n').service('locales');
  if (!(await locales.findByCode(DEMO_LOCALE.code))) await locales.create(DEMO_LOCALE);
  const locale = DEMO_LOCALE.code;

  // A localized document gets a locale with `update` + that locale; shared attributes (isTop, order, slug of a menu…)
  // are copied from the other locales by the host.
  const translate = (uid: string, documentId: string, data: Record<string, unknown>) =>
    docs(`${P}.${uid}` as never).update({ documentId, locale, data: data as never });

  await translate('category', demo.news.documentId, { title: 'Actualités', slug: 'actualites', description: 'Articles d’actualité' });
  await translate('category', demo.tech.documentId, { title: 'Technique', slug: 'technique', description: 'Articles techniques' });

  const loremFr =
    'Strapi est un CMS headless. Cet article est un contenu de démonstration créé par le playground de cms-plugin-bag pour que chaque route ait quelque chose à montrer.';
  for (const [index, article] of demo.articles.entries()) {
    const i = index + 1;
    await translate('article', article.documentId, {
      title: `Article de démonstration ${i}`,
      slug: `article-de-demonstration-${i}`,
      summary: `Résumé de l’article de démonstration ${i}.`,
      content: `# Article de démonstration ${i}\n\n${loremFr}`,
      category: (i % 2 ? demo.tech : demo.news).documentId,
    });
    await docs(`${P}.article`).publish({ documentId: article.documentId, locale });
  }

  await translate('page', demo.about.documentId, {
    title: 'À propos',
    slug: 'a-propos',
    content: '# À propos\n\nNous construisons des sites avec Strapi.',
    seoTitle: 'À propos — démo CMS Bag',
    seoKeywords: 'strapi, cms, plugin',
    seoDescription: 'Qui nous sommes et ce que montre ce site de démonstration.',
  });
  await docs(`${P}.page`).publish({ documentId: demo.about.documentId, locale });

  await translate('menu', demo.menu.documentId, { title: 'Menu principal', slug: 'main' });
  const item = async (title: string, url: string, order: number, parent?: string, extra: Record<string, unknown> = {}) =>
    docs(`${P}.menu-item`).create({ locale, data: { title, url, order, parent, menu: demo.menu.documentId, ...extra } as never });
  await item('Accueil', '/fr', 0);
  const blog = await item('Blog', '/fr/blog', 1, undefined, { isHot: true });
  await item('Actualités', '/fr/blog/actualites', 0, blog.documentId);
  await item('À propos', '/fr/a-propos', 2);

  await translate('banner', demo.welcome.documentId, { title: 'Bienvenue', subtitle: 'Une démo de cms-plugin-bag', link: '/fr' });
  await docs(`${P}.banner`).publish({ documentId: demo.welcome.documentId, locale });
}
