/**
 * E-mail notifications about comments, through the host's e-mail plugin: a mail to the parent's author when a reply
 * is approved, and a digest of the pending queue to the moderators. Both run after the comment is stored and off
 * the request path, so a slow or failing mail server never delays or loses a comment; failures are logged without
 * the address or the link. Exactly-once and once-per-interval are decided in the database (a conditional UPDATE of
 * the reply's `notifiedAt`, a one-hit rate-limit window for the digest), so several instances never both send.
 * Every mail carries a signed, expiring unsubscribe link (../unsubscribe.ts) that names the address only by a keyed
 * hash, and the RFC 8058 headers for one-click unsubscription. What the mails say is in templates.ts.
 */
import type { Core } from '@strapi/strapi';
import { getService } from '../../../platform/get-service';
import { describeMailFailure } from '../../../platform/mail-failure';
import { unsubscribeLinks } from '../comment-unsubscribe.service';
import { digestMail, replyMail, type Mail } from './templates';
import { approvedReplies, claimReplyMail, countPending, newestPending, notApproved, releaseReplyMail } from './scheduling.data';
import { afterAnswer } from '../../../platform/after-answer';

/** Newest pending comments listed in a digest. */
const DIGEST_ITEMS = 5;
/** The rate-limit bucket whose one-hit window is the digest's send slot, shared by every instance. */
const DIGEST_BUCKET = 'comment-notifications:digest';

const commentNotifications = ({ strapi }: { strapi: Core.Strapi }) => {
  const jobs = afterAnswer(strapi);
  let digestRetry: NodeJS.Timeout | undefined;

  const settings = () => getService(strapi, 'settings').file().comments.notifications;
  const now = () => getService(strapi, 'clock').now();
  const links = unsubscribeLinks(strapi);

  const background = jobs.run;

  const send = (mail: Mail) => strapi.plugin('email').service('email').send(mail) as Promise<unknown>;

  /** Takes the reply's one notification; of two instances approving it at once, exactly one gets it. */
  const claimReply = (id: number): Promise<boolean> => claimReplyMail(strapi, id, new Date(now()));
  /** Gives a claim back after a failed delivery, so the reply's next approval tries again. */
  const releaseReply = (id: number) => releaseReplyMail(strapi, id);

  const notifyReplies = async (documentIds: string[]) => {
    // Not filtered on notifiedAt: the claim below is the one place that decides, whatever another instance read.
    const rows = await approvedReplies(strapi, documentIds);
    for (const row of rows) {
      const recipient = row.parent?.author;
      // Guests have no address; nobody is told about their own reply; a hidden (unapproved) parent's thread is not shown.
      if (!recipient?.email || recipient.blocked || row.parent?.status !== 'approved' || recipient.id === row.author?.id) continue;
      // No published version of the article: there is no public page to tell anyone about.
      if (!row.article) continue;
      if (await links.isUnsubscribed('reply', recipient.email)) continue;
      if (!(await claimReply(row.id))) continue;
      try {
        await send(replyMail(row, row.article.title, recipient.email, links.unsubscribeUrl('reply', recipient.email), settings().subject.reply));
      } catch (error) {
        await releaseReply(row.id);
        strapi.log.warn(`cms-plugin-bag: reply notification not delivered, will retry on the next approval (${describeMailFailure(error)})`);
      }
    }
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
    const pending = await countPending(strapi);
    if (pending < minPending) return;
    // At most one digest per window across every instance: the window's first hit sends, the others do not.
    const slot = await getService(strapi, 'rate-limit').hit(DIGEST_BUCKET, { interval, max: 1 });
    if (!slot.allowed) {
      retryDigestLater(slot.retryAfter);
      return;
    }
    const newest = await newestPending(strapi, DIGEST_ITEMS);
    for (const email of emails) {
      if (await links.isUnsubscribed('digest', email)) continue;
      try {
        await send(digestMail(email, pending, newest, links.unsubscribeUrl('digest', email), settings().subject.digest));
      } catch (error) {
        // Not retried in this window: the next digest lists the whole queue, so nothing is lost.
        strapi.log.warn(`cms-plugin-bag: moderator digest not delivered (${describeMailFailure(error)})`);
      }
    }
  }

  const service = {
    checkUnsubscribe: links.checkUnsubscribe,
    unsubscribe: links.unsubscribe,

    /**
     * Of `documentIds`, those not approved yet: called before an approval is written, so only a comment that
     * becomes approved notifies (re-saving an approved one does not). Empty when reply notifications are off.
     */
    async notApprovedYet(documentIds: string[]): Promise<string[]> {
      if (!settings().replies || documentIds.length === 0) return [];
      return notApproved(strapi, documentIds);
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

    /** Resolves once every notification started so far has been sent or has failed (tests, shutdown). */
    async idle(): Promise<void> {
      await jobs.idle();
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
