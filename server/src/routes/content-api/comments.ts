/**
 * `/api/bag/comments` (submission, flood-limited), `/api/bag/articles/:id/comments` (the approved tree, or a page of
 * it), `/api/bag/comments/counts` and `/api/bag/comments/:id/replies`. Fixed paths come before `:id` ones.
 */
import { rateLimited, type RouteModule } from '../types';

const commentRoutes: RouteModule = {
  routes: [
    {
      method: 'POST',
      path: '/bag/comments',
      handler: 'comment.create',
      config: { prefix: '', middlewares: [rateLimited('comment')] },
    },
    { method: 'GET', path: '/bag/articles/:id/comments', handler: 'comment.findByArticle', config: { prefix: '' } },
    { method: 'GET', path: '/bag/comments/counts', handler: 'comment.counts', config: { prefix: '' } },
    { method: 'GET', path: '/bag/comments/:id/replies', handler: 'comment.replies', config: { prefix: '' } },
  ],
  grants: {
    public: ['comment.create', 'comment.findByArticle', 'comment.counts', 'comment.replies'],
    authenticated: ['comment.create', 'comment.findByArticle', 'comment.counts', 'comment.replies'],
  },
};

export default commentRoutes;
