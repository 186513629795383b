/**
 * Editors' redirects are checked however they are written (features/redirects/redirect-rules.ts, and the redirects service's loop
 * check): a bad one is a 400, never stored.
 */
import type { Core, Modules } from '@strapi/strapi';
import { uid } from '../../platform/plugin-id';
import { getService } from '../../platform/get-service';
import { validateRedirectData } from './redirect-rules';

const REDIRECT = uid('redirect');

export const redirectRules =
  (strapi: Core.Strapi): Modules.Documents.Middleware.Middleware =>
  async (context, next) => {
    const { action } = context;
    if (context.uid !== REDIRECT || (action !== 'create' && action !== 'update' && action !== 'clone')) return next();
    const { data, documentId } = context.params as { data?: Record<string, unknown>; documentId?: string };
    validateRedirectData(data ?? {}, action === 'create');
    await getService(strapi, 'redirects').assertNoLoop(data ?? {}, action === 'create' ? undefined : documentId, action === 'update');
    return next();
  };
