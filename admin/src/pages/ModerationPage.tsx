/**
 * Comment moderation: pending first, filters (status, article, reported), IP and User-Agent, likes and reports,
 * approve / reject one or many, reply as the site, pin a root, close or reopen an article's thread.
 */
import * as React from 'react';
import { useLocation } from 'react-router-dom';
import { Layouts, Page, useAPIErrorHandler, useFetchClient, useNotification } from '@strapi/strapi/admin';
import type { CommentStatus, ModeratedComment } from '../api-types';
import { BulkActions } from '../components/moderation/BulkActions';
import { CommentsTable } from '../components/moderation/CommentsTable';
import { FilterBar, STATUSES } from '../components/moderation/FilterBar';
import { Pager } from '../components/moderation/Pager';
import { ReplyModal } from '../components/moderation/ReplyModal';
import { useModerationList, type Filters } from '../hooks/useModerationList';
import { useModerationText } from '../hooks/useModerationText';
import { PERMISSIONS } from '../permissions';
import { PLUGIN_ID } from '../pluginId';

const PAGE_SIZE = 20;

/**
 * What a link opened the page with: `?status=`, `?article=<documentId>&articleTitle=` (the Content Manager side
 * panel) and `?comment=<documentId>` (the homepage widget), which marks that comment's row.
 */
const linkedFilters = (search: string): { filters: Partial<Filters>; comment?: string } => {
  const params = new URLSearchParams(search);
  const status = params.get('status');
  const article = params.get('article');
  return {
    filters: {
      ...(status && (STATUSES as string[]).includes(status) ? { status: status as CommentStatus } : {}),
      ...(article ? { article: { documentId: article, title: params.get('articleTitle') || article } } : {}),
    },
    comment: params.get('comment') ?? undefined,
  };
};

const ModerationPage = () => {
  const t = useModerationText();
  const { put, post } = useFetchClient();
  const { toggleNotification } = useNotification();
  const { formatAPIError } = useAPIErrorHandler();
  const { search } = useLocation();
  const [linked] = React.useState(() => linkedFilters(search));
  const list = useModerationList(PAGE_SIZE, linked.filters);
  const [replyTo, setReplyTo] = React.useState<ModeratedComment | null>(null);
  const [reply, setReply] = React.useState('');
  const [busy, setBusy] = React.useState(false);

  if (list.error) return <Page.Error />;
  if (!list.result) return <Page.Loading />;

  /** Runs a change, tells how it went, and reloads the list. */
  const run = async (action: () => Promise<unknown>, message: string) => {
    setBusy(true);
    try {
      await action();
      toggleNotification({ type: 'success', message });
      await list.reload();
    } catch (err) {
      toggleNotification({ type: 'danger', message: formatAPIError(err as never) });
    } finally {
      setBusy(false);
    }
  };

  const setStatusOf = (documentIds: string[], next: CommentStatus) =>
    run(
      () => put(`/${PLUGIN_ID}/comments/status`, { documentIds, status: next }),
      t(`moderation.done.${next}`, `{count, plural, one {# comment ${next}} other {# comments ${next}}}`, { count: documentIds.length })
    );

  const pin = (comment: ModeratedComment, pinned: boolean) =>
    run(
      () => put(`/${PLUGIN_ID}/comments/${comment.documentId}/pin`, { pinned }),
      pinned ? t('moderation.done.pinned', 'Comment pinned') : t('moderation.done.unpinned', 'Comment unpinned')
    );

  const closeThread = (articleDocumentId: string, closed: boolean) =>
    run(
      () => put(`/${PLUGIN_ID}/articles/${articleDocumentId}/comments`, { closed }),
      closed ? t('moderation.done.closed', 'Thread closed') : t('moderation.done.reopened', 'Thread reopened')
    );

  const sendReply = async () => {
    if (!replyTo) return;
    const target = replyTo;
    await run(() => post(`/${PLUGIN_ID}/comments/${target.documentId}/reply`, { content: reply }), t('moderation.reply.sent', 'Reply published'));
    setReplyTo(null);
    setReply('');
  };

  const { pagination } = list.result.meta;

  return (
    <Page.Main aria-busy={busy}>
      <Page.Title>{t('moderation.title', 'Comment moderation')}</Page.Title>
      <Layouts.Header
        title={t('moderation.title', 'Comment moderation')}
        subtitle={t('moderation.subtitle', '{total, plural, one {# comment} other {# comments}}, pending first', { total: pagination.total })}
      />
      <Layouts.Action
        startActions={<FilterBar t={t} status={list.status} reported={list.reported} article={list.article} onChange={list.setFilters} />}
        endActions={<BulkActions t={t} selected={list.selected} busy={busy} onSetStatus={setStatusOf} />}
      />
      <Layouts.Content>
        <CommentsTable
          t={t}
          rows={list.result.data}
          selected={list.selected}
          busy={busy}
          focused={linked.comment}
          onToggleAll={list.toggleAll}
          onToggle={list.toggleRow}
          onFilterArticle={(article) => list.setFilters({ article })}
          onSetStatus={setStatusOf}
          onReply={setReplyTo}
          onPin={pin}
          onCloseThread={closeThread}
        />
        <Pager t={t} page={list.page} pageCount={pagination.pageCount} onPage={list.setPage} />
      </Layouts.Content>

      <ReplyModal t={t} replyTo={replyTo} reply={reply} busy={busy} onChange={setReply} onClose={() => setReplyTo(null)} onSend={sendReply} />
    </Page.Main>
  );
};

const ProtectedModerationPage = () => (
  <Page.Protect permissions={PERMISSIONS.commentsModerate}>
    <ModerationPage />
  </Page.Protect>
);

export default ProtectedModerationPage;
