import type { Core } from '@strapi/strapi';
import { commentsDocumentMiddleware } from './document-middlewares/comments';

const register = ({ strapi }: { strapi: Core.Strapi }) => {
  strapi.documents.use(commentsDocumentMiddleware(strapi));
};

export default register;
