import { frontPath } from './site';

describe("the front end's path of a document (site.paths, docs/discovery.md)", () => {
  const paths = { article: '/{locale}/blog/{slug}', page: '{slug}', category: '/c/{slug}?lang={locale}', tag: '/t/{slug}/{slug}' };

  it('replaces {slug} and {locale}, every time they occur, URL-encoded', () => {
    expect(frontPath(paths, 'article', 'hello world', 'fr')).toBe('/fr/blog/hello%20world');
    expect(frontPath(paths, 'category', 'a/b', 'pt-BR')).toBe('/c/a%2Fb?lang=pt-BR');
    expect(frontPath(paths, 'tag', 'x', 'en')).toBe('/t/x/x');
  });

  it('always starts with a slash', () => {
    expect(frontPath(paths, 'page', 'about', 'en')).toBe('/about');
  });

  it('replaces {localePrefix} by /<locale>, and by nothing in the default locale', () => {
    const prefixed = { ...paths, article: '{localePrefix}/articles/{slug}', page: '{localePrefix}/{slug}' };
    expect(frontPath(prefixed, 'article', 'hello', 'fr', 'en')).toBe('/fr/articles/hello');
    expect(frontPath(prefixed, 'article', 'hello', 'en', 'en')).toBe('/articles/hello');
    expect(frontPath(prefixed, 'page', 'about', 'en', 'en')).toBe('/about');
    expect(frontPath(prefixed, 'page', 'a-propos', 'pt-BR', 'en')).toBe('/pt-BR/a-propos');
  });
});
