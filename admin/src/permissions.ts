import { PLUGIN_ID } from './pluginId';

const action = (uid: string) => [{ action: `plugin::${PLUGIN_ID}.${uid}`, subject: null }];

export const PERMISSIONS = {
  settingsRead: action('settings.read'),
  settingsUpdate: action('settings.update'),
  commentsModerate: action('comments.moderate'),
};
