/** The unsubscriptions from comment mails (features/comments/comment-unsubscribe.service.ts): a keyed hash of the address and a kind. */
import type { Core } from '@strapi/strapi';
import { uid } from '../../platform/plugin-id';
import type { NotificationKind } from './notifications/templates';

const UNSUBSCRIBE = uid('comment-unsubscribe');

/** Whether the address of that lookup unsubscribed from `kind`. */
export const hasUnsubscribed = async (strapi: Core.Strapi, lookup: string, kind: NotificationKind): Promise<boolean> =>
  Boolean(await strapi.db.query(UNSUBSCRIBE).findOne({ select: ['id'], where: { lookup, kind } }));

/** Records the unsubscription (the unique lookup and kind refuse a second row). */
export const recordUnsubscription = (strapi: Core.Strapi, lookup: string, kind: NotificationKind) =>
  strapi.db.query(UNSUBSCRIBE).create({ data: { lookup, kind } });
