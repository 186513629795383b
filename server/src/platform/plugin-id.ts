export const PLUGIN_ID = 'cms-plugin-bag';

/** The uid of one of the plugin's content types or internal tables (models/). */
export const uid = <N extends string>(name: N) => `plugin::${PLUGIN_ID}.${name}` as const;
