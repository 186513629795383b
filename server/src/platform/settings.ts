/**
 * The configuration services act on: config/plugins.ts, overridden by what an administrator saved in
 * Settings → CMS Bag (only the keys platform/config/admin-settings.ts describes). Stored in the plugin store, so every
 * instance sharing the database sees a change within CACHE_SECONDS, and the instance that saved it at once.
 */
import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import { adminSettingsSchema, type AdminSettings } from './config/admin-settings';
import { parseConfig, type PluginConfig } from './config/schema';
import { PLUGIN_ID } from './plugin-id';
import { isRecord } from './is-record';

const CACHE_MS = 5_000;

const deepMerge = (base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> => {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    if (value === undefined) continue;
    out[key] = isRecord(value) && isRecord(base[key]) ? deepMerge(base[key] as Record<string, unknown>, value) : value;
  }
  return out;
};

const settings = ({ strapi }: { strapi: Core.Strapi }) => {
  const store = () => strapi.store({ type: 'plugin', name: PLUGIN_ID, key: 'settings' });
  let fileConfig: PluginConfig | undefined;
  let cached: { value: PluginConfig; at: number } | undefined;

  const file = (): PluginConfig => {
    fileConfig ??= parseConfig(strapi.config.get(`plugin::${PLUGIN_ID}`));
    return fileConfig;
  };

  const readOverrides = async (): Promise<AdminSettings> => {
    const parsed = adminSettingsSchema.safeParse((await store().get({})) ?? {});
    return parsed.success ? parsed.data : {};
  };

  return {
    /** config/plugins.ts alone, validated, defaults applied. */
    file,

    /** What an administrator saved, as stored (only admin keys). */
    overrides: readOverrides,

    /** The effective configuration: file config overridden by the admin settings. */
    async get(): Promise<PluginConfig> {
      if (cached && Date.now() - cached.at < CACHE_MS) return cached.value;
      const value = parseConfig(deepMerge(file() as unknown as Record<string, unknown>, await readOverrides()));
      cached = { value, at: Date.now() };
      return value;
    },

    /** Validates and stores admin settings (partial: only the given keys change); returns the effective config. */
    async update(input: unknown): Promise<PluginConfig> {
      const parsed = adminSettingsSchema.safeParse(input);
      if (!parsed.success) {
        const details = parsed.error.issues.map((issue) => ({ path: issue.path, message: issue.message, name: 'ValidationError' }));
        throw new errors.ValidationError(`${details[0].path.join('.')} ${details[0].message}`, { errors: details });
      }
      const next = deepMerge(await readOverrides(), parsed.data);
      await store().set({ value: next });
      cached = undefined;
      return this.get();
    },
  };
};

export type SettingsService = ReturnType<typeof settings>;
export default settings;
