import { PLUGIN_ID } from './pluginId';

const action = (uid: string) => [{ action: `plugin::${PLUGIN_ID}.${uid}`, subject: null }];

export const PERMISSIONS = {
  settingsRead: action('settings.read'),
  settingsUpdate: action('settings.update'),
  commentsModerate: action('comments.moderate'),
  importContent: action('import.content'),
  newslettersSend: action('newsletters.send'),
  /** Reading articles in the Content Manager: the "Most read" widget lists them. */
  articlesRead: [{ action: 'plugin::content-manager.explorer.read', subject: `plugin::${PLUGIN_ID}.article` }],
  /**
   * The host's own webhook permissions: the comment webhooks section reads and updates the host's webhooks. One list,
   * as useRBAC takes it (`allowedActions.canRead`, `canUpdate`, named after each action's last part).
   */
  webhooks: [
    { action: 'admin::webhooks.read', subject: null },
    { action: 'admin::webhooks.update', subject: null },
  ],
};
