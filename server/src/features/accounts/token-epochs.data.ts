/** The accounts' token epochs (features/accounts/access-tokens.ts): when each account's last account-wide sign-out was. */
import type { Core } from '@strapi/strapi';
import type { Knex } from 'knex';
import { uid } from '../../platform/plugin-id';
import { tableOf } from '../../platform/columns';

const EPOCH = uid('token-epoch');

/**
 * Sets the account's `validAfter` to `at`, creating its row when it has none: one INSERT … ON CONFLICT (user_id) DO
 * UPDATE, so two instances recording an account's first epoch at once neither fail nor abort the transaction they
 * run in (`trx`, the Query Engine's current one, if any).
 */
export const raiseTokenEpoch = async (strapi: Core.Strapi, userId: number, at: number, trx?: unknown): Promise<void> => {
  const { table, column } = tableOf(strapi, EPOCH);
  const knex = (trx as Knex.Transaction | undefined) ?? strapi.db.connection;
  const now = new Date(at);
  await knex(table)
    .insert({ [column('userId')]: userId, [column('validAfter')]: at, [column('createdAt')]: now, [column('updatedAt')]: now })
    .onConflict(column('userId'))
    .merge([column('validAfter'), column('updatedAt')]);
};

/** The account's `validAfter`, if it has a row. */
export const tokenEpochOf = (strapi: Core.Strapi, userId: number) =>
  strapi.db.query(EPOCH).findOne({ where: { userId }, select: ['validAfter'] }) as Promise<{ validAfter: string | number } | null>;

export const deleteTokenEpochsOf = (strapi: Core.Strapi, userIds: number[]) => strapi.db.query(EPOCH).deleteMany({ where: { userId: { $in: userIds } } });
