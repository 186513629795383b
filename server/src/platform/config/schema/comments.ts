/**
 * The comments section: approval, editing, Markdown, closing, moderation rules, paged threads, reactions, reports and
 * notifications.
 */
import { z } from 'zod/v4';
import { duration, durationOrZero, toSeconds, section } from './fields';

export const commentSections = {
  comments: section({
    autoApprove: z.boolean().default(false),
    maxLength: z.number().int().positive().default(5000),
    /** How long after posting an author may edit a comment; 0: never. */
    editWindow: durationOrZero(toSeconds('15m')),
    /** Nodes carry `contentHtml`, the comment rendered from Markdown (features/comments/markdown.ts). */
    markdown: z.boolean().default(true),
    /** Threads of articles first published longer ago than this take no new comments; 0: never. */
    closeAfter: durationOrZero(0),
    /** Rules applied to a comment's text on submit and on edit (features/comments/moderation-rules.ts); admin-editable. */
    moderation: section({
      blockedWords: z.array(z.string().min(1).max(100)).max(1000).default([]),
      holdWords: z.array(z.string().min(1).max(100)).max(1000).default([]),
      maxLinks: z.number().int().min(0).default(2),
      trustApproved: z.boolean().default(false),
    }),
    /** Paged threads: `GET /bag/articles/:id/comments?pagination[pageSize]=…` and `/bag/comments/:id/replies`. */
    thread: section({
      pageSize: z.number().int().min(1).max(100).default(20),
      maxPageSize: z.number().int().min(1).max(500).default(100),
      /** Replies shown under each root of a page; the rest come from `/bag/comments/:id/replies`. */
      replies: z.number().int().min(0).max(50).default(3),
    }),
    reactions: section({
      enabled: z.boolean().default(true),
      /** Guests like by IP (IPv6 by /64); users by account. Guests are rate limited by `rateLimit.reaction`. */
      guests: z.boolean().default(true),
    }),
    reports: section({
      enabled: z.boolean().default(true),
      /**
       * Off by default: `threshold` guest reports hide a comment, and a guest is only an address, so anyone with a
       * few addresses could hide any comment. Users report by account.
       */
      guests: z.boolean().default(false),
      reasons: z.array(z.string().min(1).max(64)).min(1).default(['spam', 'abuse', 'off-topic', 'other']),
      /** Reports after which an approved comment goes back to `pending`. */
      threshold: z.number().int().min(1).default(3),
    }),
    notifications: section({
      /** E-mail the parent's author when a reply to their comment is approved. */
      replies: z.boolean().default(false),
      /** Digest of the pending queue to these addresses, at most once per `interval`. */
      moderators: section({
        emails: z.array(z.string().email()).default([]),
        interval: duration('1h'),
        /** Pending comments the queue must hold before a digest goes out. */
        minPending: z.number().int().min(1).default(1),
      }),
      /** Public origin for the unsubscribe link, e.g. https://cms.example.com; defaults to the host's own URL (platform/server-url.ts). */
      publicUrl: z.string().url().optional(),
      /**
       * HMAC secret for unsubscribe links; when not set, derived from the users-permissions jwtSecret, the key
       * of the plugin's other keyed hashes (platform/secret-hash.ts), not from the app keys.
       */
      secret: z.string().min(16).optional(),
      /** Lifetime of an unsubscribe link, from the mail's sending. */
      unsubscribeExpiresIn: duration('60d'),
      subject: section({
        reply: z.string().min(1).default('New reply to your comment'),
        digest: z.string().min(1).default('Comments waiting for moderation'),
        follow: z.string().min(1).default('New comment in a thread you follow'),
      }),
    }),
  }),
};
