/** The Public role's permissions as the response cache reads them (features/cache/public-actions.ts). */
import type { Core } from '@strapi/strapi';

/** Every action the Public role holds, one row each. */
export const publicPermissionRows = (strapi: Core.Strapi) =>
  strapi.db.query('plugin::users-permissions.permission').findMany({ where: { role: { type: 'public' } }, select: ['action'] }) as Promise<{ action: string }[]>;
