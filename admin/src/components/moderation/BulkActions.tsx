/** Approve or reject every selected comment at once. */
import { Button, Flex } from '@strapi/design-system';
import { Check, Cross } from '@strapi/icons';
import type { CommentStatus } from '../../api-types';
import type { Translate } from '../../hooks/useModerationText';

interface Props {
  t: Translate;
  selected: string[];
  busy: boolean;
  onSetStatus: (documentIds: string[], status: CommentStatus) => void;
}

export const BulkActions = ({ t, selected, busy, onSetStatus }: Props) => (
  <Flex gap={2}>
    <Button variant="success-light" startIcon={<Check />} disabled={!selected.length || busy} onClick={() => onSetStatus(selected, 'approved')}>
      {t('moderation.approveSelected', '{count, plural, =0 {Approve selected} other {Approve selected (#)}}', { count: selected.length })}
    </Button>
    <Button variant="danger-light" startIcon={<Cross />} disabled={!selected.length || busy} onClick={() => onSetStatus(selected, 'rejected')}>
      {t('moderation.rejectSelected', '{count, plural, =0 {Reject selected} other {Reject selected (#)}}', { count: selected.length })}
    </Button>
  </Flex>
);
