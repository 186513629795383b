import { configSchema, parseConfig } from './schema';
import { isRecord } from '../is-record';

/**
 * The defaults without their lists: Strapi fills the user's config in with `defaultsDeep`, which merges a list into
 * the default one index by index (`reasons: ['spam', 'rude']` would come out as `['spam', 'rude', 'off-topic',
 * 'other']`). The schema supplies a list that is absent when the config is parsed (platform/settings.ts).
 */
const withoutLists = (value: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(
    Object.entries(value)
      .filter(([, item]) => !Array.isArray(item))
      .map(([key, item]) => [key, isRecord(item) ? withoutLists(item) : item])
  );

export default {
  // The defaults are the schema's own; Strapi deep-merges the user's config/plugins.ts over them.
  default: withoutLists(configSchema.parse({}) as unknown as Record<string, unknown>),
  validator: (config: unknown) => {
    parseConfig(config);
  },
};
