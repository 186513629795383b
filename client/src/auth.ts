/**
 * Accounts: login and register (with a captcha, or an RSA-encrypted password), e-mail codes, captchas, logout, me;
 * the second step of a login with a second factor (`finishLogin`) and TOTP enrolment (`mfa.*`).
 */
import type { z } from 'zod/v4';
import type * as shapes from '../../server/src/features/accounts/auth.shapes';
import type { publicKey } from '../../server/src/features/crypto/crypto.shapes';
import type * as mfaShapes from '../../server/src/features/accounts/mfa.shapes';
import type { startAuthentication, startRegistration } from '@simplewebauthn/browser';
import { importPublicKey, rsaEncrypt } from './crypto';
import { solvePow, type PowChallenge, type SolvePowOptions } from './pow';
import { json, type Session } from './session';

export type User = z.infer<typeof shapes.user>;
export type AuthResponse = z.infer<typeof shapes.authResponse>;
/** What a login answers for an account with a second factor: pass `mfaToken` and the user's code to `finishLogin`. */
export type MfaChallenge = z.infer<typeof mfaShapes.mfaChallenge>;
export type LoginResult = AuthResponse | MfaChallenge;
export type MfaStatus = z.infer<typeof mfaShapes.mfaStatus>;
export type TotpSetup = z.infer<typeof mfaShapes.totpSetupResponse>;
type RecoveryCodes = z.infer<typeof mfaShapes.recoveryCodesResponse>;
export type Passkey = z.infer<typeof mfaShapes.passkeySummary>;
type PasskeyRegistered = z.infer<typeof mfaShapes.passkeyRegistered>;
type CreationOptions = Parameters<typeof startRegistration>[0]['optionsJSON'];
type RequestOptions = Parameters<typeof startAuthentication>[0]['optionsJSON'];

/** Whether a login needs its second step (`finishLogin`). */
export const isMfaChallenge = (result: LoginResult): result is MfaChallenge => 'mfaRequired' in result && result.mfaRequired === true;

/** Captcha answer: `key` + `code` for an image or proof-of-work captcha, `code` alone for an e-mailed code. */
export type CaptchaAnswer = z.input<typeof shapes.captchaAnswer>;

/** The password in plain text; `encrypt` sends it RSA-encrypted (`encryptedPassword`) instead. */
export interface PasswordInput {
  password: string;
  encrypt?: boolean;
}

/** What an e-mailed code is for; a route takes only codes of its own purpose (none: registration and the login captcha). */
export type CodePurpose = shapes.CodePurpose;

/**
 * Proof that the owner is adding a passkey: the password (or, for an account without one, a code `sendCode` sent for
 * `'add-passkey'`), and with TOTP on `mfaCode` (a current TOTP or a recovery code).
 */
export type PasskeyOwnerInput = (PasswordInput | { code: string }) &
  Omit<z.input<typeof mfaShapes.passkeyRegisterOptionsBody>, 'password' | 'encryptedPassword' | 'code'>;

/** Turning TOTP off: the password and a current TOTP or recovery code (the shape's `mfaCode`, required here). */
export type DisableTotpInput = Omit<z.input<typeof mfaShapes.mfaDisableBody>, 'password' | 'encryptedPassword' | 'mfaCode'> &
  PasswordInput & { mfaCode: string };

export type LoginInput = CaptchaAnswer & Pick<z.input<typeof shapes.loginBody>, 'identifier'> & PasswordInput;
export type RegisterInput = CaptchaAnswer & Pick<z.input<typeof shapes.registerBody>, 'username' | 'email'> & PasswordInput;

