/**
 * The account's notice mails (sign-in alert, e-mail changed): their text and HTML, in the plain style of the code
 * mails (email-code.ts), sent through the host's e-mail plugin. A failed notice never fails the action it reports:
 * it is logged by error code and SMTP status only (an SMTP error's text often quotes the address).
 */
import type { Core } from '@strapi/strapi';
import { escapeHtml } from '../comments/notifications';
import { describeMailFailure } from '../../utils/mail-failure';

export const SIGN_IN_ALERT_SUBJECT = 'New sign-in to your account';
export const EMAIL_CHANGED_SUBJECT = 'Your e-mail address was changed';

interface Notice {
  to: string;
  subject: string;
  /** Paragraphs of plain text; `link` (if any) follows them in both parts. */
  paragraphs: string[];
  link?: { text: string; url: string };
}

export const signInAlert = (to: string, at: Date, ip: string, userAgent: string): Notice => ({
  to,
  subject: SIGN_IN_ALERT_SUBJECT,
  paragraphs: [
    'Your account was signed in to from a device it has not used recently.',
    `Time: ${at.toISOString()}`,
    `IP address: ${ip || 'unknown'}`,
    `Browser or app: ${userAgent || 'unknown'}`,
    'If this was you, there is nothing to do. If not, change your password and end your other sessions.',
  ],
});

export const emailChangedNotice = (to: string, newEmail: string, revertUrl: string, validFor: string): Notice => ({
  to,
  subject: EMAIL_CHANGED_SUBJECT,
  paragraphs: [
    `The e-mail address of your account was changed from ${to} to ${newEmail}.`,
    `If you did not ask for this, undo it with the link below (valid ${validFor}): the old address comes back and every session of the account ends.`,
  ],
  link: { text: 'Undo this change', url: revertUrl },
});

export const sendNotice = async (strapi: Core.Strapi, notice: Notice): Promise<void> => {
  const text = [...notice.paragraphs, ...(notice.link ? [`${notice.link.text}: ${notice.link.url}`] : [])].join('\n\n');
  const html = [
    ...notice.paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`),
    ...(notice.link ? [`<p><a href="${escapeHtml(notice.link.url)}">${escapeHtml(notice.link.text)}</a></p>`] : []),
  ].join('');
  try {
    await strapi.plugin('email').service('email').send({ to: notice.to, subject: notice.subject, text, html });
  } catch (error) {
    strapi.log.warn(`cms-plugin-bag: account notice delivery failed (${describeMailFailure(error)})`);
  }
};
