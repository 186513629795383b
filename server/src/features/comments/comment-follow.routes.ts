/**
 * Following a thread (`/api/bag/articles/:id/subscription`, Bearer: answers per user, never cached) and the article's
 * comment feed (`/api/bag/articles/:id/comments.rss`, cached and revalidated like every comment read).
 */
import * as shapes from './comment-follow.shapes';
import { COMMENTS_CACHE, type PluginRoute, type RouteModule } from '../../platform/route-types';

const subscription = (method: PluginRoute['method'], handler: PluginRoute['handler']): PluginRoute => ({
  method,
  path: '/bag/articles/:id/subscription',
  handler,
  request: shapes.subscriptionRequest,
  response: shapes.subscriptionResponse,
  config: { prefix: '' },
});

const handlers = ['comment-follow.status', 'comment-follow.subscribe', 'comment-follow.unsubscribe', 'feed.comments'] as const;

const commentFollowRoutes: RouteModule = {
  routes: [
    subscription('GET', 'comment-follow.status'),
    subscription('POST', 'comment-follow.subscribe'),
    subscription('DELETE', 'comment-follow.unsubscribe'),
    {
      method: 'GET',
      path: '/bag/articles/:id/comments.rss',
      handler: 'feed.comments',
      request: shapes.commentFeedRequest,
      response: shapes.commentFeedDocument,
      cache: COMMENTS_CACHE,
      config: { prefix: '' },
    },
  ],
  // Public too: a request without a token then gets the route's 401, not the role check's 403.
  grants: { public: [...handlers], authenticated: [...handlers] },
};

export default commentFollowRoutes;