export function authCalls(session: Session) {
  const { send, request, storeTokens, clearTokens } = session;
  let key: Promise<CryptoKey> | undefined;

  /** Base64 RSA-OAEP/SHA-256 ciphertext of `password` under the server's public key (fetched once). */
  const encryptPassword = async (password: string): Promise<string> => {
    key ??= send<z.infer<typeof publicKey>>('/api/cms-plugin-bag/utils/rsa/public-key')
      .then(({ publicKey: pem }) => importPublicKey(pem))
      .catch((error: unknown) => {
        key = undefined;
        throw error;
      });
    return rsaEncrypt(await key, password);
  };

  const credentials = async ({ password, encrypt, ...rest }: PasswordInput) =>
    encrypt ? { ...rest, encryptedPassword: await encryptPassword(password) } : { ...rest, password };

  const authenticate = async (path: string, body: Record<string, unknown>): Promise<AuthResponse> => {
    const auth = await send<AuthResponse>(path, json('POST', body));
    await storeTokens(auth);
    return auth;
  };

  /** A sign-in that may answer the second-factor challenge: tokens are stored only when there are some. */
  const signIn = async (path: string, body: Record<string, unknown>): Promise<LoginResult> => {
    const result = await send<LoginResult>(path, json('POST', body));
    if (!isMfaChallenge(result)) await storeTokens(result);
    return result;
  };

  const post = <T>(path: string, body: Record<string, unknown>) => request<T>(`/api/cms-plugin-bag/auth${path}`, json('POST', body));

  /** A new proof-of-work challenge; `solvePow(challenge)` turns it into `{ key, code }`. */
  const getPowChallenge = () => send<PowChallenge>('/api/cms-plugin-bag/auth/captcha-pow');

  return {
    encryptPassword,

    /**
     * Logs in and stores the jwt and the refresh token; for an account with a second factor it answers the challenge
     * instead (`isMfaChallenge`), and `finishLogin` stores the tokens.
     */
    login: async (input: LoginInput) => signIn('/api/cms-plugin-bag/auth/login', await credentials(input)),

    /** The second step of a login: the challenge's `mfaToken` and a TOTP or recovery code; stores the tokens. */
    finishLogin: (mfaToken: string, code: string) => authenticate('/api/cms-plugin-bag/auth/login/mfa', { mfaToken, code }),

    /** The signed-in account's second factors. */
    mfa: {
      status: () => request<MfaStatus>('/api/cms-plugin-bag/auth/mfa'),
      /** Starts TOTP enrolment (password re-check): show `qrSvg`, then `enable` with the app's code. */
      setup: async (input: PasswordInput) => post<TotpSetup>('/mfa/totp/setup', await credentials(input)),
      /** Turns TOTP on; answers the recovery codes, shown only here. */
      enable: (code: string) => post<RecoveryCodes>('/mfa/totp/enable', { code }),
      /** A new set of recovery codes; the old ones stop working. */
      recoveryCodes: (mfaCode: string) => post<RecoveryCodes>('/mfa/recovery-codes', { mfaCode }),
      disable: async (input: DisableTotpInput) => post<{ message: string }>('/mfa/disable', await credentials(input)),
    },

    /** Passkeys, through the browser's WebAuthn API (`@simplewebauthn/browser`). */
    passkeys: {
      /**
       * Creates a passkey on this device for the signed-in account and registers it: the server first checks the
       * owner (`owner`: password or e-mailed code, and the second factor), then the browser asks the user (PIN or
       * biometrics: the passkey will be both factors).
       */
      register: async (owner: PasskeyOwnerInput, name?: string): Promise<PasskeyRegistered> => {
        const { mfaCode, ...proof } = owner;
        const reauth = 'code' in proof ? { code: proof.code } : await credentials(proof);
        const optionsJSON = await post<CreationOptions>('/passkeys/register/options', { ...reauth, ...(mfaCode ? { mfaCode } : {}) });
        // Loaded only when a passkey is used: pages of a site that never touch passkeys never load the library.
        const { startRegistration } = await import('@simplewebauthn/browser');
        const response = await startRegistration({ optionsJSON });
        return post<PasskeyRegistered>('/passkeys/register/verify', { response, ...(name ? { name } : {}) });
      },
      list: async (): Promise<Passkey[]> => (await request<{ data: Passkey[] }>('/api/cms-plugin-bag/auth/passkeys')).data,
      /** A new name for one of the account's passkeys (1 to 100 characters); answers the passkey as `list` does. */
      rename: (id: string, name: string) =>
        request<Passkey>(`/api/cms-plugin-bag/auth/passkeys/${encodeURIComponent(id)}`, json('PUT', { name })),
      remove: (id: string) =>
        request<{ message: string }>(`/api/cms-plugin-bag/auth/passkeys/${encodeURIComponent(id)}`, { method: 'DELETE' }),
      /**
       * Signs in with a passkey (both factors: no second step) and stores the tokens. Without `identifier` the browser
       * offers the passkeys it holds for this site (discoverable credentials).
       */
      login: async (identifier?: string): Promise<AuthResponse> => {
        const { key, options } = await send<{ key: string; options: RequestOptions }>(
          '/api/cms-plugin-bag/auth/passkeys/login/options',
          json('POST', identifier ? { identifier } : {}),
        );
        const { startAuthentication } = await import('@simplewebauthn/browser');
        const response = await startAuthentication({ optionsJSON: options });
        return authenticate('/api/cms-plugin-bag/auth/passkeys/login/verify', { key, response });
      },
    },

    /** Registers, logs in and stores the tokens. */
    register: async (input: RegisterInput) => authenticate('/api/cms-plugin-bag/auth/register', await credentials(input)),

    /**
     * Sends a 6-digit code to the e-mail address for `purpose` (the mail names it; only that action accepts the code);
     * without one the code serves registration and the login captcha. `expiresIn` is in seconds.
     */
    sendCode: (identifier: string, purpose?: CodePurpose) =>
      send<z.infer<typeof shapes.sendCodeResponse>>('/api/cms-plugin-bag/auth/send-code', json('POST', { identifier, ...(purpose ? { purpose } : {}) })),

    /**
     * Which captcha kinds `login` and `register` take now (`[]`: none): `image` (`getCaptcha`), `pow` (`powCaptcha`),
     * `email` (`sendCode`); any one of the listed kinds is accepted.
     */
    captchaKinds: () => send<z.infer<typeof shapes.captchaKinds>>('/api/cms-plugin-bag/auth/captcha'),

    /** A new image captcha: show `svg`, send back `key` and what the user read as `code`. */
    getCaptcha: () => send<z.infer<typeof shapes.captchaImage>>('/api/cms-plugin-bag/auth/captcha-image'),

    getPowChallenge,

    /** Fetches a proof-of-work challenge and solves it: spread the result into `login` or `register`. */
    powCaptcha: async (options?: SolvePowOptions) => solvePow(await getPowChallenge(), options),

    /** Revokes the refresh token on the server and clears the stored tokens (also when the server call fails). */
    logout: async (): Promise<void> => {
      const refreshToken = await session.refreshToken();
      try {
        if (refreshToken) await send('/api/cms-plugin-bag/auth/logout', json('POST', { refreshToken }));
      } finally {
        await clearTokens();
      }
    },

    /** The logged-in user. */
    me: () => request<User>('/api/cms-plugin-bag/auth/me'),

    /** Whether a jwt is stored (it may have expired; the next request refreshes it). */
    isLoggedIn: session.hasJwt,
  };
}
