/**
 * The host's locales (its i18n plugin) as the public reads see them: `resolve` turns a request's `locale` into one
 * of the host's codes, the default locale when absent, and answers 400 `Unknown locale supplied` (the wording of the
 * host's i18n GraphQL layer) otherwise.
 *
 * Codes are read from the database, remembered for a few seconds, and read again before any code is refused, so a
 * locale added in the admin (on this instance or another sharing the database) is served at once. The default
 * locale is read on every call from the row the host's i18n keeps it in (one prepared statement), as its Document
 * Service reads it on every read.
 */
import type { Core } from '@strapi/strapi';
import { fieldError } from '../../platform/errors';
import { localeCodes, storedDefaultLocale } from './locales.data';

/** How long a list of codes read from the database is trusted for codes it contains. */
const CODES_TTL_MS = 5_000;

export { UNKNOWN_LOCALE } from '../../platform/shapes/common';
import { UNKNOWN_LOCALE } from '../../platform/shapes/common';

export interface ResolvedLocale {
  /** The locale to read. */
  locale: string;
  /** The host's default locale. */
  defaultLocale: string;
}

const locales = ({ strapi }: { strapi: Core.Strapi }) => {
  let codes: { set: Set<string>; at: number } | null = null;

  const readCodes = async () => {
    codes = { set: new Set(await localeCodes(strapi)), at: Date.now() };
    return codes.set;
  };

  const isKnown = async (code: string) => {
    if (codes && Date.now() - codes.at < CODES_TTL_MS && codes.set.has(code)) return true;
    return (await readCodes()).has(code);
  };

  return {
    /** The host's default locale code: its stored row, read now (the host's own read if the row is not as expected). */
    async defaultLocale(): Promise<string> {
      return (await storedDefaultLocale(strapi)) ?? strapi.plugin('i18n').service('locales').getDefaultLocale();
    },

    /** Every locale code the host has, read now. */
    async codes(): Promise<string[]> {
      return [...(await readCodes())];
    },

    /**
     * The locale to read for a request's `locale` (a query parameter, a GraphQL argument): absent or empty → the
     * default locale; one of the host's codes → that code; anything else → 400 `Unknown locale supplied`.
     */
    async resolve(requested: unknown): Promise<ResolvedLocale> {
      const defaultLocale = await this.defaultLocale();
      if (requested === undefined || requested === null || requested === '') return { locale: defaultLocale, defaultLocale };
      if (typeof requested !== 'string' || !(requested === defaultLocale || (await isKnown(requested)))) {
        throw fieldError('locale', UNKNOWN_LOCALE, UNKNOWN_LOCALE);
      }
      return { locale: requested, defaultLocale };
    },

    /** Forgets the remembered codes (a locale was created or deleted on this instance). */
    forget() {
      codes = null;
    },
  };
};

export type LocalesService = ReturnType<typeof locales>;
export default locales;
