/** The captcha and e-mail code rows' counters that the query engine cannot update atomically. */
import type { Core } from '@strapi/strapi';
import { uid } from '../../platform/plugin-id';
import { tableOf } from '../../platform/columns';

const UID = uid('captcha');

/**
 * Takes one try of the row's `maxAttempts` with an atomic conditional increment; true when a try was left (so
 * concurrent guesses can never exceed the limit).
 */
export const claimAttempt = async (strapi: Core.Strapi, id: number, maxAttempts: number): Promise<boolean> => {
  const { table, column } = tableOf(strapi, UID);
  const claimed: number = await strapi.db
    .connection(table)
    .where(column('id'), id)
    .andWhere(column('attempts'), '<', maxAttempts)
    .increment(column('attempts'), 1);
  return claimed === 1;
};
