/**
 * E-mail notifications about comments, through the host's e-mail plugin: a mail to the parent's author when a reply
 * is approved, and a digest of the pending queue to the moderators. Both run after the comment is stored and off
 * the request path, so a slow or failing mail server never delays or loses a comment; failures are logged without
 * the address or the link. Exactly-once and once-per-interval are decided in the database (a conditional UPDATE of
 * the reply's `notifiedAt`, a one-hit rate-limit window for the digest), so several instances never both send.
 * Every mail carries a signed, expiring unsubscribe link (`unsubscribe` below) that names the address only by a keyed
 * hash, and the RFC 8058 headers for one-click unsubscription.
 */
import crypto from 'crypto';
import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import { getService } from '../utils/get-service';
import { describeMailFailure } from '../utils/mail-failure';
import { uid } from '../domain/plugin-id';
import { secretHash } from '../utils/secret-hash';
import type { CommentStatus } from '../domain/comments';

const COMMENT = uid('comment');
const UNSUBSCRIBE = uid('comment-unsubscribe');

export const NOTIFICATION_KINDS = ['reply', 'digest'] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** Characters of a comment quoted in a mail. */
const EXCERPT_LENGTH = 200;
/** Newest pending comments listed in a digest. */
const DIGEST_ITEMS = 5;
/**
 * The article's published row only: the article relation links every row of the document, and the first is the
 * draft, whose title may be an editor's unpublished edit that must not leave the site by mail.
 */
const PUBLISHED_TITLE = { select: ['title'], where: { publishedAt: { $notNull: true } } };
/** Stands for an article without a published version in a digest line (its draft title is not quoted). */
const UNPUBLISHED = '(an unpublished article)';
/** The rate-limit bucket whose one-hit window is the digest's send slot, shared by every instance. */
const DIGEST_BUCKET = 'comment-notifications:digest';
/** `<kind>.<keyed hash of the address, hex>.<expiry, epoch seconds>.<HMAC-SHA-256, base64url>` */
const TOKEN_PATTERN = /^(reply|digest)\.([0-9a-f]{64})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/;
export const INVALID_UNSUBSCRIBE_LINK = 'Invalid unsubscribe link';
export const EXPIRED_UNSUBSCRIBE_LINK = 'Unsubscribe link expired';

interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string>;
}

interface ReplyRow {
  id: number;
  content: string;
  isAdmin: boolean | null;
  author: { id: number; username: string } | null;
  parent: { status: CommentStatus; author: { id: number; email: string | null; blocked: boolean | null } | null } | null;
  article: { title: string } | null;
}

/** The comment as one line of plain text, cut to EXCERPT_LENGTH code points. */
export const excerpt = (content: string): string => {
  const points = [...content.replace(/\s+/g, ' ').trim()];
  return points.length > EXCERPT_LENGTH ? `${points.slice(0, EXCERPT_LENGTH).join('')}…` : points.join('');
};

