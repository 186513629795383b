/** What the GraphQL restrictions read (features/graphql/restrictions.ts). */
import type { Core, UID } from '@strapi/strapi';

/** The user a row's author relation `field` names: only its id, documentId and username. */
export const authorOfRow = (strapi: Core.Strapi, owner: UID.ContentType, row: { id?: number }, field: string) =>
  strapi.db.query(owner).load(row, field, { select: ['id', 'documentId', 'username'] });
