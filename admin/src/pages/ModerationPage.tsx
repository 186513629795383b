/**
 * Comment moderation: pending first, filters (status, article, reported), IP and User-Agent, likes and reports,
 * approve / reject one or many, reply as the site.
 */
import * as React from 'react';
import {
  Badge,
  Box,
  Button,
  Checkbox,
  Field,
  Flex,
  IconButton,
  Link,
  Modal,
  SingleSelect,
  SingleSelectOption,
  Table,
  Tbody,
  Td,
  Textarea,
  Th,
  Thead,
  Tr,
  Typography,
} from '@strapi/design-system';
import { Check, Cross, Discuss } from '@strapi/icons';
import { Layouts, Page, useAPIErrorHandler, useFetchClient, useNotification } from '@strapi/strapi/admin';
import { useIntl } from 'react-intl';
import { Link as RouterLink } from 'react-router-dom';
import { PERMISSIONS } from '../permissions';
import { PLUGIN_ID } from '../pluginId';
import { getTranslation } from '../utils/getTranslation';

type Status = 'pending' | 'approved' | 'rejected';

interface ModeratedComment {
  id: number;
  documentId: string;
  content: string;
  status: Status;
  isAdmin: boolean;
  ip: string | null;
  userAgent: string | null;
  createdAt: string;
  /** `email` is absent unless the admin may read users in the Content Manager. */
  author: { id: number; documentId: string; username: string; email?: string } | null;
  article: { documentId: string; title: string; slug: string } | null;
  parent: { documentId: string } | null;
  likes: number;
  reportCount: number;
  reports: Array<{ reason: string; details: string | null; createdAt: string }>;
}

interface ListResponse {
  data: ModeratedComment[];
  meta: { pagination: { page: number; pageSize: number; pageCount: number; total: number } };
}

const ARTICLE_UID = `plugin::${PLUGIN_ID}.article`;
const STATUSES: Status[] = ['pending', 'approved', 'rejected'];
const STATUS_COLORS: Record<Status, { backgroundColor: string; textColor: string }> = {
  pending: { backgroundColor: 'warning100', textColor: 'warning700' },
  approved: { backgroundColor: 'success100', textColor: 'success700' },
  rejected: { backgroundColor: 'danger100', textColor: 'danger700' },
};
const PAGE_SIZE = 20;