/** Comment content is untrusted text (README "Rendering comments"): escaped wherever it goes into the HTML part. */
export const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const commentNotifications = ({ strapi }: { strapi: Core.Strapi }) => {
  const inFlight = new Set<Promise<void>>();
  let digestRetry: NodeJS.Timeout | undefined;

  const settings = () => getService(strapi, 'settings').file().comments.notifications;
  const now = () => getService(strapi, 'clock').now();

  /** Runs `job` after the current request has been answered; a failure is logged, never thrown. */
  const background = (what: string, job: () => Promise<void>) => {
    const run: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
      .then(job)
      .catch((error) => {
        strapi.log.warn(`cms-plugin-bag: ${what} failed (${describeMailFailure(error)})`);
      })
      .finally(() => inFlight.delete(run));
    inFlight.add(run);
  };

  /** The configured secret, else a key derived from the users-permissions jwtSecret (as utils/secret-hash.ts). */
  const signingKey = (): Buffer => {
    const configured = settings().secret;
    return configured ? Buffer.from(configured, 'utf8') : Buffer.from(secretHash(strapi, 'comment-unsubscribe-key'), 'hex');
  };
  const lookupOf = (email: string) => secretHash(strapi, 'comment-unsubscribe', email.trim().toLowerCase());
  const signatureOf = (kind: NotificationKind, lookup: string, expires: string) =>
    crypto.createHmac('sha256', signingKey()).update(`unsubscribe:${kind}:${lookup}:${expires}`).digest('base64url');

  /** The link a mail carries: `GET` shows a confirmation, `POST` (RFC 8058 one-click) unsubscribes. */
  const unsubscribeUrl = (kind: NotificationKind, email: string): string => {
    const lookup = lookupOf(email);
    // A link lives as long as the mail may reasonably be acted on; one found later in an archive or a leaked log does nothing.
    const expires = String(Math.floor(now() / 1000) + settings().unsubscribeExpiresIn);
    const origin = settings().publicUrl ?? strapi.config.get<string>('server.absoluteUrl') ?? strapi.config.get<string>('server.url') ?? '';
    const prefix = strapi.config.get<string>('api.rest.prefix', '/api');
    const token = `${kind}.${lookup}.${expires}.${signatureOf(kind, lookup, expires)}`;
    return `${origin.replace(/\/+$/, '')}${prefix}/bag/comments/unsubscribe?token=${token}`;
  };

  /** RFC 2369 link and RFC 8058 one-click: mail clients offer "unsubscribe" and POST to the link themselves. */
  const unsubscribeHeaders = (link: string) => ({ 'List-Unsubscribe': `<${link}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' });

  /** The kind and lookup a token names, if this server signed it and it has not expired; else a 400. */
  const verifyToken = (token: unknown): { kind: NotificationKind; lookup: string } => {
    const match = typeof token === 'string' ? TOKEN_PATTERN.exec(token) : null;
    if (!match) throw new errors.ValidationError(INVALID_UNSUBSCRIBE_LINK);
    const [, kind, lookup, expires, signature] = match as unknown as [string, NotificationKind, string, string, string];
    const expected = Buffer.from(signatureOf(kind, lookup, expires));
    if (!crypto.timingSafeEqual(expected, Buffer.from(signature))) throw new errors.ValidationError(INVALID_UNSUBSCRIBE_LINK);
    if (Number(expires) * 1000 <= now()) throw new errors.ValidationError(EXPIRED_UNSUBSCRIBE_LINK);
    return { kind, lookup };
  };

  const isUnsubscribed = async (kind: NotificationKind, email: string) =>
    Boolean(await strapi.db.query(UNSUBSCRIBE).findOne({ select: ['id'], where: { lookup: lookupOf(email), kind } }));

  const send = (mail: Mail) => strapi.plugin('email').service('email').send(mail) as Promise<unknown>;

  /** Takes the reply's one notification; of two instances approving it at once, exactly one gets it. */
  const claimReply = async (id: number): Promise<boolean> => {
    const { count } = await strapi.db.query(COMMENT).updateMany({
      where: { id, status: 'approved', notifiedAt: { $null: true } },
      data: { notifiedAt: new Date(now()) },
    });
    return Number(count) === 1;
  };
  /** Gives a claim back after a failed delivery, so the reply's next approval tries again. */
  const releaseReply = (id: number) => strapi.db.query(COMMENT).updateMany({ where: { id }, data: { notifiedAt: null } });

  const replyMail = (row: ReplyRow, title: string, to: string): Mail => {
    const link = unsubscribeUrl('reply', to);
    const who = row.isAdmin ? 'The site' : row.author ? row.author.username : 'A guest';
    const quote = excerpt(row.content);
    return {
      to,
      subject: settings().subject.reply,
      text: `${who} replied to your comment on "${title}":\n\n${quote}\n\nTo stop e-mails about replies: ${link}\n`,
      html:
        `<p>${escapeHtml(who)} replied to your comment on “${escapeHtml(title)}”:</p>` +
        `<blockquote style="white-space:pre-wrap">${escapeHtml(quote)}</blockquote>` +
        `<p><a href="${escapeHtml(link)}">Stop e-mails about replies</a></p>`,
      headers: unsubscribeHeaders(link),
    };
  };

  const notifyReplies = async (documentIds: string[]) => {
    // Not filtered on notifiedAt: the claim below is the one place that decides, whatever another instance read.
    const rows = (await strapi.db.query(COMMENT).findMany({
      where: { documentId: { $in: documentIds }, status: 'approved' },
      select: ['id', 'content', 'isAdmin'],
      populate: {
        author: { select: ['id', 'username'] },
        parent: { select: ['status'], populate: { author: { select: ['id', 'email', 'blocked'] } } },
        article: PUBLISHED_TITLE,
      },
    })) as ReplyRow[];
    for (const row of rows) {
      const recipient = row.parent?.author;
      // Guests have no address; nobody is told about their own reply; a hidden (unapproved) parent's thread is not shown.
      if (!recipient?.email || recipient.blocked || row.parent?.status !== 'approved' || recipient.id === row.author?.id) continue;
      // No published version of the article: there is no public page to tell anyone about.
      if (!row.article) continue;
      if (await isUnsubscribed('reply', recipient.email)) continue;
      if (!(await claimReply(row.id))) continue;
      try {
        await send(replyMail(row, row.article.title, recipient.email));
      } catch (error) {
        await releaseReply(row.id);
        strapi.log.warn(`cms-plugin-bag: reply notification not delivered, will retry on the next approval (${describeMailFailure(error)})`);
      }
    }
  };

  const digestMail = (to: string, pending: number, newest: { content: string; article: { title: string } | null }[]): Mail => {
    const link = unsubscribeUrl('digest', to);
    const items = newest.map((c) => ({ title: c.article?.title ?? UNPUBLISHED, quote: excerpt(c.content) }));
    const count = `${pending} comment${pending === 1 ? '' : 's'} waiting for moderation`;
    return {
      to,
      subject: settings().subject.digest,
      text:
        `${count}. The newest:\n\n${items.map((i) => `- on "${i.title}": ${i.quote}`).join('\n')}\n\n` +
        `To stop these digests: ${link}\n`,
      html:
        `<p>${escapeHtml(count)}. The newest:</p><ul>` +
        items.map((i) => `<li>on “${escapeHtml(i.title)}”: <span style="white-space:pre-wrap">${escapeHtml(i.quote)}</span></li>`).join('') +
        `</ul><p><a href="${escapeHtml(link)}">Stop these digests</a></p>`,
      headers: unsubscribeHeaders(link),
    };
  };

  /** One more try when the current window closes, so comments that came in after a digest are reported in time. */
  const retryDigestLater = (seconds: number) => {
    if (digestRetry) return;
    digestRetry = setTimeout(() => {
      digestRetry = undefined;
      background('moderator digest', sendDigest);
    }, seconds * 1000);
    digestRetry.unref();
  };

  async function sendDigest() {
    const { emails, interval, minPending } = settings().moderators;
    const pending = await strapi.db.query(COMMENT).count({ where: { status: 'pending' } });
    if (pending < minPending) return;
    // At most one digest per window across every instance: the window's first hit sends, the others do not.
    const slot = await getService(strapi, 'rate-limit').hit(DIGEST_BUCKET, { interval, max: 1 });
    if (!slot.allowed) {
      retryDigestLater(slot.retryAfter);
      return;
    }
    const newest = await strapi.db.query(COMMENT).findMany({
      where: { status: 'pending' },
      select: ['content'],
      populate: { article: PUBLISHED_TITLE },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      limit: DIGEST_ITEMS,
    });
    for (const email of emails) {
      if (await isUnsubscribed('digest', email)) continue;
      try {
        await send(digestMail(email, pending, newest));
      } catch (error) {
        // Not retried in this window: the next digest lists the whole queue, so nothing is lost.
        strapi.log.warn(`cms-plugin-bag: moderator digest not delivered (${describeMailFailure(error)})`);
      }
    }
  }

  const service = {
    /**
     * Of `documentIds`, those not approved yet: called before an approval is written, so only a comment that
     * becomes approved notifies (re-saving an approved one does not). Empty when reply notifications are off.
     */
    async notApprovedYet(documentIds: string[]): Promise<string[]> {
      if (!settings().replies || documentIds.length === 0) return [];
      const rows = await strapi.db.query(COMMENT).findMany({
        select: ['documentId'],
        where: { documentId: { $in: documentIds }, status: { $ne: 'approved' } },
      });
      return rows.map((row: { documentId: string }) => row.documentId);
    },

    /** After `documentIds` were approved: e-mails the parent's author of each that is a reply, once per reply. */
    repliesApproved(documentIds: string[]): void {
      if (!settings().replies || documentIds.length === 0) return;
      background('reply notification', () => notifyReplies(documentIds));
    },

    /** After a comment was stored as pending: a digest to the moderators, if one is due. */
    pendingAdded(): void {
      if (settings().moderators.emails.length === 0) return;
      background('moderator digest', sendDigest);
    },

    /**
     * For the comment Document Service middleware: what to notify once the write has gone through. A created
     * comment notifies as approved or pending; an update only when it moves a comment to approved.
     */
    async beforeWrite(action: string, params: { documentId?: string; data?: Record<string, unknown> }) {
      const approving =
        action === 'update' && params.documentId && params.data?.status === 'approved' ? await service.notApprovedYet([params.documentId]) : [];
      return (result: unknown) => {
        const written = (result ?? {}) as { documentId?: unknown; status?: unknown };
        if (action === 'create' && typeof written.documentId === 'string') {
          if (written.status === 'approved') service.repliesApproved([written.documentId]);
          if (written.status === 'pending') service.pendingAdded();
        } else if (action === 'update' && written.status === 'approved') {
          service.repliesApproved(approving);
        }
      };
    },

    /** What a link's token would unsubscribe from, changing nothing; a token not signed here or expired is a 400. */
    checkUnsubscribe(token: unknown): { kind: NotificationKind } {
      return { kind: verifyToken(token).kind };
    },

    /** Stores the unsubscription a link's token names; a token not signed here or expired is a 400. */
    async unsubscribe(token: unknown): Promise<{ kind: NotificationKind }> {
      const { kind, lookup } = verifyToken(token);
      const where = { lookup, kind };
      if (!(await strapi.db.query(UNSUBSCRIBE).findOne({ select: ['id'], where }))) {
        try {
          await strapi.db.query(UNSUBSCRIBE).create({ data: where });
        } catch (error) {
          // The unique (lookup, kind): the same link followed twice at once.
          if (!(await strapi.db.query(UNSUBSCRIBE).findOne({ select: ['id'], where }))) throw error;
        }
      }
      return { kind };
    },

    /** Resolves once every notification started so far has been sent or has failed (tests, shutdown). */
    async idle(): Promise<void> {
      while (inFlight.size > 0) await Promise.all([...inFlight]);
    },

    /** Cancels the pending digest retry and waits for the mails under way (plugin destroy). */
    async stop(): Promise<void> {
      if (digestRetry) clearTimeout(digestRetry);
      digestRetry = undefined;
      await service.idle();
    },
  };

  return service;
};

export type CommentNotificationsService = ReturnType<typeof commentNotifications>;
export default commentNotifications;
