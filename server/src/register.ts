import type { Core } from '@strapi/strapi';
import { registerContentManagerCommentStatus } from './content-manager-comment-status';
import { commentsDocumentMiddleware } from './document-middlewares/comments';

const register = ({ strapi }: { strapi: Core.Strapi }) => {
  strapi.documents.use(commentsDocumentMiddleware(strapi));
  registerContentManagerCommentStatus(strapi);
};

export default register;
