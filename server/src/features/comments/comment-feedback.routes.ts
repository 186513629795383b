/** Likes (`/api/bag/comments/:id/like`) and reports (`/api/bag/comments/:id/report`), rate limited per client IP. */
import { idParams } from './comments.shapes';
import * as shapes from './comment-feedback.shapes';
import { jsonBody, rateLimited, type RouteModule } from '../../platform/route-types';

const commentFeedbackRoutes: RouteModule = {
  routes: [
    {
      method: 'POST',
      path: '/bag/comments/:id/like',
      handler: 'comment-feedback.like',
      request: { params: idParams },
      response: shapes.likeResponse,
      config: { prefix: '', middlewares: [rateLimited('reaction')] },
    },
    {
      method: 'DELETE',
      path: '/bag/comments/:id/like',
      handler: 'comment-feedback.unlike',
      request: { params: idParams },
      response: shapes.likeResponse,
      config: { prefix: '', middlewares: [rateLimited('reaction')] },
    },
    {
      method: 'POST',
      path: '/bag/comments/:id/report',
      handler: 'comment-feedback.report',
      request: { params: idParams, ...jsonBody(shapes.reportBody) },
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
