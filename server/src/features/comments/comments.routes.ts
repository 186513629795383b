/**
 * `/api/bag/comments` (submission, flood-limited), `/api/bag/articles/:id/comments` (the approved tree, or a page of
 * it), `/api/bag/comments/counts`, `/api/bag/comments/:id/replies`, and the author's own: `/api/bag/comments/mine`,
 * edit and delete `/api/bag/comments/:id`. Fixed paths come before `:id` ones.
 */
import * as shapes from './comments.shapes';
import { COMMENTS_CACHE, rateLimited, type RouteModule } from '../../platform/route-types';
import { SIGNED_IN } from '../../platform/signed-in.middleware';

const commentRoutes: RouteModule = {
  routes: [
    {
      method: 'POST',
      path: '/bag/comments',
      handler: 'comment.create',
      request: shapes.createRequest,
      response: shapes.createResponse,
      config: { prefix: '', middlewares: [rateLimited('comment')] },
    },
    {
      method: 'GET',
      path: '/bag/comments/mine',
      handler: 'comment.mine',
      request: shapes.mineRequest,
      response: shapes.mineResponse,
      config: { prefix: '', middlewares: [SIGNED_IN] },
    },
    {
      method: 'PUT',
      path: '/bag/comments/:id',
      handler: 'comment.edit',
      request: shapes.editRequest,
      response: shapes.editResponse,
      config: { prefix: '', middlewares: [SIGNED_IN] },
    },
    {
      method: 'DELETE',
      path: '/bag/comments/:id',
      handler: 'comment.remove',
      request: shapes.removeRequest,
      response: shapes.deleteResponse,
      config: { prefix: '', middlewares: [SIGNED_IN] },
    },
    {
      method: 'GET',
      path: '/bag/articles/:id/comments',
      handler: 'comment.findByArticle',
      request: shapes.threadRequest,
      response: shapes.threadResponse,
      cache: COMMENTS_CACHE,
      config: { prefix: '' },
    },
    {
      method: 'GET',
      path: '/bag/comments/counts',
      handler: 'comment.counts',
      request: shapes.countsRequest,
      response: shapes.countsResponse,
      cache: COMMENTS_CACHE,
      config: { prefix: '' },
    },
    {
      method: 'GET',
      path: '/bag/comments/:id/replies',
      handler: 'comment.replies',
      request: shapes.repliesRequest,
      response: shapes.repliesResponse,
      cache: COMMENTS_CACHE,
      config: { prefix: '' },
    },
  ],
  grants: {
    public: ['comment.create', 'comment.findByArticle', 'comment.counts', 'comment.replies', 'comment.edit', 'comment.remove', 'comment.mine'],
    authenticated: ['comment.create', 'comment.findByArticle', 'comment.counts', 'comment.replies', 'comment.edit', 'comment.remove', 'comment.mine'],
  },
};

export default commentRoutes;
