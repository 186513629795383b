/**
 * Homepage widget "Most read": the ten articles with the most views, all time or of the last 1, 7 or 30 days
 * (PeriodSwitch.tsx), each opening the article in the Content Manager.
 */
import * as React from 'react';
import { Widget, useFetchClient } from '@strapi/strapi/admin';
import { Box, Flex, Link, Typography } from '@strapi/design-system';
import { Link as RouterLink } from 'react-router-dom';
import type { MostRead } from '../../api-types';
import { useModerationText } from '../../hooks/useModerationText';
import { PLUGIN_ID } from '../../pluginId';
import { PeriodSwitch, type MostReadPeriod } from './PeriodSwitch';

const ARTICLE_UID = `plugin::${PLUGIN_ID}.article`;

const MostReadWidget = () => {
  const t = useModerationText();
  const { get } = useFetchClient();
  const [list, setList] = React.useState<MostRead | null>(null);
  const [failed, setFailed] = React.useState(false);
  const [period, setPeriod] = React.useState<MostReadPeriod>('all');

  React.useEffect(() => {
    get<MostRead>(`/${PLUGIN_ID}/widgets/most-read${period === 'all' ? '' : `?period=${period}`}`).then(
      ({ data }) => setList(data),
      () => setFailed(true)
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [period]);

  if (failed) return <Widget.Error />;
  if (!list) return <Widget.Loading />;

  const periods = <PeriodSwitch value={period} onChange={setPeriod} />;
  const shown = list.meta.period ?? 'all';
  if (list.data.length === 0)
    return (
      <Box data-widget="most-read" data-period-shown={shown}>
        {periods}
        <Widget.NoData>{t('widget.mostRead.empty', 'No article yet')}</Widget.NoData>
      </Box>
    );

  const locale = encodeURIComponent(list.meta.locale);
  return (
    <Box data-widget="most-read" data-period-shown={shown}>
      {periods}
      <Box tag="ol">
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
    </Box>
  );
};

export default MostReadWidget;
