/** The moderation list's filters: status, reported only, and the article chosen from a row (removable). */
import { Box, Button, Flex, SingleSelect, SingleSelectOption } from '@strapi/design-system';
import { Cross } from '@strapi/icons';
import type { CommentStatus } from '../../api-types';
import type { Filters } from '../../hooks/useModerationList';
import type { Translate } from '../../hooks/useModerationText';

export const STATUSES: CommentStatus[] = ['pending', 'approved', 'rejected'];

interface Props extends Filters {
  t: Translate;
  onChange: (filters: Partial<Filters>) => void;
}

export const FilterBar = ({ t, status, reported, article, onChange }: Props) => (
  <Flex gap={2} wrap="wrap">
    <Box minWidth="200px">
      <SingleSelect
        aria-label={t('moderation.filter.status', 'Status')}
        placeholder={t('moderation.filter.status', 'Status')}
        value={status || 'all'}
        onChange={(value: string | number) => onChange({ status: value === 'all' ? '' : (value as CommentStatus) })}
      >
        <SingleSelectOption value="all">{t('moderation.filter.all', 'All statuses')}</SingleSelectOption>
        {STATUSES.map((s) => (
          <SingleSelectOption key={s} value={s}>
            {t(`moderation.status.${s}`, s)}
          </SingleSelectOption>
        ))}
      </SingleSelect>
    </Box>
    <Button variant={reported ? 'secondary' : 'tertiary'} aria-pressed={reported} onClick={() => onChange({ reported: !reported })}>
      {t('moderation.filter.reported', 'Reported only')}
    </Button>
    {article && (
      <Button variant="tertiary" endIcon={<Cross />} onClick={() => onChange({ article: null })}>
        {t('moderation.filter.article', 'Article: {title}', { title: article.title })}
      </Button>
    )}
  </Flex>
);
