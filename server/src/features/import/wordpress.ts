/**
 * A WordPress export (WXR 1.1/1.2) mapped as docs/import.md#wordpress says: categories, tags and menus from the
 * channel's terms, then each `item` as it streams by (its comments are inside it). Only small maps of ids stay in
 * memory; menu items wait for the end, as they may point at posts further down the file.
 */
import { isRedirectPath } from '../redirects';
import { child, childrenOf, textOf, type XmlNode } from './xml-records';
import { htmlToMarkdown } from './html-markdown';
import { exportDate, slugify, type ImportRun, type Made } from './import-run';
import { wordpressComments } from './wordpress-comments';
import { createMenuItems, type MenuItemRecord } from './wordpress-menus';

const DRAFT = new Set(['draft', 'pending', 'private', 'future']);

/** `<wp:postmeta>` as a map of key to value. */
const metaOf = (item: XmlNode) =>
  new Map(childrenOf(item, 'wp:postmeta').map((meta) => [textOf(meta, 'wp:meta_key'), textOf(meta, 'wp:meta_value')]));

/** The path (and query) of an old address, without a trailing slash; null for none or another scheme. */
export const oldPath = (link: string): string | null => {
  try {
    const url = new URL(link);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname;
    return `${path}${url.search}`;
  } catch {
    return null;
  }
};

