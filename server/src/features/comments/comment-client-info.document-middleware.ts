/**
 * A comment created during an HTTP request gets that request's client IP and User-Agent (whatever the data said),
 * and an update never changes them: they record the submission. Outside a request (seed scripts, migrations) the
 * data is stored as given.
 */
import type { Core, Modules } from '@strapi/strapi';
import { commentParams } from './comment-rule.document-middleware';
import { clientInfo } from '../../platform/client';

export const commentClientInfo =
  (strapi: Core.Strapi): Modules.Documents.Middleware.Middleware =>
  async (context, next) => {
    const params = commentParams(context);
    if (!params?.data) return next();
    const request = strapi.requestContext.get();
    if (request && context.action === 'create') {
      Object.assign(params.data, clientInfo(request));
    } else if (request && context.action === 'update') {
      delete params.data.ip;
      delete params.data.userAgent;
    }
    return next();
  };
