/** Public API routes: `/api/cms-plugin-bag/…` by default, `/api/bag/…` for routes with `prefix: ''`. */
import type { Handler, RoleType, RouteModule } from '../types';
import account from './account';
import auth from './auth';
import comments from './comments';
import commentFeedback from './comment-feedback';
import commentFollow from './comment-follow';
import commentUnsubscribe from './comment-unsubscribe';
import content from './content';
import cryptoRoutes from './crypto';
import feeds from './feeds';
import mfa from './mfa';
import passkeys from './passkeys';
import search from './search';

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
