/** Editors' redirects are checked however they are written (validation/redirect.ts): a bad one is a 400, never stored. */
import type { Core, Modules } from '@strapi/strapi';
import { uid } from '../domain/plugin-id';
import { validateRedirectData } from '../validation/redirect';

const REDIRECT = uid('redirect');

export const redirectRules =
  (_strapi: Core.Strapi): Modules.Documents.Middleware.Middleware =>
  async (context, next) => {
    if (context.uid !== REDIRECT || (context.action !== 'create' && context.action !== 'update')) return next();
    const { data } = context.params as { data?: Record<string, unknown> };
    validateRedirectData(data ?? {}, context.action === 'create');
    return next();
  };
