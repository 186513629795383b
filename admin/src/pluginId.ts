export const PLUGIN_ID = 'cms-plugin-bag';
