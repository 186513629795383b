/** The `locale` of a content read: per call, else the client's default, else none (the host's default locale). */

/** Options of every read under `/api/bag`. */
export interface ReadOptions {
  /**
   * A locale code of the host's i18n plugin (`'fr'`): the content of that locale. Overrides the client's `locale`;
   * `null` sends none, so the server answers in the host's default locale. An unknown code is a 400
   * `Unknown locale supplied` (a `CmsBagError`). Comment reads accept it and the server ignores it: a thread belongs
   * to the article document, whatever its locale.
   */
  locale?: string | null;
}

/** The `locale` query parameter a read sends, or `{}` for none. */
export const localeQuery = (fallback: string | undefined, options: ReadOptions = {}): { locale?: string } => {
  const locale = options.locale === undefined ? fallback : options.locale;
  return locale ? { locale } : {};
};
