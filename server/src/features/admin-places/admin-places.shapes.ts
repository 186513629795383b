/**
 * Shapes of the admin routes behind the plugin's places in Strapi's own screens (docs/admin.md): the homepage widgets
 * "Comments to moderate" and "Most read", and the Content Manager edit-view side panel of articles and pages.
 */
import { z } from 'zod/v4';
import { lazyShape } from '../../platform/shapes/lazy';
import { declareRequest } from '../../platform/request-check';

export const MODERATION_QUEUE_SIZE = 5;
export const MOST_READ_SIZE = 10;

/** A pending comment as the widget lists it: its start, when, and the article it opens the moderation page on. */
export const queuedComment = lazyShape(() => z.object({
  documentId: z.string(),
  content: z.string(),
  createdAt: z.string(),
  article: z.object({ documentId: z.string(), title: z.string() }).nullable(),
}));

/** "Comments to moderate": how many wait, and the newest five. */
export const moderationQueueResponse = lazyShape(() => z.object({
  data: z.object({ pending: z.number().int(), newest: z.array(queuedComment) }),
}));

/** The admin routes' `locale` (absent → the host's default locale). */
export const localeOnlyQuery = lazyShape(() => ({ locale: z.string({ error: 'must be a locale code' }).optional() }));
export const MOST_READ_PERIODS = ['1d', '7d', '30d'] as const;
/** "Most read": the locale, and `period` (views of the last 1, 7 or 30 days, docs/readers.md; absent → the totals). */
export const mostReadQuery = lazyShape(() => ({
  ...localeOnlyQuery,
  period: z.enum(MOST_READ_PERIODS, { error: `must be one of ${MOST_READ_PERIODS.join(', ')}` }).optional(),
}));
export const mostReadQueryShape = lazyShape(() => z.object(mostReadQuery));

export const mostReadResponse = lazyShape(() => z.object({
  data: z.array(z.object({ documentId: z.string(), title: z.string(), views: z.number().int() })),
  meta: z.object({ locale: z.string(), period: z.enum(MOST_READ_PERIODS).optional() }),
}));

export const EDIT_PANEL_KINDS = ['article', 'page'] as const;
export const editPanelParams = lazyShape(() => ({
  kind: z.enum(EDIT_PANEL_KINDS, { error: `must be one of ${EDIT_PANEL_KINDS.join(', ')}` }),
  documentId: z.string().min(1).max(64),
}));
export const editPanelParamsShape = lazyShape(() => z.object(editPanelParams));
export const editPanelQuery = localeOnlyQuery;
export const editPanelQueryShape = lazyShape(() => z.object(localeOnlyQuery));

/** The side panel's figures for one locale version of a document; `comments` for articles only. */
export const editPanelResponse = lazyShape(() => z.object({
  data: z.object({
    views: z.number().int(),
    /** Articles, for an admin with *Moderate comments*: absent without it; null for pages. */
    comments: z.object({ pending: z.number().int(), approved: z.number().int(), rejected: z.number().int() }).nullable().optional(),
    /** Articles: the thread's pinned roots and whether it is closed (by an administrator or `comments.closeAfter`). */
    thread: z.object({ pinned: z.number().int(), closed: z.boolean() }).nullable(),
    /** The slug of the published version, null while this locale is not published. */
    publishedSlug: z.string().nullable(),
    /** The front end's URL with `{slug}` left to fill (`site.url` + `site.paths.<kind>`); null while `site.url` is unset. */
    urlTemplate: z.string().nullable(),
  }),
}));

/** The panel's chart: the views of the last 30 days (UTC, oldest first, today last; every locale), docs/readers.md. */
export const editPanelDailyResponse = lazyShape(() => z.object({ data: z.array(z.object({ day: z.string(), views: z.number().int() })) }));

// One issue at a time, the first (platform/shapes/parse.ts); an empty `locale` leaves the host's default locale to the service.
export const mostReadRequest = declareRequest({ query: mostReadQuery }, { first: true });
export const editPanelRequest = declareRequest({ params: editPanelParams, query: editPanelQuery }, { first: true });
