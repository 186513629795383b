// What every view of the example site shares: one client, the site's addresses, small DOM helpers, the header.
import { CmsBagError, createClient, localStorageAdapter } from '/cms-bag-client.mjs';

/** One client for the whole page (security.js too): one stored session, one refresh at a time. */
export const client = createClient({ storage: localStorageAdapter() });

/** The page's query string: which view, and its parameters. */
export const params = new URLSearchParams(location.search);

/** The locale asked for in the address (`?locale=fr`), else none: the server's default locale answers. */
export const locale = params.get('locale') || undefined;

/**
 * The site's addresses. One HTML page; the view is in the query string. A real site would have its own paths here
 * (the plugin's `site.paths` are the ones its feeds, sitemap and redirects point to).
 */
const at = (query) => {
  const search = new URLSearchParams(Object.entries(query).filter(([, value]) => value !== undefined && value !== null && value !== ''));
  const text = search.toString();
  return text ? `${location.pathname}?${text}` : location.pathname;
};
export const paths = {
  list: ({ category, tag, page, q } = {}) => at({ category, tag, q, page: page > 1 ? page : undefined, locale }),
  article: (slug, articleLocale = locale) => at({ article: slug, locale: articleLocale }),
  account: () => at({ view: 'account' }),
};

export const $ = (id) => document.getElementById(id);

/** `<tag>` with its text (as text, never as HTML) and properties. */
export const el = (tag, text, properties = {}) => {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = text;
  Object.assign(node, properties);
  return node;
};

export const link = (text, href, properties = {}) => el('a', text, { href, ...properties });

/** Fills a list from a tree (`children` on every node), nesting a `<ul>` per level. */
export const renderTree = (list, nodes, render) => {
  list.replaceChildren(
    ...nodes.map((node) => {
      const item = render(node);
      if (node.children?.length) {
        const sub = el('ul');
        renderTree(sub, node.children, render);
        item.append(sub);
      }
      return item;
    })
  );
};

/** The server's message for a refused call (`CmsBagError`), else the error as text. */
export const errorText = (error) => (error instanceof CmsBagError ? error.message : String(error));

export const formatDate = (iso) => new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'long', day: 'numeric' });

let user;
/** The signed-in user, or null; asked once per page unless `fresh` (after a login or a logout). */
export async function currentUser({ fresh = false } = {}) {
  if (user === undefined || fresh) {
    user = (await client.isLoggedIn()) ? await client.me().catch(() => null) : null;
  }
  return user;
}

/** The header: the `main` menu of the locale, and the account link with the user's name when signed in. */
export async function showHeader() {
  const [menu, me] = await Promise.all([client.menus.get('main', { locale }).catch(() => null), currentUser()]);
  if (menu) {
    renderTree($('menu'), menu.data.items, (item) => {
      const li = el('li');
      li.append(link(item.title, item.url, { target: item.target ?? '' }));
      return li;
    });
  }
  $('nav-account').textContent = me ? `Account (${me.username})` : 'Account';
}

/** The view the address asks for is shown; the others stay hidden. */
export function currentView() {
  if (params.get('view') === 'account') return 'account';
  if (params.has('article')) return 'article';
  return 'list';
}
