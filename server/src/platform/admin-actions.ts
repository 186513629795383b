/** Admin panel permissions the plugin registers (Settings → Administration Panel → Roles → Plugins → CMS Bag). */
import { PLUGIN_ID } from './plugin-id';

export const ADMIN_ACTIONS = {
  settingsRead: `plugin::${PLUGIN_ID}.settings.read`,
  settingsUpdate: `plugin::${PLUGIN_ID}.settings.update`,
  commentsModerate: `plugin::${PLUGIN_ID}.comments.moderate`,
  importContent: `plugin::${PLUGIN_ID}.import.content`,
  newslettersSend: `plugin::${PLUGIN_ID}.newsletters.send`,
} as const;

/** The Content Manager's read action: the plugin's places beside the editor ask it on the content type they show. */
export const CONTENT_MANAGER_READ = 'plugin::content-manager.explorer.read';

/** An action on one subject (a content type uid), as `admin::hasPermissions` takes it. */
export interface SubjectAction {
  action: string;
  subject: string;
}

/** Route policy: the admin user's role must hold every one of `actions` (on its subject, when one is named). */
export const requireAdmin = (...actions: (string | SubjectAction)[]) => ({ name: 'admin::hasPermissions', config: { actions } });
