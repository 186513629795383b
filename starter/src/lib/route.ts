/**
 * The site's addresses. English is unprefixed, French under `/fr/…` (`/en/…` answers a 301 to the unprefixed path):
 *
 * | path | page |
 * |---|---|
 * | `/` | home: banners, pinned and latest articles |
 * | `/blog`, `/blog/<category>/<sub-category>…` | every article; an article list of the last category named |
 * | `/categories/<slug>`, `/tags/<slug>` | a category's or a tag's articles |
 * | `/articles/<slug>` | an article (an old slug: 301 to the current one) |
 * | `/search?q=` | search results |
 * | `/account` | sign in, register, the account (a script of its own) |
 * | `/<slug>` | one of the plugin's pages (About…) |
 */
import { DEFAULT_LOCALE, isLocale, type Locale } from './i18n';

export type Route =
  | { kind: 'home' }
  | { kind: 'blog' }
  | { kind: 'category'; slug: string }
  | { kind: 'tag'; slug: string }
  | { kind: 'article'; slug: string }
  | { kind: 'search' }
  | { kind: 'account' }
  | { kind: 'page'; slug: string }
  | { kind: 'none' };

export interface Parsed {
  locale: Locale;
  route: Route;
  /** `/en/…`: where the same page lives unprefixed. */
  unprefixed?: string;
}

export function parse(pathname: string): Parsed {
  let segments: string[];
  try {
    segments = pathname.split('/').filter(Boolean).map((segment) => decodeURIComponent(segment));
  } catch {
    return { locale: DEFAULT_LOCALE, route: { kind: 'none' } };
  }
  let locale: Locale = DEFAULT_LOCALE;
  if (segments[0] === DEFAULT_LOCALE) {
    return { locale, route: { kind: 'none' }, unprefixed: `/${pathname.split('/').filter(Boolean).slice(1).join('/')}` };
  }
  if (isLocale(segments[0])) locale = segments.shift() as Locale;
  const [first, ...rest] = segments;
  const route: Route = (() => {
    if (!first) return { kind: 'home' };
    if (first === 'blog') return rest.length ? { kind: 'category', slug: rest[rest.length - 1] } : { kind: 'blog' };
    if (first === 'categories' && rest.length === 1) return { kind: 'category', slug: rest[0] };
    if (first === 'tags' && rest.length === 1) return { kind: 'tag', slug: rest[0] };
    if (first === 'articles' && rest.length === 1) return { kind: 'article', slug: rest[0] };
    if (first === 'search' && !rest.length) return { kind: 'search' };
    if (first === 'account' && !rest.length) return { kind: 'account' };
    if (!rest.length) return { kind: 'page', slug: first };
    return { kind: 'none' };
  })();
  return { locale, route };
}
