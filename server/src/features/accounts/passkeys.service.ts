/**
 * Passkeys (WebAuthn Level 2, ES256 and RS256, attestation `none`) through `@simplewebauthn/server`: registration by
 * the signed-in account once it proved it is the owner (password or e-mailed code, and its second factor), list and
 * removal, and sign-in with one (a passkey is both factors, so user verification is required). Challenges are rows
 * (any instance verifies what another issued), single-use, 5 minutes. The relying party is `site.url`'s host name
 * and origin. See docs/accounts.md for the flows.
 */
import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import type * as WebauthnServer from '@simplewebauthn/server';
import type { AuthenticationResponseJSON, AuthenticatorTransport, RegistrationResponseJSON } from '@simplewebauthn/server';
import type * as WebauthnHelpers from '@simplewebauthn/server/helpers';
import { normalizeEmail } from '../../platform/auth';
import { ServiceUnavailableError } from '../../platform/errors';
import { lazyRequire } from '../../platform/lazy-require';
import type { PasskeyOwnerInput } from './mfa.shapes';
import { takeWebauthnChallenge } from './mfa.data';
import {
  createPasskey,
  createWebauthnChallenge,
  deleteExpiredWebauthnChallenges,
  deletePasskey,
  renamePasskey,
  deletePasskeysOf,
  deletePasskeysSince,
  passkeyByCredentialId,
  passkeyOfOwner,
  passkeysOf,
  recordPasskeyUse,
  webauthnChallengeByLookup,
  type PasskeyRow,
  type ChallengeRow,
} from './passkeys.data';
import type { ClientInfo } from '../../platform/client';
import { secretHash, sha256 } from '../../platform/secret-hash';
import { getService } from '../../platform/get-service';
import type { UserRow } from './account.service';
import type { Requester } from './reauthentication';
import type { Tokens } from './refresh-token';

const webauthn = lazyRequire<typeof WebauthnServer>('@simplewebauthn/server');
const webauthnHelpers = lazyRequire<typeof WebauthnHelpers>('@simplewebauthn/server/helpers');

const CHALLENGE_TTL_MS = 5 * 60 * 1000;
/** ES256 and RS256. */
const ALGORITHMS = [-7, -257];
/**
 * The challenge of registration options: issued only after the owner re-authenticated, for that account. Rows of the
 * older purpose `register` (issued on the jwt alone) are never accepted.
 */
const ADD_PASSKEY = 'add-passkey';
/** A made-up credential: a passkey's usual id length, and the transports a phone's or a password manager's reports. */
const DECOY_ID_BYTES = 16;
const DECOY_TRANSPORTS: AuthenticatorTransport[] = ['hybrid', 'internal'];

export const PASSKEY_ERRORS = {
  failed: 'Passkey verification failed',
  notFound: 'Passkey not found',
  noSite: 'Site URL is not configured',
} as const;

const iso = (value: string | Date | null | undefined) => (value ? new Date(value).toISOString() : null);
const summary = (row: PasskeyRow) => ({ id: row.documentId, name: row.name ?? 'Passkey', createdAt: iso(row.createdAt)!, lastUsedAt: iso(row.lastUsedAt) });
const failed = () => new errors.ValidationError(PASSKEY_ERRORS.failed);
/** A WebAuthn check's result when it verified; any throw or a negative answer is `Passkey verification failed`. */
const verified = async <T extends { verified: boolean }>(check: () => Promise<T>): Promise<T> => {
  let result: T;
  try {
    result = await check();
  } catch {
    throw failed();
  }
  if (!result.verified) throw failed();
  return result;
};

