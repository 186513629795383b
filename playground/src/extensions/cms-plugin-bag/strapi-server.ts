/**
 * Shows how an app extends the plugin's content types (src/extensions/<plugin>/strapi-server): menu items get a
 * `badge`, an `image`, an `article` and some `pages`, which GET /api/bag/menus/:slug serves (populated; articles and
 * pages in their published version only) with no change to the plugin.
 */
interface PluginServer {
  contentTypes: Record<string, { schema: { attributes: Record<string, unknown> } }>;
}

export default (plugin: PluginServer) => {
  const { attributes } = plugin.contentTypes['menu-item'].schema;
  attributes.badge = { type: 'string' };
  attributes.image = { type: 'media', multiple: false, allowedTypes: ['images'] };
  attributes.article = { type: 'relation', relation: 'manyToOne', target: 'plugin::cms-plugin-bag.article' };
  attributes.pages = { type: 'relation', relation: 'manyToMany', target: 'plugin::cms-plugin-bag.page' };
  return plugin;
};
