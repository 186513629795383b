/**
 * The `discovery-comment-feed` service: `GET /api/bag/articles/:id/comments.rss`, RSS 2.0 of an article's 50 newest
 * comments the public tree shows (docs/comments.md#comment-feed). Links are `site.url` + the article's path +
 * `#comment-<documentId>`; 503 `Site URL is not configured` while `site.url` is unset.
 */
import type { Core } from '@strapi/strapi';
import type { Identifier } from '../comments/comment-vocabulary';
import { uid } from '../../platform/plugin-id';
import type { CommentNode } from '../comments/tree';
import { escapeHtml } from '../comments';
import { getService } from '../../platform/get-service';
import { siteOf } from './site';
import { rfc822Date, xml } from './xml';
import { articleRowById, firstPublishedArticle } from './comment-feed.data';

const ARTICLE = uid('article');

/** Items in a comment feed. */
export const COMMENT_FEED_SIZE = 50;

type TreeNode = CommentNode & { children: TreeNode[]; deleted?: boolean };

const byNewest = (a: TreeNode, b: TreeNode) => (a.createdAt === b.createdAt ? b.id - a.id : a.createdAt < b.createdAt ? 1 : -1);

/** Every node of the tree, without recursion (a deep reply chain cannot overflow the stack); tombstones left out. */
const flatten = (roots: TreeNode[]): TreeNode[] => {
  const out: TreeNode[] = [];
  const stack = [...roots];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (!node.deleted) out.push(node);
    stack.push(...node.children);
  }
  return out;
};

const commentFeed = ({ strapi }: { strapi: Core.Strapi }) => ({
  /** The feed document; the article in the requested locale when it is published there, else its comments' version. */
  async rss(identifier: Identifier | undefined, requestedLocale: unknown): Promise<string> {
    const config = await getService(strapi, 'settings').get();
    const { locale, defaultLocale } = await getService(strapi, 'locales').resolve(requestedLocale);
    const site = siteOf(strapi, config, defaultLocale);
    const { data } = await getService(strapi, 'comments').tree(identifier, config.comments.markdown);
    // The tree answered, so the document has a published version.
    const documentId = await articleDocumentId(strapi, identifier);
    const article = ((await strapi.documents(ARTICLE).findOne({ documentId, locale, status: 'published', fields: ['title', 'slug', 'locale'] } as never)) ??
      (await firstPublishedArticle(strapi, documentId))) as { title: string; slug: string; locale: string };
    const page = site.link('article', article.slug, article.locale);
    const title = `Comments on “${article.title}”`;
    const self = site.host(`/api/bag/articles/${encodeURIComponent(documentId)}/comments.rss`);
    const items = flatten(data as TreeNode[]).sort(byNewest).slice(0, COMMENT_FEED_SIZE);

    const out = [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/">',
      '<channel>',
      `<title>${xml(title)}</title>`,
      `<link>${xml(page)}</link>`,
      `<description>${xml(title)}</description>`,
      `<language>${xml(article.locale)}</language>`,
      `<atom:link href="${xml(self)}" rel="self" type="application/rss+xml"/>`,
    ];
    if (items[0]) out.push(`<lastBuildDate>${rfc822Date(items[0].createdAt)}</lastBuildDate>`);
    for (const item of items) {
      const who = item.isAdmin ? config.site.title || 'The site' : item.author ? item.author.username : 'A guest';
      out.push('<item>', `<title>${xml(`Comment by ${who}`)}</title>`, `<link>${xml(`${page}#comment-${item.documentId}`)}</link>`);
      out.push(`<guid isPermaLink="false">urn:cms-plugin-bag:comment:${xml(item.documentId)}</guid>`, `<pubDate>${rfc822Date(item.createdAt)}</pubDate>`);
      // RSS readers render a description as HTML: the sanitized rendering, or the text HTML-escaped, and only then
      // escaped for XML, so a commenter's markup arrives as text (docs/comments.md#comment-feed).
      const html = item.contentHtml ?? escapeHtml(item.content);
      out.push(`<description>${xml(html)}</description>`, `<dc:creator>${xml(who)}</dc:creator>`, '</item>');
    }
    out.push('</channel>', '</rss>', '');
    return out.join('\n');
  },
});

const articleDocumentId = async (strapi: Core.Strapi, identifier: Identifier | undefined): Promise<string> => {
  if (typeof identifier === 'string') return identifier;
  const row = await articleRowById(strapi, identifier);
  return row.documentId;
};

export type CommentFeedService = ReturnType<typeof commentFeed>;
export default commentFeed;
