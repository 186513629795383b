/**
 * The host's locales as its i18n plugin keeps them (features/content/locales.ts). The default locale: the core
 * store's `plugin_i18n_default_locale` row (no environment, no tag), which `getDefaultLocale()` reads through the
 * Query Engine. Every public read asks for it, so the statement is prepared (platform/prepared.ts) rather than built
 * by knex at each call. Read at every call, never kept: a default changed in the admin, on any instance, is the next
 * read's default.
 */
import type { Core } from '@strapi/strapi';
import { qualifiedTable, runPrepared } from '../../platform/prepared';

const KEY = 'plugin_i18n_default_locale';

/** The stored default locale code; undefined when the row is missing or holds anything but a JSON string. */
export const storedDefaultLocale = async (strapi: Core.Strapi): Promise<string | undefined> => {
  const table = qualifiedTable(strapi, strapi.db.metadata.get('strapi::core-store').tableName);
  const select = `SELECT "value" AS value, "type" AS type FROM ${table} WHERE "key" =`;
  const rest = 'AND "environment" IS NULL AND "tag" IS NULL LIMIT 1';
  const [row] = await runPrepared(strapi, { sqlite: `${select} ? ${rest}`, postgres: `${select} $1 ${rest}` }, [KEY]);
  if (!row || row.type !== 'string' || typeof row.value !== 'string') return undefined;
  try {
    const code: unknown = JSON.parse(row.value);
    return typeof code === 'string' && code !== '' ? code : undefined;
  } catch {
    return undefined;
  }
};

/** Every locale code the host's i18n plugin has. */
export const localeCodes = async (strapi: Core.Strapi): Promise<string[]> =>
  ((await strapi.db.query('plugin::i18n.locale').findMany({ select: ['code'] })) as { code: string }[]).map((row) => row.code);
