/** Likes (`/api/bag/comments/:id/like`) and reports (`/api/bag/comments/:id/report`), rate limited per client IP. */
import { rateLimited, type RouteModule } from '../types';

const commentFeedbackRoutes: RouteModule = {
  routes: [
    {
      method: 'POST',
      path: '/bag/comments/:id/like',
      handler: 'comment-feedback.like',
      config: { prefix: '', middlewares: [rateLimited('reaction')] },
    },
    {
      method: 'DELETE',
      path: '/bag/comments/:id/like',
      handler: 'comment-feedback.unlike',
      config: { prefix: '', middlewares: [rateLimited('reaction')] },
    },
    {
      method: 'POST',
      path: '/bag/comments/:id/report',
      handler: 'comment-feedback.report',
      config: { prefix: '', middlewares: [rateLimited('report')] },
    },
  ],
  grants: {
    public: ['comment-feedback.like', 'comment-feedback.unlike', 'comment-feedback.report'],
    authenticated: ['comment-feedback.like', 'comment-feedback.unlike', 'comment-feedback.report'],
  },
};

export default commentFeedbackRoutes;
