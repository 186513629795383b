/**
 * Typed client for cms-plugin-bag: accounts (login with captcha or an encrypted password, refresh, logout, the
 * account's own sessions, e-mail, password reset, deletion and export),
 * a `fetch` that sends the jwt and refreshes it once on a 401, helpers for the content under `/api/bag`, search, and
 * the feed and sitemap URLs.
 * One runtime dependency, `@simplewebauthn/browser` for passkeys; runs in browsers and in Node 20 (global `fetch` and `crypto.subtle`). The types of what
 * the server answers come from the same schemas its routes declare.
 */
import { accountCalls } from './account';
import { authCalls } from './auth';
import { commentCalls } from './comments';
import { contentCalls } from './content';
import { discoveryCalls } from './discovery';
import { newsletterCalls } from './newsletters';
import { createSession, type ClientOptions } from './session';

export { solvePow, type PowChallenge, type SolvePowOptions } from './pow';
export { localStorageAdapter, memoryStorage, type TokenStorage } from './storage';
export { CmsBagError } from './errors';
export { toQueryString, type Query } from './query';
export type { ClientOptions } from './session';
export { isMfaChallenge } from './auth';
export type { AuthResponse, CaptchaAnswer, CodePurpose, DisableTotpInput, LoginInput, LoginResult, MfaChallenge, MfaStatus, Passkey, PasskeyOwnerInput, RegisterInput, TotpSetup, User } from './auth';
export type { AccountExport, AccountSession, ChangeEmailInput, DeleteAccountInput, ResetPasswordInput } from './account';
export type { ReadOptions } from './locale';
export type {
  Article,
  ArticleDetail,
  Author,
  Banner,
  Category,
  Detail,
  JsonLd,
  ListQuery,
  Localization,
  Localized,
  Menu,
  MenuItem,
  Moved,
  Page,
  PageDetail,
  Pagination,
  PopularArticle,
  PopularQuery,
  Redirect,
  Tag,
} from './content';
export type { Newsletter, NewsletterSubscription, SubscribeInput } from './newsletters';
export type { FeedFormat, FeedOptions, SearchHit, SearchOptions, SearchResult } from './discovery';
export type { CommentInput, CommentNode, CreatedComment, EditedComment, MyComment, ReportInput, Subscription, ThreadMeta, ThreadReply, ThreadRoot, ThreadSort } from './comments';

export function createClient(options: ClientOptions = {}) {
  const session = createSession(options);
  const { encryptPassword, ...auth } = authCalls(session);

  return {
    storage: session.storage,
    fetch: session.authFetch,
    request: session.request,
    refresh: session.refresh,
    encryptPassword,
    ...auth,
    ...accountCalls(session, encryptPassword),
    ...contentCalls(session),
    ...discoveryCalls(session),
    comments: commentCalls(session),
    newsletters: newsletterCalls(session),
  };
}

export type CmsBagClient = ReturnType<typeof createClient>;
