/** Public API routes: `/api/cms-plugin-bag/…` by default, `/api/bag/…` for routes with `prefix: ''`. */
import type { Handler, RoleType, RouteModule } from '../../platform/route-types';
import account from '../../features/accounts/account.routes';
import auth from '../../features/accounts/auth.routes';
import comments from '../../features/comments/comments.routes';
import commentFeedback from '../../features/comments/comment-feedback.routes';
import commentFollow from '../../features/comments/comment-follow.routes';
import commentUnsubscribe from '../../features/comments/comment-unsubscribe.routes';
import content from '../../features/content/content.routes';
import cryptoRoutes from '../../features/crypto/crypto.routes';
import feeds from '../../features/discovery/feeds.routes';
import mfa from '../../features/accounts/mfa.routes';
import passkeys from '../../features/accounts/passkeys.routes';
import search from '../../features/search/search.routes';

const modules: RouteModule[] = [
  auth,
  account,
  mfa,
  passkeys,
  cryptoRoutes,
  content,
  comments,
  commentFeedback,
  commentFollow,
  commentUnsubscribe,
  feeds,
  search,
];

export const routes = modules.flatMap((module) => module.routes);

/** Actions granted on first start, per role type. */
export const defaultGrants: Record<RoleType, Handler[]> = {
  public: modules.flatMap((module) => module.grants.public ?? []),
  authenticated: modules.flatMap((module) => module.grants.authenticated ?? []),
};
