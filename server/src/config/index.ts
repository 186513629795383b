import { configSchema, parseConfig } from './schema';

export default {
  // The defaults are the schema's own; Strapi deep-merges the user's config/plugins.ts over them.
  default: configSchema.parse({}),
  validator: (config: unknown) => {
    parseConfig(config);
  },
};
