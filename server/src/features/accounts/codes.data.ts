/**
 * The captcha and e-mail code rows (features/accounts/captcha.ts, email-code.ts): one table, a row per captcha key or
 * per address, looked up by `lookup`.
 */
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

/** A row as captcha.ts and email-code.ts read it. */
export interface CodeRow {
  id: number;
  kind: string;
  secretHash: string;
  expiresAt: string | number;
  sentAt?: string | number | null;
}

export interface NewCode {
  kind: string;
  lookup: string;
  secretHash: string;
  attempts: number;
  expiresAt: number;
  sentAt?: number;
}

export const createCode = (strapi: Core.Strapi, data: NewCode) => strapi.db.query(UID).create({ data });

export const codeByLookup = (strapi: Core.Strapi, lookup: string) => strapi.db.query(UID).findOne({ where: { lookup } }) as Promise<CodeRow | null>;

/** The row of `lookup` if it is one of `kinds`. */
export const codeOfKinds = (strapi: Core.Strapi, kinds: readonly string[], lookup: string) =>
  strapi.db.query(UID).findOne({ where: { kind: { $in: kinds }, lookup } }) as Promise<CodeRow | null>;

export const emailCodeByLookup = (strapi: Core.Strapi, lookup: string) =>
  strapi.db.query(UID).findOne({ where: { kind: 'email', lookup } }) as Promise<CodeRow | null>;

/**
 * Replaces the row's code with `data`, only while it still holds the send read at `sentAt`: true when this call did
 * (of two concurrent sends, one replaces the code).
 */
export const replaceCode = async (strapi: Core.Strapi, id: number, sentAt: CodeRow['sentAt'], data: NewCode): Promise<boolean> => {
  const { count } = await strapi.db.query(UID).updateMany({ where: { id, sentAt }, data });
  return count === 1;
};

/** Deletes the row; true when this call did (a captcha is consumed once). */
export const takeCode = async (strapi: Core.Strapi, id: number): Promise<boolean> => {
  const { count } = await strapi.db.query(UID).deleteMany({ where: { id } });
  return count === 1;
};

/** Deletes the row while it holds that code: true when this call did (a right code is used once). */
export const takeCodeOfHash = async (strapi: Core.Strapi, id: number, secretHash: string): Promise<boolean> => {
  const { count } = await strapi.db.query(UID).deleteMany({ where: { id, secretHash } });
  return count === 1;
};

/** Deletes the code of `lookup` if it is still that one. */
export const deleteCodeOfHash = (strapi: Core.Strapi, lookup: string, secretHash: string) =>
  strapi.db.query(UID).deleteMany({ where: { lookup, secretHash } });

/** Deletes rows expired by `now`; returns how many. */
export const deleteExpiredCodes = async (strapi: Core.Strapi, now: number): Promise<number> => {
  const { count } = await strapi.db.query(UID).deleteMany({ where: { expiresAt: { $lte: now } } });
  return count;
};
