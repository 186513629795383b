/** One comment of the moderation table: content and reports, author, article, status, likes, client, date, actions. */
import * as React from 'react';
import { Badge, Box, Button, Checkbox, Flex, IconButton, Link, Td, Tr, Typography } from '@strapi/design-system';
import { Check, Cross, Discuss } from '@strapi/icons';
import { useIntl } from 'react-intl';
import { Link as RouterLink } from 'react-router-dom';
import type { CommentStatus, ModeratedComment } from '../../api-types';
import type { ArticleFilter } from '../../hooks/useModerationList';
import type { Translate } from '../../hooks/useModerationText';
import { PLUGIN_ID } from '../../pluginId';

const ARTICLE_UID = `plugin::${PLUGIN_ID}.article`;
const STATUS_COLORS: Record<CommentStatus, { backgroundColor: string; textColor: string }> = {
  pending: { backgroundColor: 'warning100', textColor: 'warning700' },
  approved: { backgroundColor: 'success100', textColor: 'success700' },
  rejected: { backgroundColor: 'danger100', textColor: 'danger700' },
};

export interface RowActions {
  onToggle: (documentId: string) => void;
  onFilterArticle: (article: ArticleFilter) => void;
  onSetStatus: (documentIds: string[], status: CommentStatus) => void;
  onReply: (comment: ModeratedComment) => void;
  onPin: (comment: ModeratedComment, pinned: boolean) => void;
  onCloseThread: (articleDocumentId: string, closed: boolean) => void;
}

interface Props extends RowActions {
  t: Translate;
  row: ModeratedComment;
  selected: boolean;
  busy: boolean;
  /** The comment a link (a homepage widget) opened the page on: marked and scrolled into view. */
  focused?: boolean;
}

export const CommentRow = ({ t, row, selected, busy, focused = false, onToggle, onFilterArticle, onSetStatus, onReply, onPin, onCloseThread }: Props) => {
  const { formatDate } = useIntl();
  const ref = React.useRef<HTMLTableRowElement>(null);
  React.useEffect(() => {
    if (focused) ref.current?.scrollIntoView({ block: 'center' });
  }, [focused]);
  return (
    <Tr ref={ref} data-comment={row.documentId} data-focused={focused || undefined} background={focused ? 'primary100' : undefined}>
      <Td>
        <Checkbox aria-label={t('moderation.select', 'Select comment {id}', { id: row.id })} checked={selected} onCheckedChange={() => onToggle(row.documentId)} />
      </Td>
      <Td style={{ maxWidth: 320, whiteSpace: 'normal' }}>
        <Typography>{row.content}</Typography>
        {row.parent && (
          <Typography variant="pi" textColor="neutral500" tag="p">
            {t('moderation.isReply', 'Reply')}
          </Typography>
        )}
        {row.pinned && (
          <Badge active data-pinned>
            {t('moderation.pinned', 'Pinned')}
          </Badge>
        )}
        {row.reports.length > 0 && (
          <Box paddingTop={2} data-reports>
            <Typography variant="pi" fontWeight="bold" textColor="danger600" tag="p">
              {t('moderation.reports', 'Reported {count} time(s):', { count: row.reportCount })}
            </Typography>
            {row.reports.map((report, index) => (
              <Typography key={index} variant="pi" textColor="neutral600" tag="p" data-report-reason={report.reason}>
                {report.reason}
                {report.details ? ` — ${report.details}` : ''}
                {` (${formatDate(report.createdAt, { dateStyle: 'short', timeStyle: 'short' })})`}
              </Typography>
            ))}
          </Box>
        )}
      </Td>
      <Td>
        <Flex direction="column" alignItems="flex-start" gap={1}>
          <Flex gap={1}>
            <Typography>{row.author ? row.author.username : t('moderation.guest', 'Guest')}</Typography>
            {row.isAdmin && <Badge active>{t('moderation.site', 'Site')}</Badge>}
          </Flex>
          {row.author?.email && <Typography variant="pi" textColor="neutral600">{row.author.email}</Typography>}
        </Flex>
      </Td>
      <Td>
        {row.article && (
          <Flex direction="column" alignItems="flex-start" gap={1}>
            <Link tag={RouterLink} to={`/content-manager/collection-types/${ARTICLE_UID}/${row.article.documentId}`}>
              {row.article.title}
            </Link>
            <Button size="S" variant="ghost" onClick={() => onFilterArticle({ documentId: row.article!.documentId, title: row.article!.title })}>
              {t('moderation.filterByArticle', 'Only this article')}
            </Button>
            {row.article.closed && <Badge data-thread-closed>{t('moderation.threadClosed', 'Thread closed')}</Badge>}
            <Button size="S" variant="tertiary" disabled={busy} onClick={() => onCloseThread(row.article!.documentId, !row.article!.closed)}>
              {row.article.closed ? t('moderation.reopenThread', 'Reopen thread') : t('moderation.closeThread', 'Close thread')}
            </Button>
          </Flex>
        )}
      </Td>
      <Td>
        <Badge {...(STATUS_COLORS[row.status] as object)}>{t(`moderation.status.${row.status}`, row.status)}</Badge>
      </Td>
      <Td>
        <Typography data-likes>{row.likes}</Typography>
      </Td>
      <Td>
        {row.reportCount > 0 ? (
          <Badge backgroundColor="danger100" textColor="danger700" data-report-count>
            {row.reportCount}
          </Badge>
        ) : (
          <Typography data-report-count>0</Typography>
        )}
      </Td>
      <Td style={{ maxWidth: 240, whiteSpace: 'normal' }}>
        <Typography variant="pi" tag="p">{row.ip ?? '—'}</Typography>
        <Typography variant="pi" textColor="neutral600" tag="p" style={{ wordBreak: 'break-word' }}>
          {row.userAgent ?? '—'}
        </Typography>
      </Td>
      <Td>
        <Typography variant="pi">{formatDate(row.createdAt, { dateStyle: 'medium', timeStyle: 'short' })}</Typography>
      </Td>
      <Td>
        <Flex gap={1}>
          <IconButton label={t('moderation.approve', 'Approve')} disabled={busy || row.status === 'approved'} onClick={() => onSetStatus([row.documentId], 'approved')}>
            <Check />
          </IconButton>
          <IconButton label={t('moderation.reject', 'Reject')} disabled={busy || row.status === 'rejected'} onClick={() => onSetStatus([row.documentId], 'rejected')}>
            <Cross />
          </IconButton>
          <IconButton label={t('moderation.reply', 'Reply as the site')} disabled={busy} onClick={() => onReply(row)}>
            <Discuss />
          </IconButton>
          {!row.parent && (
            <Button size="S" variant="secondary" disabled={busy} onClick={() => onPin(row, !row.pinned)}>
              {row.pinned ? t('moderation.unpin', 'Unpin') : t('moderation.pin', 'Pin')}
            </Button>
          )}
        </Flex>
      </Td>
    </Tr>
  );
};
