/**
 * One comment of the moderation table: content and reports; author with e-mail, IP and User-Agent; article; status,
 * date, likes and reports; actions. Six columns whose text wraps, so the row fits a 1280 px screen (docs/admin.md).
 */
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

/** Cells whose text wraps, long words (e-mails, IPv6 addresses, User-Agents) included. */
const WRAP = { whiteSpace: 'normal', overflowWrap: 'anywhere' } as const;

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
  /** The comment a link (a homepage widget) opened the page on: marked, scrolled into view and focused. */
  focused?: boolean;
}

export const CommentRow = ({ t, row, selected, busy, focused = false, onToggle, onFilterArticle, onSetStatus, onReply, onPin, onCloseThread }: Props) => {
  const { formatDate } = useIntl();
  // The design system's Tr takes no ref: the row is found by its documentId.
  React.useEffect(() => {
    if (!focused) return;
    const tr = document.querySelector<HTMLTableRowElement>(`tr[data-comment="${CSS.escape(row.documentId)}"]`);
    tr?.scrollIntoView({ block: 'center' });
    tr?.focus({ preventScroll: true });
  }, [focused, row.documentId]);
  return (
    <Tr
      data-comment={row.documentId}
      data-focused={focused || undefined}
      aria-current={focused || undefined}
      tabIndex={focused ? -1 : undefined}
      background={focused ? 'primary100' : undefined}
    >
      <Td>
        <Checkbox aria-label={t('moderation.select', 'Select comment {id}', { id: row.id })} checked={selected} onCheckedChange={() => onToggle(row.documentId)} />
      </Td>
      <Td style={{ ...WRAP, minWidth: 200, maxWidth: 360 }}>
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
              {t('moderation.reports', '{count, plural, one {Reported once:} other {Reported # times:}}', { count: row.reportCount })}
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
      <Td style={{ ...WRAP, maxWidth: 220 }}>
        <Flex direction="column" alignItems="flex-start" gap={1}>
          <Flex gap={1} wrap="wrap">
            <Typography>{row.author ? row.author.username : t('moderation.guest', 'Guest')}</Typography>
            {row.isAdmin && <Badge active>{t('moderation.site', 'Site')}</Badge>}
          </Flex>
          {row.author?.email && (
            <Typography variant="pi" textColor="neutral600" style={WRAP}>
              {row.author.email}
            </Typography>
          )}
          <Typography variant="pi" tag="p" style={WRAP} data-ip>
            {row.ip ?? '—'}
          </Typography>
          <Typography variant="pi" textColor="neutral600" tag="p" style={WRAP} data-user-agent>
            {row.userAgent ?? '—'}
          </Typography>
        </Flex>
      </Td>
      <Td style={{ ...WRAP, maxWidth: 220 }}>
        {row.article && (
          <Flex direction="column" alignItems="flex-start" gap={1}>
            <Link tag={RouterLink} to={`/content-manager/collection-types/${ARTICLE_UID}/${row.article.documentId}`} style={WRAP}>
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
      <Td style={WRAP}>
        <Flex direction="column" alignItems="flex-start" gap={1}>
          <Badge {...(STATUS_COLORS[row.status] as object)}>{t(`moderation.status.${row.status}`, row.status)}</Badge>
          <Typography variant="pi" textColor="neutral600">
            {formatDate(row.createdAt, { dateStyle: 'medium', timeStyle: 'short' })}
          </Typography>
          <Flex gap={1}>
            <Typography variant="pi" textColor="neutral600">
              {t('moderation.column.likes', 'Likes')}
            </Typography>
            <Typography variant="pi" data-likes>
              {row.likes}
            </Typography>
          </Flex>
          <Flex gap={1}>
            <Typography variant="pi" textColor="neutral600">
              {t('moderation.column.reports', 'Reports')}
            </Typography>
            {row.reportCount > 0 ? (
              <Badge backgroundColor="danger100" textColor="danger700" data-report-count>
                {row.reportCount}
              </Badge>
            ) : (
              <Typography variant="pi" data-report-count>
                0
              </Typography>
            )}
          </Flex>
        </Flex>
      </Td>
      <Td>
        {/* The icon buttons on one line, Pin under them: the column stays narrow. */}
        <Flex direction="column" alignItems="flex-start" gap={1}>
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
          </Flex>
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
