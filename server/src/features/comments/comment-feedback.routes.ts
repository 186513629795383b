/** Likes (`/api/bag/comments/:id/like`) and reports (`/api/bag/comments/:id/report`), rate limited per client IP. */
import * as shapes from './comment-feedback.shapes';
import { rateLimited, type RouteModule } from '../../platform/route-types';

const commentFeedbackRoutes: RouteModule = {
  routes: [
    {
      method: 'POST',
      path: '/bag/comments/:id/like',
      handler: 'comment-feedback.like',
      request: shapes.likeRequest,
      response: shapes.likeResponse,
      config: { prefix: '', middlewares: [rateLimited('reaction')] },
    },
    {
      method: 'DELETE',
      path: '/bag/comments/:id/like',
      handler: 'comment-feedback.unlike',
      request: shapes.likeRequest,
      response: shapes.likeResponse,
      config: { prefix: '', middlewares: [rateLimited('reaction')] },
    },
    {
      method: 'POST',
      path: '/bag/comments/:id/report',
      handler: 'comment-feedback.report',
      request: shapes.reportRequest,
      response: shapes.reportResponse,
      config: { prefix: '', middlewares: [rateLimited('report')] },
    },
  ],
  grants: {
    public: ['comment-feedback.like', 'comment-feedback.unlike', 'comment-feedback.report'],
    authenticated: ['comment-feedback.like', 'comment-feedback.unlike', 'comment-feedback.report'],
  },
};

export default commentFeedbackRoutes;
