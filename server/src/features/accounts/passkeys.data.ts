/** The passkey and WebAuthn challenge rows (features/accounts/passkeys.service.ts). */
import type { Core } from '@strapi/strapi';
import { uid } from '../../platform/plugin-id';

const PASSKEY = uid('passkey');
const CHALLENGE = uid('webauthn-challenge');

export interface PasskeyRow {
  id: number;
  documentId: string;
  userId: number;
  credentialId: string;
  publicKey: string;
  counter: number | string;
  transports?: string[] | null;
  name?: string | null;
  createdAt: string | Date;
  lastUsedAt?: string | Date | null;
}

export interface ChallengeRow {
  id: number;
  purpose: string;
  challenge: string;
  userId?: number | null;
  expiresAt: number | string;
}

/** The account's passkeys, oldest first. */
export const passkeysOf = (strapi: Core.Strapi, userId: number) =>
  strapi.db.query(PASSKEY).findMany({ where: { userId }, orderBy: { id: 'asc' } }) as Promise<PasskeyRow[]>;

/** The account's passkey of that public id (its documentId), if any. */
export const passkeyOfOwner = (strapi: Core.Strapi, userId: number, documentId: string) =>
  strapi.db.query(PASSKEY).findOne({ where: { documentId, userId } }) as Promise<PasskeyRow | null>;

export const passkeyByCredentialId = (strapi: Core.Strapi, credentialId: string) =>
  strapi.db.query(PASSKEY).findOne({ where: { credentialId } }) as Promise<PasskeyRow | null>;

export const deletePasskey = (strapi: Core.Strapi, id: number) => strapi.db.query(PASSKEY).delete({ where: { id } });

export const renamePasskey = (strapi: Core.Strapi, id: number, name: string) => strapi.db.query(PASSKEY).update({ where: { id }, data: { name } });

export const deletePasskeysOf = (strapi: Core.Strapi, userIds: number[]) => strapi.db.query(PASSKEY).deleteMany({ where: { userId: { $in: userIds } } });

/** The account's passkeys registered at `since` or later. */
export const deletePasskeysSince = (strapi: Core.Strapi, userId: number, since: Date) =>
  strapi.db.query(PASSKEY).deleteMany({ where: { userId, createdAt: { $gte: since } } });

export const createPasskey = (
  strapi: Core.Strapi,
  data: Pick<PasskeyRow, 'userId' | 'credentialId' | 'publicKey' | 'counter' | 'transports' | 'name'> & { createdAt: Date },
) => strapi.db.query(PASSKEY).create({ data }) as Promise<PasskeyRow>;

/** A sign-in with the passkey: its new signature counter, used at `lastUsedAt`. */
export const recordPasskeyUse = (strapi: Core.Strapi, id: number, counter: number, lastUsedAt: Date) =>
  strapi.db.query(PASSKEY).update({ where: { id }, data: { counter, lastUsedAt } });

/** Challenges that expired before `now`. */
export const deleteExpiredWebauthnChallenges = (strapi: Core.Strapi, now: number) =>
  strapi.db.query(CHALLENGE).deleteMany({ where: { expiresAt: { $lt: now } } });

export const createWebauthnChallenge = (
  strapi: Core.Strapi,
  data: { lookup: string; purpose: string; challenge: string; userId: number | null; expiresAt: number },
) => strapi.db.query(CHALLENGE).create({ data });

export const webauthnChallengeByLookup = (strapi: Core.Strapi, lookup: string) =>
  strapi.db.query(CHALLENGE).findOne({ where: { lookup } }) as Promise<ChallengeRow | null>;
