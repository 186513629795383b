/**
 * The Content Manager side panel of articles and pages: views; for articles the thread's state and, for roles with
 * Moderate comments, the comments by status with a link to the moderation page filtered on the article; an SEO
 * preview of the version being edited with its warnings.
 */
import * as React from 'react';
import { useFetchClient, useForm, useRBAC } from '@strapi/strapi/admin';
import { Box, Flex, Link, Typography } from '@strapi/design-system';
import { Link as RouterLink } from 'react-router-dom';
import type { EditPanelFigures } from '../../api-types';
import { useModerationText, type Translate } from '../../hooks/useModerationText';
import { PERMISSIONS } from '../../permissions';
import { PLUGIN_ID } from '../../pluginId';
import { seoWarnings, snippetOf, type SeoFields, type WarningId } from './seo';
import { ViewsChart } from './ViewsChart';

export const PANEL_MODELS: Record<string, 'article' | 'page'> = {
  [`plugin::${PLUGIN_ID}.article`]: 'article',
  [`plugin::${PLUGIN_ID}.page`]: 'page',
};

interface Props {
  kind: 'article' | 'page';
  documentId: string;
  locale?: string;
  /** When the saved document last changed: the figures are read again after a save or publish. */
  updatedAt?: string;
}

export const EditPanel = ({ kind, documentId, locale, updatedAt }: Props) => {
  const t = useModerationText();
  const { get } = useFetchClient();
  const values = useForm('CmsBagEditPanel', (state) => state.values) as SeoFields;
  // The moderation link only for roles that may open the moderation page.
  const { allowedActions } = useRBAC(PERMISSIONS.commentsModerate);
  const [figures, setFigures] = React.useState<EditPanelFigures | null>(null);
  const [failed, setFailed] = React.useState(false);

  React.useEffect(() => {
    const query = locale ? `?${new URLSearchParams({ locale })}` : '';
    get<{ data: EditPanelFigures }>(`/${PLUGIN_ID}/edit-panel/${kind}/${documentId}${query}`).then(
      ({ data }) => {
        setFigures(data.data);
        setFailed(false);
      },
      () => setFailed(true)
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [kind, documentId, locale, updatedAt]);

  if (failed) return <Typography textColor="danger600">{t('panel.error', 'The figures could not be loaded')}</Typography>;
  if (!figures) return <Typography textColor="neutral600">{t('panel.loading', 'Loading…')}</Typography>;

  const snippet = snippetOf(values, figures.urlTemplate);
  const warnings = seoWarnings(snippet, values.slug, figures.publishedSlug);
  const filter = new URLSearchParams({ article: documentId, articleTitle: String(values.title ?? '') });

  return (
    <Flex direction="column" alignItems="stretch" gap={4} width="100%" data-panel={kind}>
      <Typography variant="omega" data-views>
        {t('panel.views', '{count, plural, one {# view} other {# views}}', { count: figures.views })}
      </Typography>
      <ViewsChart kind={kind} documentId={documentId} locale={locale} updatedAt={updatedAt} />

      {(figures.comments || figures.thread) && (
        <Flex direction="column" alignItems="stretch" gap={1} data-comments>
          <Typography variant="sigma" textColor="neutral600">
            {t('panel.comments', 'Comments')}
          </Typography>
          {/* Counts by status come only to roles with Moderate comments. */}
          {figures.comments &&
            (['pending', 'approved', 'rejected'] as const).map((status) => (
              <Typography key={status} variant="omega" data-status={status}>
                {t(`panel.comments.${status}`, `{count, plural, other {# ${status}}}`, { count: figures.comments![status] })}
              </Typography>
            ))}
          {figures.thread && (
            <Typography variant="omega" data-thread={figures.thread.closed ? 'closed' : 'open'}>
              {figures.thread.closed ? t('panel.thread.closed', 'Thread closed') : t('panel.thread.open', 'Thread open')}
              {' · '}
              {t('panel.thread.pinned', '{count, plural, other {# pinned}}', { count: figures.thread.pinned })}
            </Typography>
          )}
          {allowedActions.canModerate && (
            <Link tag={RouterLink} to={`/plugins/${PLUGIN_ID}?${filter}`}>
              {t('panel.comments.moderate', 'Moderate this article’s comments')}
            </Link>
          )}
        </Flex>
      )}

      <Flex direction="column" alignItems="stretch" gap={1} data-seo>
        <Typography variant="sigma" textColor="neutral600">
          {t('panel.seo', 'Search result preview')}
        </Typography>
        <Box padding={3} background="neutral100" hasRadius>
          <Typography variant="pi" textColor="success600" tag="p" data-seo-url style={{ wordBreak: 'break-all' }}>
            {snippet.url ?? t('panel.seo.noSiteUrl', 'No front-end URL: site.url is not configured')}
          </Typography>
          <Typography variant="delta" textColor="primary600" tag="p" data-seo-title>
            {snippet.title}
          </Typography>
          <Typography variant="pi" textColor="neutral700" tag="p" data-seo-description>
            {snippet.description}
          </Typography>
        </Box>
        {warnings.map((warning) => (
          <Typography key={warning.id} variant="pi" textColor="warning600" tag="p" data-warning={warning.id}>
            {warningText(t, warning.id, warning.values)}
          </Typography>
        ))}
      </Flex>
    </Flex>
  );
};

/** Each warning's message, one literal id each so the translation test sees them. */
const warningText = (t: Translate, id: WarningId, values?: Record<string, number>) => {
  switch (id) {
    case 'titleLong':
      return t('panel.warning.titleLong', 'The title is {length, plural, one {# character} other {# characters}} long; search results show about 60', values);
    case 'descriptionLong':
      return t('panel.warning.descriptionLong', 'The description is {length, plural, one {# character} other {# characters}} long; search results show about 160', values);
    case 'descriptionMissing':
      return t('panel.warning.descriptionMissing', 'No description: search engines will pick a text of their own');
    case 'slugChanged':
      return t('panel.warning.slugChanged', 'The slug changed since publishing: the old URL will redirect');
  }
};
