/**
 * The account's notice mails (sign-in alert, e-mail changed, credential changes): their text and HTML, in the plain
 * style of the code mails (email-code.ts), sent through the host's e-mail plugin. A failed notice never fails the
 * action it reports: it is logged by error code and SMTP status only (an SMTP error's text often quotes the address).
 */
import type { Core } from '@strapi/strapi';
import { escapeHtml } from '../comments';
import type { ClientInfo } from '../../platform/client';
import { describeMailFailure } from '../../platform/mail-failure';

export const SIGN_IN_ALERT_SUBJECT = 'New sign-in to your account';
export const EMAIL_CHANGED_SUBJECT = 'Your e-mail address was changed';

export interface Notice {
  to: string;
  subject: string;
  /** Paragraphs of plain text; `link` (if any) follows them in both parts. */
  paragraphs: string[];
  link?: { text: string; url: string };
}

/** When and from where an action came: the lines every notice about the account carries. */
const origin = (at: Date, client: ClientInfo) => [
  `Time: ${at.toISOString()}`,
  `IP address: ${client.ip || 'unknown'}`,
  `Browser or app: ${client.userAgent || 'unknown'}`,
];

export const signInAlert = (to: string, at: Date, ip: string, userAgent: string): Notice => ({
  to,
  subject: SIGN_IN_ALERT_SUBJECT,
  paragraphs: [
    'Your account was signed in to from a device it has not used recently.',
    ...origin(at, { ip, userAgent }),
    'If this was you, there is nothing to do. If not, change your password and end your other sessions.',
  ],
});

/** Goes to the old address; the link opens a page that asks before it changes anything (a GET acts on nothing). */
export const emailChangedNotice = (to: string, newEmail: string, revertUrl: string, validFor: string, at: Date, client: ClientInfo): Notice => ({
  to,
  subject: EMAIL_CHANGED_SUBJECT,
  paragraphs: [
    `The e-mail address of your account was changed from ${to} to ${newEmail}.`,
    ...origin(at, client),
    `If you did not ask for this, undo it with the link below (valid ${validFor}): the old address comes back and every session of the account ends.`,
  ],
  link: { text: 'Undo this change', url: revertUrl },
});

/** The changes to how an account signs in that its owner is told of (docs/accounts.md#credential-alerts), and the second factor's lock. */
export type CredentialEvent =
  | 'passkey-added'
  | 'passkey-removed'
  | 'totp-enabled'
  | 'totp-disabled'
  | 'recovery-codes-renewed'
  | 'recovery-code-used'
  | 'password-changed'
  | 'password-reset'
  | 'second-factor-locked';

const NOT_YOU = 'If this was not you, reset your password, end your other sessions and review your passkeys and two-factor settings.';

/** Per event: the subject and what happened. No link: a notice acts on nothing, and a link in it could be forged. */
export const CREDENTIAL_NOTICES: Record<CredentialEvent, { subject: string; what: string }> = {
  'passkey-added': {
    subject: 'A passkey was added to your account',
    what: 'A passkey was added to your account: it can now sign in to it.',
  },
  'passkey-removed': {
    subject: 'A passkey was removed from your account',
    what: 'A passkey was removed from your account: it can no longer sign in to it.',
  },
  'totp-enabled': {
    subject: 'Two-factor authentication was turned on',
    what: 'Two-factor authentication (an authenticator app) was turned on for your account.',
  },
  'totp-disabled': {
    subject: 'Two-factor authentication was turned off',
    what: 'Two-factor authentication (an authenticator app) was turned off for your account, and its recovery codes were removed.',
  },
  'recovery-codes-renewed': {
    subject: 'New recovery codes were made for your account',
    what: 'A new set of recovery codes was made for your account; the old ones no longer work.',
  },
  'recovery-code-used': {
    subject: 'A recovery code was used',
    what: 'One of the recovery codes of your account was just used.',
  },
  'password-changed': {
    subject: 'Your password was changed',
    what: 'The password of your account was changed.',
  },
  'password-reset': {
    subject: 'Your password was reset',
    what: 'The password of your account was reset.',
  },
  'second-factor-locked': {
    subject: 'Too many wrong two-factor codes',
    what: 'Ten wrong two-factor codes in a row were entered for your account: its two-factor step is locked for 15 minutes.',
  },
};

/** A credential change's notice: what happened (`extra`: a further line, e.g. how many recovery codes are left), when and from where. */
export const credentialNotice = (to: string, event: CredentialEvent, at: Date, client: ClientInfo, extra?: string): Notice => ({
  to,
  subject: CREDENTIAL_NOTICES[event].subject,
  paragraphs: [CREDENTIAL_NOTICES[event].what, ...(extra ? [extra] : []), ...origin(at, client), NOT_YOU],
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
