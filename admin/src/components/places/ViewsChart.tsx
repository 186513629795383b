/**
 * The side panel's chart of the last 30 days of views (docs/readers.md#in-the-admin): one bar per UTC day, oldest
 * left, drawn as an SVG from the numbers (no charting library); the total of the 30 days above it and each bar's
 * day and count in its title (a tooltip, and what a screen reader reads).
 */
import * as React from 'react';
import { useFetchClient } from '@strapi/strapi/admin';
import { Flex, Typography } from '@strapi/design-system';
import { useModerationText } from '../../hooks/useModerationText';
import { PLUGIN_ID } from '../../pluginId';

export interface DailyViews {
  day: string;
  views: number;
}

const WIDTH = 240;
const HEIGHT = 56;

interface Props {
  kind: 'article' | 'page';
  documentId: string;
  locale?: string;
  /** Read again after a save or publish, as the panel's figures. */
  updatedAt?: string;
}

/** The chart, with its own read of `GET /cms-plugin-bag/edit-panel/:kind/:documentId/daily`; nothing while it loads or failed. */
export const ViewsChart = ({ kind, documentId, locale, updatedAt }: Props) => {
  const { get } = useFetchClient();
  const [daily, setDaily] = React.useState<DailyViews[] | null>(null);
  React.useEffect(() => {
    const query = locale ? `?${new URLSearchParams({ locale })}` : '';
    get<{ data: DailyViews[] }>(`/${PLUGIN_ID}/edit-panel/${kind}/${documentId}/daily${query}`).then(
      ({ data }) => setDaily(data.data),
      () => setDaily(null)
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [kind, documentId, locale, updatedAt]);
  return daily ? <DailyBars daily={daily} /> : null;
};

/** The bars of `daily`, drawn from the numbers. */
export const DailyBars = ({ daily }: { daily: DailyViews[] }) => {
  const t = useModerationText();
  const max = Math.max(1, ...daily.map((point) => point.views));
  const sum = daily.reduce((total, point) => total + point.views, 0);
  const slot = WIDTH / Math.max(1, daily.length);
  return (
    <Flex direction="column" alignItems="stretch" gap={1} data-views-chart>
      <Typography variant="sigma" textColor="neutral600">
        {t('panel.chart.title', 'Last 30 days')}
      </Typography>
      <Typography variant="pi" textColor="neutral700" data-chart-total>
        {t('panel.chart.total', '{count, plural, one {# read in 30 days} other {# reads in 30 days}}', { count: sum })}
      </Typography>
      <svg
        role="img"
        aria-label={t('panel.chart.label', 'Views per day over the last 30 days')}
        viewBox={`0 0 ${WIDTH} ${HEIGHT + 1}`}
        width="100%"
        height={HEIGHT + 1}
        preserveAspectRatio="none"
      >
        <line x1={0} y1={HEIGHT} x2={WIDTH} y2={HEIGHT} stroke="#dcdce4" strokeWidth={1} />
        {daily.map((point, index) => {
          const height = point.views === 0 ? 0 : Math.max(2, Math.round((point.views / max) * (HEIGHT - 4)));
          return (
            <rect
              key={point.day}
              data-day={point.day}
              data-count={point.views}
              x={index * slot + 1}
              y={HEIGHT - height}
              width={Math.max(1, slot - 2)}
              height={height}
              rx={1}
              fill="#4945ff"
            >
              <title>{`${point.day}: ${point.views}`}</title>
            </rect>
          );
        })}
      </svg>
    </Flex>
  );
};
