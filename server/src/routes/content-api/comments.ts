/** `/api/bag/comments` (submission, flood-limited) and `/api/bag/articles/:id/comments` (the approved tree). */
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
  ],
  grants: {
    public: ['comment.create', 'comment.findByArticle'],
    authenticated: ['comment.create', 'comment.findByArticle'],
  },
};

export default commentRoutes;
