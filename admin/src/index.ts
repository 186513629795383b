import { Discuss } from '@strapi/icons';
import { PERMISSIONS } from './permissions';
import { PLUGIN_ID } from './pluginId';
import { getTranslation } from './utils/getTranslation';

export default {
  register(app: any) {
    app.registerPlugin({ id: PLUGIN_ID, name: 'CMS Bag' });

    app.addMenuLink({
      to: `plugins/${PLUGIN_ID}`,
      icon: Discuss,
      intlLabel: { id: getTranslation('moderation.menu'), defaultMessage: 'Comments' },
      permissions: PERMISSIONS.commentsModerate,
      Component: () => import('./pages/ModerationPage'),
    });

    app.addSettingsLink('global', {
      id: PLUGIN_ID,
      to: PLUGIN_ID,
      intlLabel: { id: getTranslation('settings.link'), defaultMessage: 'CMS Bag' },
      permissions: PERMISSIONS.settingsRead,
      Component: () => import('./pages/SettingsPage'),
    });
  },

  async registerTrads({ locales }: { locales: string[] }) {
    return Promise.all(
      locales.map(async (locale) => {
        try {
          const { default: data } = await import(`./translations/${locale}.json`);
          return { data: prefixKeys(data), locale };
        } catch {
          return { data: {}, locale };
        }
      })
    );
  },
};

const prefixKeys = (data: Record<string, string>) =>
  Object.fromEntries(Object.entries(data).map(([key, value]) => [`${PLUGIN_ID}.${key}`, value]));
