/**
 * Shows how an app extends the plugin's content types (src/extensions/<plugin>/strapi-server): menu items get a
 * `badge`, which GET /api/bag/menus/:slug serves with no change to the plugin.
 */
interface PluginServer {
  contentTypes: Record<string, { schema: { attributes: Record<string, unknown> } }>;
}

export default (plugin: PluginServer) => {
  plugin.contentTypes['menu-item'].schema.attributes.badge = { type: 'string' };
  return plugin;
};