export const createWordpressImport = (run: ImportRun) => {
  let base = '';
  const categories = new Map<string, Made>();
  const categoryPaths = new Map<string, string>();
  const posts = new Map<string, { path: string; title: string }>();
  const menus = new Map<string, Made>();
  const menuItems: MenuItemRecord[] = [];
  /** The channel's authors (`wp:author`): login to e-mail; an item names its author by login. */
  const authors = new Map<string, string>();
  const key = (id: string) => `wordpress:${base}:${id}`;

  const category = async (node: XmlNode) => {
    const slug = slugify(textOf(node, 'wp:category_nicename'));
    if (!slug) return;
    categoryPaths.set(textOf(node, 'wp:term_id'), run.path('category', slug));
    const existing = await run.bySlug('category', slug);
    if (existing) {
      categories.set(slug, existing);
      run.skip('category', slug, 'exists');
      return;
    }
    const parent = categories.get(slugify(textOf(node, 'wp:category_parent')));
    const made = await run.create('category', 'categories', {
      title: textOf(node, 'wp:cat_name') || slug,
      slug,
      description: textOf(node, 'wp:category_description') || undefined,
      ...(parent ? { parent: parent.documentId } : {}),
    });
    categories.set(slug, made);
  };

  /** Tags met so far by slug (a dry run creates none, so the database cannot tell). */
  const tags = new Map<string, Made>();
  const tag = async (slugValue: string, name: string): Promise<Made | null> => {
    const slug = slugify(slugValue);
    if (!slug) return null;
    const known = tags.get(slug) ?? (await run.bySlug('tag', slug)) ?? (await run.create('tag', 'tags', { title: name || slug, slug }));
    tags.set(slug, known);
    return known;
  };

  const term = async (node: XmlNode) => {
    if (textOf(node, 'wp:term_taxonomy') !== 'nav_menu') return;
    const slug = slugify(textOf(node, 'wp:term_slug'));
    if (!slug) return;
    const existing = await run.bySlug('menu', slug);
    if (existing) {
      menus.set(slug, existing);
      run.skip('menu', slug, 'exists');
      return;
    }
    menus.set(slug, await run.create('menu', 'menus', { title: textOf(node, 'wp:term_name') || slug, slug }));
  };

  /** The item's `category` terms of a taxonomy (`domain`), as nicename and name. */
  const termsOf = (item: XmlNode, domain: string) =>
    childrenOf(item, 'category')
      .filter((c) => c.attributes.domain === domain)
      .map((c) => ({ slug: c.attributes.nicename ?? '', name: c.text.trim() }));

  const redirects = async (link: string, postId: string, to: string) => {
    const froms = new Set([oldPath(link), `/?p=${postId}`].filter((p): p is string => p !== null && p !== to && p !== '/'));
    for (const from of froms) {
      if (await run.redirectExists(from)) run.skip('redirect', from, 'exists');
      else if (!isRedirectPath(from)) run.skip('redirect', from, 'not a path');
      else await run.create('redirect', 'redirects', { from, to, statusCode: 301 }, true);
    }
  };

  const post = async (item: XmlNode, type: 'post' | 'page', postId: string) => {
    const kind = type === 'post' ? 'article' : 'page';
    const status = textOf(item, 'wp:status');
    if (!DRAFT.has(status) && status !== 'publish') return run.skip(kind, postId, status || 'no status');
    const sourceKey = key(postId);
    const seen = await run.seen(sourceKey);
    let made: Made;
    if (seen) {
      run.skip(kind, postId, 'exists');
      made = { id: Number(seen.targetId), documentId: String(seen.targetDocumentId) };
      posts.set(postId, { path: seen.path ?? '', title: textOf(item, 'title') });
    } else {
      const title = textOf(item, 'title') || `Untitled ${postId}`;
      const slug = await run.freeSlug(kind, slugify(textOf(item, 'wp:post_name')) || slugify(title) || `${type}-${postId}`);
      const password = textOf(item, 'wp:post_password') !== '';
      const published = status === 'publish' && !password;
      const content = htmlToMarkdown(child(item, 'content:encoded')?.text ?? '');
      const author = await run.userByEmail(authors.get(textOf(item, 'dc:creator')) ?? '');
      let values: Record<string, unknown>;
      if (type === 'post') {
        const [first] = termsOf(item, 'category');
        const categoryMade = first ? categories.get(slugify(first.slug)) : undefined;
        const tags: string[] = [];
        for (const t of termsOf(item, 'post_tag')) {
          const made = await tag(t.slug, t.name);
          if (made) tags.push(made.documentId);
        }
        const summary = htmlToMarkdown(child(item, 'excerpt:encoded')?.text ?? '').slice(0, 500);
        values = { title, slug, content, summary: summary || undefined, tags, ...(categoryMade ? { category: categoryMade.documentId } : {}), ...(author ? { author } : {}) };
      } else {
        const meta = metaOf(item);
        values = { title, slug, content, seoTitle: meta.get('_yoast_wpseo_title') || undefined, seoDescription: meta.get('_yoast_wpseo_metadesc') || undefined };
      }
      made = await run.create(kind, type === 'post' ? 'articles' : 'pages', values, published);
      if (published) await run.setPublishedAt(kind, made, exportDate(textOf(item, 'wp:post_date_gmt')) ?? exportDate(textOf(item, 'wp:post_date')));
      const path = run.path(kind, slug);
      await run.remember(sourceKey, kind, made, path);
      if (password) run.skip(kind, postId, 'password-protected');
      posts.set(postId, { path, title });
      await redirects(textOf(item, 'link'), postId, path);
    }
    await wordpressComments(run, item, { kind, article: made, key });
  };

  return {
    async record(node: XmlNode) {
      switch (node.name) {
        case 'wp:base_blog_url':
          base = node.text.trim().replace(/\/+$/, '');
          return false;
        case 'wp:category':
          await category(node);
          return false;
        case 'wp:tag': {
          const slug = textOf(node, 'wp:tag_slug');
          const existing = await run.bySlug('tag', slugify(slug));
          if (existing) {
            tags.set(slugify(slug), existing);
            run.skip('tag', slugify(slug), 'exists');
          } else await tag(slug, textOf(node, 'wp:tag_name'));
          return false;
        }
        case 'wp:term':
          await term(node);
          return false;
        case 'wp:author':
          authors.set(textOf(node, 'wp:author_login'), textOf(node, 'wp:author_email'));
          return false;
        case 'item': {
          const type = textOf(node, 'wp:post_type');
          const postId = textOf(node, 'wp:post_id');
          if (type === 'post' || type === 'page') await post(node, type, postId);
          else if (type === 'nav_menu_item') menuItems.push(menuItemOf(node, postId));
          else run.skip(type || 'item', postId, type || 'no post type');
          return true;
        }
        default:
          return false;
      }
    },
    async finish() {
      await createMenuItems(run, menuItems, { menus, posts, categoryPaths, key });
    },
  };
};

const menuItemOf = (item: XmlNode, postId: string): MenuItemRecord => {
  const meta = metaOf(item);
  const menu = childrenOf(item, 'category').find((c) => c.attributes.domain === 'nav_menu');
  return {
    postId,
    title: textOf(item, 'title'),
    order: Number(textOf(item, 'wp:menu_order')) || 0,
    menu: slugify(menu?.attributes.nicename ?? ''),
    parent: meta.get('_menu_item_menu_item_parent') ?? '0',
    type: meta.get('_menu_item_type') ?? '',
    object: meta.get('_menu_item_object') ?? '',
    objectId: meta.get('_menu_item_object_id') ?? '',
    url: meta.get('_menu_item_url') ?? '',
    target: meta.get('_menu_item_target') ?? '',
  };
};
