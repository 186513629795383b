/** Accounts: login and register (with a captcha, or an RSA-encrypted password), e-mail codes, captchas, logout, me. */
import type { z } from 'zod/v4';
import type * as shapes from '../../server/src/domain/shapes/auth';
import type { publicKey } from '../../server/src/domain/shapes/crypto';
import { importPublicKey, rsaEncrypt } from './crypto';
import { solvePow, type PowChallenge, type SolvePowOptions } from './pow';
import { json, type Session } from './session';

export type User = z.infer<typeof shapes.user>;
export type AuthResponse = z.infer<typeof shapes.authResponse>;

/** Captcha answer: `key` + `code` for an image or proof-of-work captcha, `code` alone for an e-mailed code. */
export type CaptchaAnswer = z.input<typeof shapes.captchaAnswer>;

/** The password in plain text; `encrypt` sends it RSA-encrypted (`encryptedPassword`) instead. */
interface PasswordInput {
  password: string;
  encrypt?: boolean;
}

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

  /** A new proof-of-work challenge; `solvePow(challenge)` turns it into `{ key, code }`. */
  const getPowChallenge = () => send<PowChallenge>('/api/cms-plugin-bag/auth/captcha-pow');

  return {
    encryptPassword,

    /** Logs in and stores the jwt and the refresh token. */
    login: async (input: LoginInput) => authenticate('/api/cms-plugin-bag/auth/login', await credentials(input)),

    /** Registers, logs in and stores the tokens. */
    register: async (input: RegisterInput) => authenticate('/api/cms-plugin-bag/auth/register', await credentials(input)),

    /** Sends a 6-digit code to the e-mail address; `expiresIn` is in seconds. */
    sendCode: (identifier: string) =>
      send<z.infer<typeof shapes.sendCodeResponse>>('/api/cms-plugin-bag/auth/send-code', json('POST', { identifier })),

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
