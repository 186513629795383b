/**
 * Locales of the host's i18n plugin for the locale tests: the playground starts with the host's default (`en`);
 * `addLocales` adds more through the i18n plugin's own service, as the admin's Settings → Internationalization does.
 */
import type { Core } from '@strapi/strapi';

/** The locales the locale tests use besides the default `en`; the last one is added after content exists. */
export const EXTRA_LOCALES = [
  { code: 'fr', name: 'French (fr)' },
  { code: 'de', name: 'German (de)' },
  { code: 'es', name: 'Spanish (es)' },
] as const;

/** Adds each locale the host does not have yet; returns the codes the host has afterwards. */
export async function addLocales(strapi: Core.Strapi, locales: readonly { code: string; name: string }[]): Promise<string[]> {
  const service = strapi.plugin('i18n').service('locales');
  for (const locale of locales) {
    if (!(await service.findByCode(locale.code))) await service.create({ code: locale.code, name: locale.name });
  }
  return ((await service.find()) as { code: string }[]).map((row) => row.code).sort();
}

/** The host's default locale code. */
export const defaultLocale = (strapi: Core.Strapi): Promise<string> => strapi.plugin('i18n').service('locales').getDefaultLocale();
