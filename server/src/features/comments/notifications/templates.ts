/** The notification mails' text and HTML: pure functions of what they say (scheduling.ts decides when and to whom). */
import type { CommentStatus } from '../comment-vocabulary';

export const NOTIFICATION_KINDS = ['reply', 'digest', 'follow'] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** Characters of a comment quoted in a mail. */
const EXCERPT_LENGTH = 200;
/** Stands for an article without a published version in a digest line (its draft title is not quoted). */
const UNPUBLISHED = '(an unpublished article)';
export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string>;
}


export interface ReplyRow {
  id: number;
  content: string;
  isAdmin: boolean | null;
  author: { id: number; username: string } | null;
  parent: { status: CommentStatus; author: { id: number; email: string | null; blocked: boolean | null } | null } | null;
  article: { title: string } | null;
}

/** The comment as one line of plain text, cut to EXCERPT_LENGTH code points. */
const excerpt = (content: string): string => {
  const points = [...content.replace(/\s+/g, ' ').trim()];
  return points.length > EXCERPT_LENGTH ? `${points.slice(0, EXCERPT_LENGTH).join('')}…` : points.join('');
};

/** Comment content is untrusted text (docs/comments.md#rendering-comments-content-is-text-never-html): escaped wherever it goes into the HTML part. */
export const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** RFC 2369 link and RFC 8058 one-click: mail clients offer "unsubscribe" and POST to the link themselves. */
const unsubscribeHeaders = (link: string) => ({ 'List-Unsubscribe': `<${link}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' });

export const replyMail = (row: ReplyRow, title: string, to: string, link: string, subject: string): Mail => {
  const who = row.isAdmin ? 'The site' : row.author ? row.author.username : 'A guest';
  const quote = excerpt(row.content);
  return {
    to,
    subject,
    text: `${who} replied to your comment on "${title}":\n\n${quote}\n\nTo stop e-mails about replies: ${link}\n`,
    html:
      `<p>${escapeHtml(who)} replied to your comment on “${escapeHtml(title)}”:</p>` +
      `<blockquote style="white-space:pre-wrap">${escapeHtml(quote)}</blockquote>` +
      `<p><a href="${escapeHtml(link)}">Stop e-mails about replies</a></p>`,
    headers: unsubscribeHeaders(link),
  };
};


export const digestMail = (
  to: string,
  pending: number,
  newest: { content: string; article: { title: string } | null }[],
  link: string,
  subject: string
): Mail => {
  const items = newest.map((c) => ({ title: c.article?.title ?? UNPUBLISHED, quote: excerpt(c.content) }));
  const count = `${pending} comment${pending === 1 ? '' : 's'} waiting for moderation`;
  return {
    to,
    subject,
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


/** A new comment in a thread the recipient follows: who wrote it, where, the start of the text and the way out. */
export const followMail = (
  comment: { content: string; isAdmin: boolean | null; author: { username: string } | null },
  title: string,
  to: string,
  link: string,
  subject: string
): Mail => {
  const who = comment.isAdmin ? 'The site' : comment.author ? comment.author.username : 'A guest';
  const quote = excerpt(comment.content);
  return {
    to,
    subject,
    text: `${who} commented on "${title}":\n\n${quote}\n\nTo stop e-mails about threads you follow: ${link}\n`,
    html:
      `<p>${escapeHtml(who)} commented on “${escapeHtml(title)}”:</p>` +
      `<blockquote style="white-space:pre-wrap">${escapeHtml(quote)}</blockquote>` +
      `<p><a href="${escapeHtml(link)}">Stop e-mails about threads you follow</a></p>`,
    headers: unsubscribeHeaders(link),
  };
};
