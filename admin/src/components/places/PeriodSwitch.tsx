/**
 * The "Most read" widget's switch between the views of the last 1, 7 and 30 days (docs/readers.md#in-the-admin), and
 * all time (the totals, which the widget shows first).
 */
import { Button, Flex } from '@strapi/design-system';
import { useModerationText } from '../../hooks/useModerationText';

export const MOST_READ_PERIODS = ['all', '1d', '7d', '30d'] as const;
export type MostReadPeriod = (typeof MOST_READ_PERIODS)[number];

export const PeriodSwitch = ({ value, onChange }: { value: MostReadPeriod; onChange: (period: MostReadPeriod) => void }) => {
  const t = useModerationText();
  const labels: Record<MostReadPeriod, string> = {
    all: t('widget.mostRead.period.all', 'All time'),
    '1d': t('widget.mostRead.period.1d', 'Today'),
    '7d': t('widget.mostRead.period.7d', '7 days'),
    '30d': t('widget.mostRead.period.30d', '30 days'),
  };
  return (
    <Flex gap={1} paddingBottom={2} role="group" aria-label={t('widget.mostRead.period', 'Period')} data-periods>
      {MOST_READ_PERIODS.map((period) => (
        <Button
          key={period}
          size="S"
          variant={period === value ? 'secondary' : 'tertiary'}
          aria-pressed={period === value}
          data-period={period}
          onClick={() => onChange(period)}
        >
          {labels[period]}
        </Button>
      ))}
    </Flex>
  );
};