const ModerationPage = () => {
  const { formatMessage, formatDate } = useIntl();
  const t = (id: string, defaultMessage: string, values?: Record<string, string | number>) =>
    formatMessage({ id: getTranslation(id), defaultMessage }, values);
  const { get, put, post } = useFetchClient();
  const { toggleNotification } = useNotification();
  const { formatAPIError } = useAPIErrorHandler();

  const [status, setStatus] = React.useState<Status | ''>('');
  const [article, setArticle] = React.useState<{ documentId: string; title: string } | null>(null);
  const [reported, setReported] = React.useState(false);
  const [page, setPage] = React.useState(1);
  const [result, setResult] = React.useState<ListResponse>();
  const [error, setError] = React.useState(false);
  const [selected, setSelected] = React.useState<string[]>([]);
  const [replyTo, setReplyTo] = React.useState<ModeratedComment | null>(null);
  const [reply, setReply] = React.useState('');
  const [busy, setBusy] = React.useState(false);

  const load = React.useCallback(async () => {
    const params = new URLSearchParams({ page: String(page), pageSize: String(PAGE_SIZE) });
    if (status) params.set('status', status);
    if (article) params.set('article', article.documentId);
    if (reported) params.set('reported', 'true');
    try {
      const { data } = await get<ListResponse>(`/${PLUGIN_ID}/comments?${params}`);
      setResult(data);
      setSelected([]);
    } catch {
      setError(true);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [page, status, article, reported]);

  React.useEffect(() => {
    load();
  }, [load]);

  if (error) return <Page.Error />;
  if (!result) return <Page.Loading />;

  const run = async (action: () => Promise<unknown>, message: string) => {
    setBusy(true);
    try {
      await action();
      toggleNotification({ type: 'success', message });
      await load();
    } catch (err) {
      toggleNotification({ type: 'danger', message: formatAPIError(err as never) });
    } finally {
      setBusy(false);
    }
  };

  const setStatusOf = (documentIds: string[], next: Status) =>
    run(
      () => put(`/${PLUGIN_ID}/comments/status`, { documentIds, status: next }),
      t(`moderation.done.${next}`, `{count} comment(s) ${next}`, { count: documentIds.length })
    );

  const sendReply = async () => {
    if (!replyTo) return;
    const target = replyTo;
    await run(() => post(`/${PLUGIN_ID}/comments/${target.documentId}/reply`, { content: reply }), t('moderation.reply.sent', 'Reply published'));
    setReplyTo(null);
    setReply('');
  };

  const rows = result.data;
  const { pagination } = result.meta;
  const allSelected = rows.length > 0 && selected.length === rows.length;
  const toggleRow = (documentId: string) =>
    setSelected(selected.includes(documentId) ? selected.filter((id) => id !== documentId) : [...selected, documentId]);

  return (
    <Page.Main aria-busy={busy}>
      <Page.Title>{t('moderation.title', 'Comment moderation')}</Page.Title>
      <Layouts.Header
        title={t('moderation.title', 'Comment moderation')}
        subtitle={t('moderation.subtitle', '{total} comment(s), pending first', { total: pagination.total })}
      />
      <Layouts.Action
        startActions={
          <Flex gap={2} wrap="wrap">
            <Box minWidth="200px">
              <SingleSelect
                aria-label={t('moderation.filter.status', 'Status')}
                placeholder={t('moderation.filter.status', 'Status')}
                value={status || 'all'}
                onChange={(value: string | number) => {
                  setStatus(value === 'all' ? '' : (value as Status));
                  setPage(1);
                }}
              >
                <SingleSelectOption value="all">{t('moderation.filter.all', 'All statuses')}</SingleSelectOption>
                {STATUSES.map((s) => (
                  <SingleSelectOption key={s} value={s}>
                    {t(`moderation.status.${s}`, s)}
                  </SingleSelectOption>
                ))}
              </SingleSelect>
            </Box>
            <Button
              variant={reported ? 'secondary' : 'tertiary'}
              aria-pressed={reported}
              onClick={() => (setReported(!reported), setPage(1))}
            >
              {t('moderation.filter.reported', 'Reported only')}
            </Button>
            {article && (
              <Button variant="tertiary" endIcon={<Cross />} onClick={() => (setArticle(null), setPage(1))}>
                {t('moderation.filter.article', 'Article: {title}', { title: article.title })}
              </Button>
            )}
          </Flex>
        }
        endActions={
          <Flex gap={2}>
            <Button variant="success-light" startIcon={<Check />} disabled={!selected.length || busy} onClick={() => setStatusOf(selected, 'approved')}>
              {t('moderation.approveSelected', 'Approve selected ({count})', { count: selected.length })}
            </Button>
            <Button variant="danger-light" startIcon={<Cross />} disabled={!selected.length || busy} onClick={() => setStatusOf(selected, 'rejected')}>
              {t('moderation.rejectSelected', 'Reject selected ({count})', { count: selected.length })}
            </Button>
          </Flex>
        }
      />
      <Layouts.Content>
        {rows.length === 0 ? (
          <Box background="neutral0" padding={8} hasRadius shadow="filterShadow">
            <Typography textColor="neutral600">{t('moderation.empty', 'No comments match these filters.')}</Typography>
          </Box>
        ) : (
          <Table colCount={10} rowCount={rows.length + 1}>
            <Thead>
              <Tr>
                <Th>
                  <Checkbox
                    aria-label={t('moderation.selectAll', 'Select all')}
                    checked={allSelected ? true : selected.length ? 'indeterminate' : false}
                    onCheckedChange={() => setSelected(allSelected ? [] : rows.map((row) => row.documentId))}
                  />
                </Th>
                <Th><Typography variant="sigma">{t('moderation.column.comment', 'Comment')}</Typography></Th>
                <Th><Typography variant="sigma">{t('moderation.column.author', 'Author')}</Typography></Th>
                <Th><Typography variant="sigma">{t('moderation.column.article', 'Article')}</Typography></Th>
                <Th><Typography variant="sigma">{t('moderation.column.status', 'Status')}</Typography></Th>
                <Th><Typography variant="sigma">{t('moderation.column.likes', 'Likes')}</Typography></Th>
                <Th><Typography variant="sigma">{t('moderation.column.reports', 'Reports')}</Typography></Th>
                <Th><Typography variant="sigma">{t('moderation.column.client', 'IP / User-Agent')}</Typography></Th>
                <Th><Typography variant="sigma">{t('moderation.column.date', 'Date')}</Typography></Th>
                <Th><Typography variant="sigma">{t('moderation.column.actions', 'Actions')}</Typography></Th>
              </Tr>
            </Thead>
            <Tbody>
              {rows.map((row) => (
                <Tr key={row.documentId} data-comment={row.documentId}>
                  <Td>
                    <Checkbox
                      aria-label={t('moderation.select', 'Select comment {id}', { id: row.id })}
                      checked={selected.includes(row.documentId)}
                      onCheckedChange={() => toggleRow(row.documentId)}
                    />
                  </Td>
                  <Td style={{ maxWidth: 320, whiteSpace: 'normal' }}>
                    <Typography>{row.content}</Typography>
                    {row.parent && (
                      <Typography variant="pi" textColor="neutral500" tag="p">
                        {t('moderation.isReply', 'Reply')}
                      </Typography>
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
                        <Button
                          size="S"
                          variant="ghost"
                          onClick={() => {
                            setArticle({ documentId: row.article!.documentId, title: row.article!.title });
                            setPage(1);
                          }}
                        >
                          {t('moderation.filterByArticle', 'Only this article')}
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
                      <IconButton
                        label={t('moderation.approve', 'Approve')}
                        disabled={busy || row.status === 'approved'}
                        onClick={() => setStatusOf([row.documentId], 'approved')}
                      >
                        <Check />
                      </IconButton>
                      <IconButton
                        label={t('moderation.reject', 'Reject')}
                        disabled={busy || row.status === 'rejected'}
                        onClick={() => setStatusOf([row.documentId], 'rejected')}
                      >
                        <Cross />
                      </IconButton>
                      <IconButton label={t('moderation.reply', 'Reply as the site')} disabled={busy} onClick={() => setReplyTo(row)}>
                        <Discuss />
                      </IconButton>
                    </Flex>
                  </Td>
                </Tr>
              ))}
            </Tbody>
          </Table>
        )}
        {pagination.pageCount > 1 && (
          <Flex justifyContent="flex-end" gap={2} paddingTop={4}>
            <Button variant="tertiary" disabled={page <= 1} onClick={() => setPage(page - 1)}>
              {t('moderation.previous', 'Previous')}
            </Button>
            <Typography>{t('moderation.page', 'Page {page} of {count}', { page, count: pagination.pageCount })}</Typography>
            <Button variant="tertiary" disabled={page >= pagination.pageCount} onClick={() => setPage(page + 1)}>
              {t('moderation.next', 'Next')}
            </Button>
          </Flex>
        )}
      </Layouts.Content>

      <Modal.Root open={replyTo !== null} onOpenChange={(open: boolean) => !open && setReplyTo(null)}>
        <Modal.Content>
          <Modal.Header>
            <Modal.Title>{t('moderation.reply.title', 'Reply as the site')}</Modal.Title>
          </Modal.Header>
          <Modal.Body>
            <Typography variant="pi" textColor="neutral600" tag="p">
              {replyTo?.content}
            </Typography>
            <Box paddingTop={4}>
              <Field.Root name="reply" id="reply" hint={t('moderation.reply.hint', 'Published at once with the site badge.')}>
                <Field.Label>{t('moderation.reply.label', 'Reply')}</Field.Label>
                <Textarea name="reply" value={reply} onChange={(e: React.ChangeEvent<HTMLTextAreaElement>) => setReply(e.target.value)} />
                <Field.Hint />
              </Field.Root>
            </Box>
          </Modal.Body>
          <Modal.Footer>
            <Modal.Close>
              <Button variant="tertiary">{t('moderation.cancel', 'Cancel')}</Button>
            </Modal.Close>
            <Button onClick={sendReply} disabled={!reply.trim() || busy}>
              {t('moderation.reply.send', 'Publish reply')}
            </Button>
          </Modal.Footer>
        </Modal.Content>
      </Modal.Root>
    </Page.Main>
  );
};

const ProtectedModerationPage = () => (
  <Page.Protect permissions={PERMISSIONS.commentsModerate}>
    <ModerationPage />
  </Page.Protect>
);

export default ProtectedModerationPage;
