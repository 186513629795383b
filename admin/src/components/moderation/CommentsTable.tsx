/** The moderation table, or a note when no comment matches the filters. */
import { Box, Checkbox, Table, Tbody, Th, Thead, Tr, Typography } from '@strapi/design-system';
import type { ModeratedComment } from '../../api-types';
import type { Translate } from '../../hooks/useModerationText';
import { CommentRow, type RowActions } from './CommentRow';

interface Props extends RowActions {
  t: Translate;
  rows: ModeratedComment[];
  selected: string[];
  busy: boolean;
  /** The comment the page was opened on, if any. */
  focused?: string;
  onToggleAll: () => void;
}

export const CommentsTable = ({ t, rows, selected, busy, focused, onToggleAll, ...actions }: Props) => {
  if (rows.length === 0) {
    return (
      <Box background="neutral0" padding={8} hasRadius shadow="filterShadow">
        <Typography textColor="neutral600">{t('moderation.empty', 'No comments match these filters.')}</Typography>
      </Box>
    );
  }
  const allSelected = selected.length === rows.length;
  // Author holds the e-mail, IP and User-Agent; Status the date, likes and reports (docs/admin.md).
  const columns = [
    t('moderation.column.comment', 'Comment'),
    t('moderation.column.author', 'Author'),
    t('moderation.column.article', 'Article'),
    t('moderation.column.status', 'Status'),
    t('moderation.column.actions', 'Actions'),
  ];
  return (
    <Table colCount={columns.length + 1} rowCount={rows.length + 1}>
      <Thead>
        <Tr>
          <Th>
            <Checkbox
              aria-label={t('moderation.selectAll', 'Select all')}
              checked={allSelected ? true : selected.length ? 'indeterminate' : false}
              onCheckedChange={onToggleAll}
            />
          </Th>
          {columns.map((label) => (
            <Th key={label}>
              <Typography variant="sigma">{label}</Typography>
            </Th>
          ))}
        </Tr>
      </Thead>
      <Tbody>
        {rows.map((row) => (
          <CommentRow key={row.documentId} t={t} row={row} selected={selected.includes(row.documentId)} busy={busy} focused={row.documentId === focused} {...actions} />
        ))}
      </Tbody>
    </Table>
  );
};
