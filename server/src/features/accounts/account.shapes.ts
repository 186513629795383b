/** Shapes of the account's self-service routes (`/api/cms-plugin-bag/auth/…`, docs/accounts.md#your-own-account). */
import { z } from 'zod/v4';
import { lazyShape } from '../../platform/shapes/lazy';
import { body, passwordFields, requiredText, user } from './auth.shapes';
import { email, text } from '../../platform/shapes/fields';
import { checkedElsewhere, declareRequest } from '../../platform/request-check';
import { jsonBody } from '../../platform/route-types';

/** An e-mailed code: looked up as given, present and not empty. */
const code = () => requiredText().max(32);

export const messageResponse = lazyShape(() => z.object({ message: z.string() }));

export const resetPasswordBody = lazyShape(() => body({
  identifier: email().describe('the e-mail address the code was sent to'),
  code: code(),
  ...passwordFields,
}));

export const loginCodeBody = lazyShape(() => body({ identifier: email().describe('the e-mail address the code was sent to'), code: code() }));

/** With TOTP on, changes to the account also take a current TOTP or recovery code (empty counts as absent). */
const mfaCode = () => text(64).optional();

export const emailChangeBody = lazyShape(() => body({ email: email().describe('the new address; the code goes there'), ...passwordFields, mfaCode: mfaCode() }));
export const emailChangeResponse = lazyShape(() => z.object({ message: z.string(), expiresIn: z.number().int() }));

export const emailConfirmBody = lazyShape(() => body({ code: code() }));
export const emailConfirmResponse = user;

/** Read by features/comments/unsubscribe-token.middleware.ts (`emailRevertTokenOf`), which takes it out of the URL before anything logs it. */
export const revertQuery = lazyShape(() => ({ token: checkedElsewhere(z.string().describe("the revert link's token").optional()) }));
/** GET: a page (HTML) that asks for confirmation and changes nothing. */
export const revertPage = lazyShape(() => z.string().describe('text/html: a confirmation page whose form posts the revert'));

/** JSON for programs, an HTML page for a person who pressed the page's button (`Accept: text/html`). */
export const revertResponse = lazyShape(() => z.union([messageResponse, z.string().describe('text/html: the done page')]));

/** The revert link's token, from the body or the query string. */
export const emailRevertBody = lazyShape(() => body({ token: text(512).optional() }));

/** Re-authentication: the password, or (where an action allows it) an e-mail code sent to the account. */
export const deleteAccountBody = lazyShape(() => body({ ...passwordFields, code: code().optional(), mfaCode: mfaCode() }));

export const session = lazyShape(() => z.object({
  id: z.number().int(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  expiresAt: z.string(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  /** The session the request's Bearer jwt came from. */
  current: z.boolean(),
}));
export const sessionsResponse = lazyShape(() => z.object({ data: z.array(session) }));
export const sessionParams = lazyShape(() => ({ id: z.string().describe("the session's id") }));
export const revokeOthersResponse = lazyShape(() => z.object({ message: z.string(), revoked: z.number().int() }));

const isoDate = lazyShape(() => z.string());

export const accountExport = lazyShape(() => z.object({
  exportedAt: isoDate,
  user,
  comments: z.array(
    z.object({
      documentId: z.string(),
      content: z.string(),
      status: z.string(),
      createdAt: isoDate,
      article: z.object({ documentId: z.string(), title: z.string() }).nullable(),
      ip: z.string().nullable(),
      userAgent: z.string().nullable(),
    })
  ),
  likes: z.array(z.object({ comment: z.string().nullable(), createdAt: isoDate.nullable() })),
  reports: z.array(z.object({ comment: z.string().nullable(), reason: z.string(), details: z.string().nullable(), createdAt: isoDate.nullable() })),
  sessions: z.array(session.omit({ current: true })),
  /** Followed threads (`article`), then newsletters (`newsletter`, `locale`; docs/newsletters.md#the-accounts-subscriptions). */
  subscriptions: z.array(
    z.union([
      z.object({ article: z.object({ documentId: z.string(), title: z.string() }).nullable() }),
      z.object({ newsletter: z.string(), locale: z.string() }),
    ]),
  ),
  mfa: z.object({ totp: z.boolean(), passkeys: z.array(z.object({ name: z.string(), createdAt: isoDate })) }),
}));

export type ReauthInput = { password?: string; encryptedPassword?: string; code?: string };
export type ResetPasswordBody = z.output<typeof resetPasswordBody>;
export type LoginCodeBody = z.output<typeof loginCodeBody>;
export type EmailChangeBody = z.output<typeof emailChangeBody>;
export type DeleteAccountBody = z.output<typeof deleteAccountBody>;
export type AccountExport = z.output<typeof accountExport>;
export type Session = z.output<typeof session>;

// The requests of the account's routes: every issue named (platform/shapes/parse.ts).
export const resetPasswordRequest = jsonBody(resetPasswordBody);
export const loginCodeRequest = jsonBody(loginCodeBody);
export const emailChangeRequest = jsonBody(emailChangeBody);
export const emailConfirmRequest = jsonBody(emailConfirmBody);
export const revertPageRequest = { query: revertQuery };
/** The body's token if it brings one (a body that does not is ignored), else the link's (the query's). */
const bodyToken = lazyShape(() => z.unknown().transform((body) => {
  const parsed = emailRevertBody.safeParse(body);
  return parsed.success ? parsed.data.token : undefined;
}));
export const revertRequest = declareRequest({ query: revertQuery, ...jsonBody(emailRevertBody) }, { current: () => ({ query: revertQuery, ...jsonBody(bodyToken) }) });
/** A DELETE without a body is an empty one: re-authentication then says what is missing. */
export const deleteAccountRequest = jsonBody(deleteAccountBody);
export const sessionRequest = { params: sessionParams };
