/**
 * The `comment-events` service: what other systems and followers hear about comments (docs/comments.md#webhooks).
 * Five `bag-comment.*` events go to the host's event hub, where the host's webhook runner delivers them (its retries,
 * headers and logs) to the webhooks set up in Settings → Webhooks whose comment events were ticked in Settings → CMS
 * Bag; a newly approved comment also mails the thread's followers (followers.ts). Payloads are built field by field
 * from selected columns, so an IP, a User-Agent or an e-mail address can never be in one.
 */
import type { Core } from '@strapi/strapi';
import { COMMENT_EVENTS, type CommentEvent, type CommentStatus } from './comment-vocabulary';
import { toIso } from '../../platform/time';
import { getService } from '../../platform/get-service';
import { anyArticleOf, eventRows, notInStatus, type EventRow } from './events.data';

/** The `comment` of every payload. */
export interface CommentEventComment {
  documentId: string;
  content: string;
  status: CommentStatus;
  createdAt: string;
  article: { documentId: string; slug: string; title: string } | null;
  author: { documentId: string; username: string } | null;
  parent: string | null;
}

const toPayload = (row: EventRow): CommentEventComment => ({
  documentId: row.documentId,
  content: row.content,
  status: row.status,
  createdAt: toIso(row.createdAt),
  article: row.article ? { documentId: row.article.documentId, slug: row.article.slug, title: row.article.title } : null,
  author: row.author ? { documentId: row.author.documentId, username: row.author.username } : null,
  parent: row.parent?.documentId ?? null,
});

const commentEvents = ({ strapi }: { strapi: Core.Strapi }) => {
  const inFlight = new Set<Promise<void>>();

  /** Runs `job` once the current write has been answered; a failure is logged, never thrown. */
  const background = (job: () => Promise<void>) => {
    const run: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
      .then(job)
      .catch((error) => {
        strapi.log.warn(`cms-plugin-bag: comment event failed (${(error as Error)?.name ?? 'Error'})`);
      })
      .finally(() => inFlight.delete(run));
    inFlight.add(run);
  };

  /** The payloads of the given comments, one query (plus one for comments whose article has no published row). */
  const payloads = async (documentIds: string[]): Promise<CommentEventComment[]> => {
    if (documentIds.length === 0) return [];
    const rows = await eventRows(strapi, documentIds);
    const unpublished = rows.filter((row) => !row.article).map((row) => row.documentId);
    if (unpublished.length > 0) {
      const drafts = await anyArticleOf(strapi, unpublished);
      const byId = new Map(drafts.map((row) => [row.documentId, row.article]));
      for (const row of rows) if (!row.article) row.article = byId.get(row.documentId) ?? null;
    }
    return rows.map(toPayload);
  };

  const emit = async (event: CommentEvent, comments: CommentEventComment[]) => {
    // The host's webhook runner adds `event` and `createdAt` to what is emitted.
    for (const comment of comments) await strapi.eventHub.emit(event, { comment });
  };

  const service = {
    /** Lets webhooks subscribe to the events: the host's webhook API refuses an event its store does not know. */
    register(): void {
      const store = strapi.get('webhookStore') as { addAllowedEvent(key: string, value: string): void };
      for (const [key, value] of Object.entries(COMMENT_EVENTS)) store.addAllowedEvent(key, value);
    },

    /** Of `documentIds`, those not in `status` yet: called before a status change is written, so a re-save is no event. */
    async notYet(documentIds: string[], status: CommentStatus): Promise<string[]> {
      if (documentIds.length === 0 || status === 'pending') return [];
      return notInStatus(strapi, documentIds, status);
    },

    /** A comment was stored: `created`, and `approved` (with the followers' mails) when it was stored approved. */
    created(documentId: string, status: CommentStatus): void {
      background(async () => {
        const comments = await payloads([documentId]);
        await emit(COMMENT_EVENTS.COMMENT_CREATED, comments);
        if (status === 'approved') await emit(COMMENT_EVENTS.COMMENT_APPROVED, comments);
      });
      if (status === 'approved') getService(strapi, 'comment-followers').approved([documentId]);
    },

    /** `documentIds` moved to `status` (those notYet() returned before the write). */
    statusChanged(documentIds: string[], status: CommentStatus): void {
      if (documentIds.length === 0 || status === 'pending') return;
      background(async () => {
        const event = status === 'approved' ? COMMENT_EVENTS.COMMENT_APPROVED : COMMENT_EVENTS.COMMENT_REJECTED;
        await emit(event, await payloads(documentIds));
      });
      if (status === 'approved') getService(strapi, 'comment-followers').approved(documentIds);
    },

    /** A reader's first report of each comment. */
    reported(documentIds: string[]): void {
      background(async () => emit(COMMENT_EVENTS.COMMENT_REPORTED, await payloads(documentIds)));
    },

    /** Taken before a delete: the payloads to emit once it has gone through. */
    async beforeDelete(documentIds: string[]): Promise<() => void> {
      const comments = await payloads(documentIds);
      return () => background(() => emit(COMMENT_EVENTS.COMMENT_DELETED, comments));
    },

    /** Resolves once every event started so far has been handed to the host and every follower mail sent (tests, shutdown). */
    async idle(): Promise<void> {
      const followers = getService(strapi, 'comment-followers');
      while (inFlight.size > 0) await Promise.all([...inFlight]);
      await followers.idle();
    },
  };
  return service;
};

export type CommentEventsService = ReturnType<typeof commentEvents>;
export default commentEvents;