const passkeys = ({ strapi }: { strapi: Core.Strapi }) => {
  const clock = () => getService(strapi, 'clock');

  /**
   * The relying party: `account.passkeys.rpId` and `.origins` when set, else `site.url`'s host name and origin; none
   * without either (503).
   */
  const relyingParty = async () => {
    const config = await getService(strapi, 'settings').get();
    const { rpId, origins } = config.account.passkeys;
    const site = config.site.url ? new URL(config.site.url) : undefined;
    if (!rpId && !site) throw new ServiceUnavailableError(PASSKEY_ERRORS.noSite);
    return {
      rpID: rpId ?? site!.hostname,
      origins: (origins ?? (site ? [site.origin] : [])).map((origin) => new URL(origin).origin),
      rpName: config.site.title || 'Strapi',
    };
  };

  const rowsOf = (userId: number) => passkeysOf(strapi, userId);

  const saveChallenge = async (purpose: typeof ADD_PASSKEY | 'login', challenge: string, userId: number | null, lookup: string) => {
    const now = clock().now();
    await deleteExpiredWebauthnChallenges(strapi, now);
    await createWebauthnChallenge(strapi, { lookup, purpose, challenge, userId, expiresAt: now + CHALLENGE_TTL_MS });
  };

  /** The challenge row, used up by this call; none when unknown, expired, for another purpose or taken already. */
  const takeChallenge = async (lookup: string, purpose: string): Promise<ChallengeRow | null> => {
    const row = await webauthnChallengeByLookup(strapi, lookup);
    if (!row || row.purpose !== purpose) return null;
    if (!(await takeWebauthnChallenge(strapi, row.id))) return null;
    return Number(row.expiresAt) > clock().now() ? row : null;
  };

  /** One of the account's passkeys by its id; unknown or another account's: 404. */
  const ownRow = async (userId: number, id: string) => {
    const row = (await passkeyOfOwner(strapi, userId, id)) as PasskeyRow | null;
    if (!row) throw new errors.NotFoundError(PASSKEY_ERRORS.notFound);
    return row;
  };

  const randomChallenge = () => new Uint8Array(clock().randomBytes(32));

  /**
   * What login options list for an identifier without passkeys (or without an account): one credential that looks
   * like a real one and is the same at every call, a keyed hash of the identifier (never stored), so the answer does
   * not tell which identifiers have passkeys.
   */
  const decoyCredentials = (identifier: string) => {
    const digest = Buffer.from(secretHash(strapi, 'passkey-decoy', normalizeEmail(identifier.trim())), 'hex');
    return [{ id: digest.subarray(0, DECOY_ID_BYTES).toString('base64url'), transports: DECOY_TRANSPORTS }];
  };

  return {
    async list(userId: number) {
      return (await rowsOf(userId)).map(summary);
    },

    async remove(userId: number, id: string) {
      const row = await ownRow(userId, id);
      await deletePasskey(strapi, row.id);
      getService(strapi, 'credential-alerts').changed(userId, 'passkey-removed');
      return { message: 'Passkey removed' };
    },

    /** A new name for one of the account's passkeys (docs/accounts.md#passkeys); another account's is not found. */
    async rename(userId: number, id: string, name: string) {
      const row = await ownRow(userId, id);
      const updated = (await renamePasskey(strapi, row.id, name.trim())) as PasskeyRow;
      return summary(updated);
    },

    async removeUser(...userIds: number[]) {
      await deletePasskeysOf(strapi, userIds);
    },

    /** The account's passkeys registered at `since` or later (an e-mail revert takes them back). */
    async removeAddedSince(userId: number, since: Date) {
      await deletePasskeysSince(strapi, userId, since);
    },

    /**
     * The owner first: the password (or an e-mail code sent for `add-passkey`) as every re-authentication, then the
     * second factor when TOTP is on. The challenge is stored for this account and this purpose only.
     */
    async registerOptions(userId: number, owner: PasskeyOwnerInput, requester: Requester) {
      await getService(strapi, 'mfa').assertEnabled();
      const rp = await relyingParty();
      const user = await getService(strapi, 'accounts').findUser(userId);
      if (!user) throw new errors.UnauthorizedError('Missing or invalid credentials');
      const config = await getService(strapi, 'settings').get();
      await getService(strapi, 'reauthentication').confirm(user, owner, requester, config, { codePurpose: ADD_PASSKEY });
      await getService(strapi, 'mfa').requireSecondFactor(userId, owner.mfaCode);
      const challenge = randomChallenge();
      const options = await webauthn().generateRegistrationOptions({
        rpName: rp.rpName,
        rpID: rp.rpID,
        userName: user.email,
        userDisplayName: (user as UserRow & { username?: string }).username ?? user.email,
        // The user handle names no one outside this site: a keyed hash of the account id.
        userID: new Uint8Array(Buffer.from(sha256(`${userId}:${strapi.config.get('plugin::users-permissions.jwtSecret')}`), 'hex')),
        challenge,
        attestationType: 'none',
        excludeCredentials: (await rowsOf(userId)).map((row) => ({ id: row.credentialId, transports: row.transports ?? undefined })),
        // The passkey will be both factors: the authenticator must verify the user (PIN, biometrics), not just see one.
        authenticatorSelection: { residentKey: 'preferred', userVerification: 'required' },
        supportedAlgorithmIDs: ALGORITHMS,
      });
      // The options carry the challenge base64url-encoded: that is what the client data will quote.
      await saveChallenge(ADD_PASSKEY, options.challenge, userId, `${ADD_PASSKEY}:${sha256(options.challenge)}`);
      return options;
    },

    async registerVerify(userId: number, response: RegistrationResponseJSON, name: string | undefined) {
      const rp = await relyingParty();
      let challenge: string;
      try {
        challenge = webauthnHelpers().decodeClientDataJSON(response.response.clientDataJSON).challenge;
      } catch {
        throw failed();
      }
      const row = await takeChallenge(`${ADD_PASSKEY}:${sha256(challenge)}`, ADD_PASSKEY);
      if (!row || row.userId !== userId) throw failed();
      const verification = await verified(() =>
        webauthn().verifyRegistrationResponse({
          response,
          expectedChallenge: row.challenge,
          expectedOrigin: rp.origins,
          expectedRPID: rp.rpID,
          requireUserVerification: true,
          supportedAlgorithmIDs: ALGORITHMS,
        })
      );
      if (!verification.registrationInfo) throw failed();
      const { credential } = verification.registrationInfo;
      if (await passkeyByCredentialId(strapi, credential.id)) throw failed();
      const created = await createPasskey(strapi, {
        userId,
        credentialId: credential.id,
        publicKey: webauthnHelpers().isoBase64URL.fromBuffer(credential.publicKey),
        counter: credential.counter,
        transports: credential.transports ?? null,
        name: name?.trim() || 'Passkey',
        createdAt: new Date(clock().now()),
      });
      getService(strapi, 'credential-alerts').changed(userId, 'passkey-added');
      const { id, name: shownName, createdAt } = summary(created);
      return { id, name: shownName, createdAt };
    },

    async loginOptions(identifier: string | undefined) {
      const rp = await relyingParty();
      const user = identifier ? await getService(strapi, 'accounts').findLoginUser(identifier) : null;
      // Options naming an identifier take only its account's passkeys: the answer must come from one of them. One
      // without an account takes none (0 names no account), as an account without passkeys does, with the same reads
      // and made-up credentials: neither the list, the time nor a passkey of one's own tells them apart.
      const owner = identifier ? (user?.id ?? 0) : null;
      const real = owner === null ? [] : (await rowsOf(owner)).map((row) => ({ id: row.credentialId, transports: row.transports ?? undefined }));
      const allowCredentials = identifier && real.length === 0 ? decoyCredentials(identifier) : real;
      const challenge = randomChallenge();
      const key = clock().randomBytes(16).toString('hex');
      const options = await webauthn().generateAuthenticationOptions({ rpID: rp.rpID, challenge, allowCredentials, userVerification: 'required' });
      await saveChallenge('login', options.challenge, owner, `login:${sha256(key)}`);
      return { key, options };
    },

    /** A passkey sign-in: both factors at once, so the tokens (no TOTP step). */
    async loginVerify(key: string, response: AuthenticationResponseJSON, client: ClientInfo): Promise<{ user: UserRow; tokens: Tokens }> {
      const rp = await relyingParty();
      const row = await takeChallenge(`login:${sha256(key)}`, 'login');
      if (!row) throw failed();
      const passkey = await passkeyByCredentialId(strapi, String(response.id));
      if (!passkey || (row.userId != null && row.userId !== passkey.userId)) throw failed();
      const verification = await verified(() =>
        webauthn().verifyAuthenticationResponse({
          response,
          expectedChallenge: row.challenge,
          expectedOrigin: rp.origins,
          expectedRPID: rp.rpID,
          credential: { id: passkey.credentialId, publicKey: webauthnHelpers().isoBase64URL.toBuffer(passkey.publicKey), counter: Number(passkey.counter) },
          // Both factors at once only when the authenticator verified the user (the UV flag), not just their presence.
          requireUserVerification: true,
        })
      );
      const user = await getService(strapi, 'accounts').findUser(passkey.userId);
      if (!user) throw failed();
      if (user.blocked === true) throw new errors.ApplicationError('Your account has been blocked by an administrator');
      await recordPasskeyUse(strapi, passkey.id, verification.authenticationInfo.newCounter, new Date(clock().now()));
      const config = await getService(strapi, 'settings').get();
      return { user, tokens: await getService(strapi, 'sign-in').complete(user, client, config, 'passkey') };
    },
  };
};

export type PasskeysService = ReturnType<typeof passkeys>;
export default passkeys;
