/**
 * Redirects (docs/redirects.md): old slugs of articles and pages, recorded when a document is published with another
 * slug (or unpublished) in a locale, answer with the slug it has there now; chains collapse because an old slug names
 * the document, not the next slug. Editors' redirects (the `redirect` type) are listed for front ends, and their
 * `from` paths are left out of the sitemap.
 */
import type { Core } from '@strapi/strapi';
import { invalidField } from '../../platform/errors';
import {
  editorRedirectDraft,
  editorRedirects,
  editorRedirectVersionsFrom,
  movedSlug,
  movedSlugs,
  publishedSlugs,
  recordSlug,
  type RedirectKind,
  type SlugRow,
} from './redirects.data';
import { isPath } from './redirect-rules';
import { frontPath } from '../discovery';
import { getService } from '../../platform/get-service';

export type { RedirectKind } from './redirects.data';

/** Where an old slug now lives: the current slug, its locale, and the front end's path (`site.paths`). */
export interface MovedTo {
  slug: string;
  locale: string;
  path: string;
}

/** One redirect as `GET /api/bag/redirects` lists it. */
export interface RedirectEntry {
  from: string;
  to: string | null;
  status: number;
}

/** A path as editors and `site.paths` may write it: percent-decoded, without a trailing slash (but `/`). */
export const normalizePath = (path: string) => {
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // A stray `%` is compared as written.
  }
  return decoded.length > 1 ? decoded.replace(/\/+$/, '') : decoded;
};

const KINDS: RedirectKind[] = ['article', 'page'];

const redirects = ({ strapi }: { strapi: Core.Strapi }) => {
  const config = () => getService(strapi, 'settings').file();

  return {
    enabled: () => config().redirects.enabled,

    /** The published versions (locale, slug) of a document, before and after a write (features/redirects/slug-history.document-middleware.ts). */
    publishedSlugs: (kind: RedirectKind, documentId: string) => publishedSlugs(strapi, kind, documentId),

    /** Keeps every slug published in `before` that its locale no longer has in `after` as an old slug of the document. */
    async record(kind: RedirectKind, documentId: string, before: SlugRow[], after: SlugRow[]) {
      const now = new Map(after.map((row) => [row.locale, row.slug]));
      for (const { locale, slug } of before) {
        if (now.get(locale) !== slug) await recordSlug(strapi, kind, locale, slug, documentId);
      }
    },

    /** Where `slug` of `kind` in `locale` moved; null when it did not (or redirects are off). */
    async find(kind: RedirectKind, slug: string, locale: string): Promise<MovedTo | null> {
      if (!this.enabled()) return null;
      const current = await movedSlug(strapi, kind, locale, slug);
      return current === null ? null : { slug: current, locale, path: frontPath(config().site.paths, kind, current, locale) };
    },

    /** Every redirect: the editors' ones, then (when on) every old slug of every locale as front-end paths. */
    async list(): Promise<RedirectEntry[]> {
      const entries: RedirectEntry[] = (await editorRedirects(strapi)).map((row) => ({
        from: row.from,
        to: row.to ?? null,
        status: row.statusCode,
      }));
      if (!this.enabled()) return entries;
      const { paths } = config().site;
      for (const kind of KINDS) {
        for (const row of await movedSlugs(strapi, kind)) {
          entries.push({ from: frontPath(paths, kind, row.from, row.locale), to: frontPath(paths, kind, row.to, row.locale), status: 301 });
        }
      }
      return entries;
    },

    /**
     * Refuses (400 naming `to`) an editor's redirect whose chain leads back to its own `from`: every version of the
     * other redirects counts (a draft goes live when published), and an absolute `to` on `site.url`'s origin is its
     * path. `data` changes the stored redirect `documentId` (an update: its versions are replaced) or, for a clone,
     * copies it (`replaces` false: its versions stay).
     */
    async assertNoLoop(data: Record<string, unknown>, documentId?: string, replaces = true) {
      const stored = documentId ? await editorRedirectDraft(strapi, documentId) : null;
      const from = data.from ?? stored?.from;
      const to = data.to !== undefined ? data.to : stored?.to;
      const statusCode = Number(data.statusCode ?? stored?.statusCode ?? 301);
      const siteUrl = config().site.url;
      const origin = siteUrl ? new URL(siteUrl).origin : null;
      const pathOf = (value: unknown): string | null => {
        if (typeof value !== 'string' || value === '') return null;
        if (isPath(value)) return normalizePath(value);
        try {
          const url = new URL(value);
          return url.origin === origin ? normalizePath(`${url.pathname}${url.search}`) : null;
        } catch {
          return null;
        }
      };
      const start = pathOf(from);
      let next = statusCode === 410 ? null : pathOf(to);
      if (start === null || next === null) return;
      // A walk from `to` along the chains, reading at each step only the redirects whose `from` is that path.
      const seen = new Set<string>();
      const pending = [next];
      while ((next = pending.pop() ?? null) !== null) {
        if (next === start) invalidField('to', 'leads back to from through other redirects (a loop)');
        if (seen.has(next)) continue;
        seen.add(next);
        for (const row of await editorRedirectVersionsFrom(strapi, next)) {
          const target = (replaces && row.documentId === documentId) || Number(row.statusCode) === 410 ? null : pathOf(row.to);
          if (target !== null && pathOf(row.from) === next) pending.push(target);
        }
      }
    },

    /** The editors' `from` paths, normalized (the sitemap never lists one). */
    async redirectedPaths(): Promise<Set<string>> {
      return new Set((await editorRedirects(strapi)).map((row) => normalizePath(row.from)));
    },
  };
};

export type RedirectsService = ReturnType<typeof redirects>;
export default redirects;
