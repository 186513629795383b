/** Public API routes: `/api/cms-plugin-bag/…` by default, `/api/bag/…` for routes with `prefix: ''`. */
import type { Handler, RoleType, RouteModule } from '../../platform/route-types';
import {
  accountRoutes as account,
  authRoutes as auth,
  mfaRoutes as mfa,
  passkeysRoutes as passkeys,
} from '../../features/accounts';
import {
  commentsRoutes as comments,
  commentFeedbackRoutes as commentFeedback,
  commentFollowRoutes as commentFollow,
  commentUnsubscribeRoutes as commentUnsubscribe,
} from '../../features/comments';
import { contentRoutes as content } from '../../features/content';
import { cryptoRoutes } from '../../features/crypto';
import { feedsRoutes as feeds } from '../../features/discovery';
import { readersRoutes as readers } from '../../features/readers';
import { newslettersRoutes as newsletters } from '../../features/newsletters';
import { searchRoutes as search } from '../../features/search';

const modules: RouteModule[] = [
  auth,
  account,
  mfa,
  passkeys,
  cryptoRoutes,
  // Before content: `/bag/articles/popular` is not an article's slug.
  readers,
  content,
  comments,
  commentFeedback,
  commentFollow,
  commentUnsubscribe,
  feeds,
  search,
  newsletters,
];

export const routes = modules.flatMap((module) => module.routes);

/** Actions granted on first start, per role type. */
export const defaultGrants: Record<RoleType, Handler[]> = {
  public: modules.flatMap((module) => module.grants.public ?? []),
  authenticated: modules.flatMap((module) => module.grants.authenticated ?? []),
};
