/**
 * `/api/bag/comments` (submission, flood-limited), `/api/bag/articles/:id/comments` (the approved tree, or a page of
 * it), `/api/bag/comments/counts`, `/api/bag/comments/:id/replies`, and the author's own: `/api/bag/comments/mine`,
 * edit and delete `/api/bag/comments/:id`. Fixed paths come before `:id` ones.
 */
import * as shapes from './comments.shapes';
import { COMMENTS_CACHE, jsonBody, rateLimited, type RouteModule } from '../../platform/route-types';

const commentRoutes: RouteModule = {
  routes: [
    {
      method: 'POST',
      path: '/bag/comments',
      handler: 'comment.create',
      request: { ...jsonBody(shapes.createBody), query: shapes.commentLocaleQuery },
      response: shapes.createResponse,
      config: { prefix: '', middlewares: [rateLimited('comment')] },
    },
    {
      method: 'GET',
      path: '/bag/comments/mine',
      handler: 'comment.mine',
      request: { query: shapes.mineQuery },
      response: shapes.mineResponse,
      config: { prefix: '' },
    },
    {
      method: 'PUT',
      path: '/bag/comments/:id',
      handler: 'comment.edit',
      request: { params: shapes.idParams, ...jsonBody(shapes.editBody), query: shapes.commentLocaleQuery },
      response: shapes.editResponse,
      config: { prefix: '' },
    },
    {
      method: 'DELETE',
      path: '/bag/comments/:id',
      handler: 'comment.remove',
      request: { params: shapes.idParams, query: shapes.commentLocaleQuery },
      response: shapes.deleteResponse,
      config: { prefix: '' },
    },
    {
      method: 'GET',
      path: '/bag/articles/:id/comments',
      handler: 'comment.findByArticle',
      request: { params: shapes.idParams, query: shapes.threadQuery },
      response: shapes.threadResponse,
      cache: COMMENTS_CACHE,
      config: { prefix: '' },
    },
    {
      method: 'GET',
      path: '/bag/comments/counts',
      handler: 'comment.counts',
      request: { query: shapes.countsQuery },
      response: shapes.countsResponse,
      cache: COMMENTS_CACHE,
      config: { prefix: '' },
    },
    {
      method: 'GET',
      path: '/bag/comments/:id/replies',
      handler: 'comment.replies',
      request: { params: shapes.idParams, query: shapes.repliesQuery },
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
