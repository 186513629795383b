/** What a page's <head> says about it: title, description, canonical, hreflang alternates, Open Graph, JSON-LD. */
import { absolute, SITE_NAME } from './config';
import { DEFAULT_LOCALE, localePath, type Locale } from './i18n';

export interface Seo {
  title: string;
  description: string;
  /** This page's path (no origin, no query but the page number). */
  path: string;
  /** The same page in each locale it exists in: locale → path. */
  alternates?: Partial<Record<Locale, string>>;
  type?: 'website' | 'article';
  image?: { url: string; width?: number | null; height?: number | null; alt?: string | null };
  jsonLd?: Record<string, unknown> | Record<string, unknown>[];
  noindex?: boolean;
}

export const fullTitle = (title: string) => (title === SITE_NAME ? title : `${title} · ${SITE_NAME}`);

export function websiteLd(locale: Locale) {
  return {
    '@context': 'https://schema.org',
    '@type': 'WebSite',
    name: SITE_NAME,
    url: absolute(localePath(locale)),
    inLanguage: locale,
    potentialAction: {
      '@type': 'SearchAction',
      target: `${absolute(localePath(locale, '/search'))}?q={search_term_string}`,
      'query-input': 'required name=search_term_string',
    },
  };
}

/** JSON for a <script type="application/ld+json">: `<` escaped so no content can close the script. */
export const ldJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

export const xDefault = (alternates: Partial<Record<Locale, string>>) => alternates[DEFAULT_LOCALE];
