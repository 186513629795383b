/** Homepage widget "Most read": the ten articles with the most views, each opening the article in the Content Manager. */
import * as React from 'react';
import { Widget, useFetchClient } from '@strapi/strapi/admin';
import { Box, Flex, Link, Typography } from '@strapi/design-system';
import { Link as RouterLink } from 'react-router-dom';
import type { MostRead } from '../../api-types';
import { useModerationText } from '../../hooks/useModerationText';
import { PLUGIN_ID } from '../../pluginId';

const ARTICLE_UID = `plugin::${PLUGIN_ID}.article`;

const MostReadWidget = () => {
  const t = useModerationText();
  const { get } = useFetchClient();
  const [list, setList] = React.useState<MostRead | null>(null);
  const [failed, setFailed] = React.useState(false);

  React.useEffect(() => {
    get<MostRead>(`/${PLUGIN_ID}/widgets/most-read`).then(
      ({ data }) => setList(data),
      () => setFailed(true)
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  if (failed) return <Widget.Error />;
  if (!list) return <Widget.Loading />;
  if (list.data.length === 0) return <Widget.NoData>{t('widget.mostRead.empty', 'No article yet')}</Widget.NoData>;

  const locale = encodeURIComponent(list.meta.locale);
  return (
    <Box tag="ol" data-widget="most-read">
      {list.data.map((article) => (
        <Flex tag="li" key={article.documentId} justifyContent="space-between" gap={2} paddingBottom={2} data-read={article.documentId}>
          <Link tag={RouterLink} to={`/content-manager/collection-types/${ARTICLE_UID}/${article.documentId}?plugins[i18n][locale]=${locale}`}>
            {article.title}
          </Link>
          <Typography variant="pi" textColor="neutral600" data-views>
            {t('widget.mostRead.views', '{count, plural, one {# view} other {# views}}', { count: article.views })}
          </Typography>
        </Flex>
      ))}
    </Box>
  );
};

export default MostReadWidget;
