/**
 * The account's own calls: password reset and login by e-mailed code, e-mail change, sessions, deleting and exporting
 * the account (docs/accounts.md#your-own-account).
 */
import type { z } from 'zod/v4';
import type * as shapes from '../../server/src/features/accounts/account.shapes';
import { isMfaChallenge, type LoginResult, type PasswordInput, type User } from './auth';
import { json, type Session } from './session';

export type AccountSession = z.infer<typeof shapes.session>;
export type AccountExport = z.infer<typeof shapes.accountExport>;
type Message = z.infer<typeof shapes.messageResponse>;

/** A route's body as the server's shape takes it, with `PasswordInput` in place of `password` / `encryptedPassword`. */
type WithPassword<Body> = Omit<Body, 'password' | 'encryptedPassword'> & PasswordInput;

/** `identifier`: the e-mail address `sendCode` sent the code to. */
export type ResetPasswordInput = WithPassword<z.input<typeof shapes.resetPasswordBody>>;

/** `email`: the new address, where the code goes; `mfaCode`: with TOTP on, a current TOTP or recovery code. */
export type ChangeEmailInput = WithPassword<z.input<typeof shapes.emailChangeBody>>;

/**
 * Re-authentication to delete the account: the password, or an e-mail code sent to the account's address; with TOTP
 * on also `mfaCode` (a current TOTP or recovery code).
 */
export type DeleteAccountInput = (PasswordInput | { code: string }) &
  Omit<z.input<typeof shapes.deleteAccountBody>, 'password' | 'encryptedPassword' | 'code'>;

export function accountCalls(session: Session, encryptPassword: (password: string) => Promise<string>) {
  const { send, request, storeTokens, clearTokens } = session;
  const base = '/api/cms-plugin-bag/auth';

  const credentials = async <T extends PasswordInput>({ password, encrypt, ...rest }: T) =>
    encrypt ? { ...rest, encryptedPassword: await encryptPassword(password) } : { ...rest, password };

  return {
    /** Sets a new password with a code `sendCode` sent to the address; every session ends, no token is returned. */
    resetPassword: async (input: ResetPasswordInput) => send<Message>(`${base}/reset-password`, json('POST', await credentials(input))),

    /**
     * Logs in with an e-mailed code alone (when the site allows it) and stores the tokens; for an account with a second
     * factor it answers the challenge instead (`isMfaChallenge`), and `finishLogin` stores the tokens.
     */
    loginWithCode: async (identifier: string, code: string): Promise<LoginResult> => {
      const result = await send<LoginResult>(`${base}/login-code`, json('POST', { identifier, code }));
      if (!isMfaChallenge(result)) await storeTokens(result);
      return result;
    },

    /** Asks to change the account's address: a code goes to the new one (`expiresIn` seconds); nothing changes yet. */
    changeEmail: async (input: ChangeEmailInput) =>
      request<z.infer<typeof shapes.emailChangeResponse>>(`${base}/email`, json('POST', await credentials(input))),

    /** Confirms the change with the code the new address got; the old address is told, with a link to undo it. */
    confirmEmailChange: (code: string) => request<User>(`${base}/email/confirm`, json('POST', { code })),

    /** The account's live sessions, newest first; `current` is this client's. */
    sessions: async (): Promise<AccountSession[]> => (await request<z.infer<typeof shapes.sessionsResponse>>(`${base}/sessions`)).data,

    /** Ends one session (its refresh token no longer works). */
    revokeSession: (id: number) => request<Message>(`${base}/sessions/${encodeURIComponent(String(id))}`, { method: 'DELETE' }),

    /** Ends every session but this client's. */
    revokeOtherSessions: () => request<z.infer<typeof shapes.revokeOthersResponse>>(`${base}/sessions`, { method: 'DELETE' }),

    /** Deletes the account and clears the stored tokens. */
    deleteAccount: async (input: DeleteAccountInput): Promise<Message> => {
      const { mfaCode, ...proof } = input;
      const reauth = 'code' in proof ? { code: proof.code } : await credentials(proof);
      const body = { ...reauth, ...(mfaCode ? { mfaCode } : {}) };
      const answer = await request<Message>(`${base}/me`, json('DELETE', body));
      await clearTokens();
      return answer;
    },

    /** Everything the site keeps about the account, as the JSON the server sends as a download. */
    exportAccount: () => request<AccountExport>(`${base}/me/export`),
  };
}
