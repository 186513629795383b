/**
 * Shows how an app extends the plugin's content types (src/extensions/<plugin>/strapi-server): menu items get a
 * `badge` and an `image`, which GET /api/bag/menus/:slug serves (the image populated) with no change to the plugin.
 */
interface PluginServer {
  contentTypes: Record<string, { schema: { attributes: Record<string, unknown> } }>;
}

export default (plugin: PluginServer) => {
  const { attributes } = plugin.contentTypes['menu-item'].schema;
  attributes.badge = { type: 'string' };
  attributes.image = { type: 'media', multiple: false, allowedTypes: ['images'] };
  return plugin;
};
