import * as React from 'react';
import { useIntl } from 'react-intl';
import { Discuss, Eye, Mail, Upload } from '@strapi/icons';
import { NewsletterPanel } from './components/newsletters/NewsletterPanel';
import { EditPanel, PANEL_MODELS } from './components/places/EditPanel';
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

    app.addMenuLink({
      to: `plugins/${PLUGIN_ID}-import`,
      icon: Upload,
      intlLabel: { id: getTranslation('import.menu'), defaultMessage: 'Import' },
      permissions: PERMISSIONS.importContent,
      Component: () => import('./pages/ImportPage'),
    });

    app.addMenuLink({
      to: `plugins/${PLUGIN_ID}-newsletters`,
      icon: Mail,
      intlLabel: { id: getTranslation('newsletters.menu'), defaultMessage: 'Newsletters' },
      permissions: PERMISSIONS.newslettersSend,
      Component: () => import('./pages/NewslettersPage'),
    });

    app.addSettingsLink('global', {
      id: PLUGIN_ID,
      to: PLUGIN_ID,
      intlLabel: { id: getTranslation('settings.link'), defaultMessage: 'CMS Bag' },
      permissions: PERMISSIONS.settingsRead,
      Component: () => import('./pages/SettingsPage'),
    });

    // Homepage widgets (Strapi 5.13 and later).
    app.widgets?.register([
      {
        id: 'moderation-queue',
        pluginId: PLUGIN_ID,
        icon: Discuss,
        title: { id: getTranslation('widget.moderation.title'), defaultMessage: 'Comments to moderate' },
        link: { label: { id: getTranslation('widget.moderation.link'), defaultMessage: 'Open moderation' }, href: `/plugins/${PLUGIN_ID}` },
        component: async () => (await import('./components/places/ModerationWidget')).default,
        permissions: PERMISSIONS.commentsModerate,
      },
      {
        id: 'most-read',
        pluginId: PLUGIN_ID,
        icon: Eye,
        title: { id: getTranslation('widget.mostRead.title'), defaultMessage: 'Most read' },
        component: async () => (await import('./components/places/MostReadWidget')).default,
        permissions: PERMISSIONS.articlesRead,
      },
    ]);
  },

  bootstrap(app: any) {
    // The side panel of articles and pages in the Content Manager's edit view; nothing on other types or a new entry.
    const CmsBagPanel = ({ model, documentId, document }: { model: string; documentId?: string; document?: Record<string, unknown> }) => {
      const { formatMessage } = useIntl();
      const kind = PANEL_MODELS[model];
      if (!kind || !documentId) return null;
      return {
        title: formatMessage({ id: getTranslation('panel.title'), defaultMessage: 'Readers and search' }),
        content: React.createElement(EditPanel, {
          kind,
          documentId,
          locale: typeof document?.locale === 'string' ? document.locale : undefined,
          updatedAt: typeof document?.updatedAt === 'string' ? document.updatedAt : undefined,
        }),
      };
    };
    // "Send as newsletter" beside an article, for roles with Send newsletters (the panel shows nothing without newsletters).
    const NewsletterSidePanel = ({ model, documentId, document }: { model: string; documentId?: string; document?: Record<string, unknown> }) => {
      const { formatMessage } = useIntl();
      if (PANEL_MODELS[model] !== 'article' || !documentId) return null;
      return {
        title: formatMessage({ id: getTranslation('newsletters.panel'), defaultMessage: 'Send as newsletter' }),
        content: React.createElement(NewsletterPanel, { documentId, locale: typeof document?.locale === 'string' ? document.locale : undefined }),
      };
    };
    app.getPlugin('content-manager').apis.addEditViewSidePanel([CmsBagPanel, NewsletterSidePanel]);
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
