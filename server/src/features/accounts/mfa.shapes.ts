/** Shapes of `/api/cms-plugin-bag/auth/mfa/…` and `/auth/login/mfa`: TOTP enrolment, recovery codes, the login challenge. */
import { z } from 'zod/v4';
import { lazyShape } from '../../platform/shapes/lazy';
import { jsonBody } from '../../platform/route-types';
import { authResponse, passwordFields, requiredText, user } from './auth.shapes';
import { BODY_NOT_OBJECT, REQUIRED, atLeast, required, string, text } from '../../platform/shapes/fields';

const body = <T extends z.ZodRawShape>(fields: T) => z.object(fields, { error: BODY_NOT_OBJECT });

/** A 6-digit TOTP code or a recovery code (`xxxxx-xxxxx`). */
const code = () => text(64).min(1, atLeast(1)).refine(required, REQUIRED);

export const totpSetupBody = lazyShape(() => body({ ...passwordFields }));
export const totpSetupResponse = lazyShape(() => z.object({
  secret: z.string().describe('base32'),
  otpauthUrl: z.string().describe('`otpauth://totp/<issuer>:<email>?secret=…&issuer=…&algorithm=SHA1&digits=6&period=30`'),
  qrSvg: z.string().describe('`<svg …>` QR code of `otpauthUrl`'),
}));

export const totpEnableBody = lazyShape(() => body({ code: code() }));
/** Ten single-use codes, shown only in this answer. */
export const recoveryCodesResponse = lazyShape(() => z.object({ recoveryCodes: z.array(z.string()) }));

/** An empty `mfaCode` counts as absent (`Two-factor code required` when TOTP is on). */
const mfaCode = () => text(64).optional();
export const mfaCodeBody = lazyShape(() => body({ mfaCode: mfaCode() }));
export const mfaDisableBody = lazyShape(() => body({ ...passwordFields, mfaCode: mfaCode() }));
export const mfaMessage = lazyShape(() => z.object({ message: z.string() }));

export const passkeySummary = lazyShape(() => z.object({ id: z.string(), name: z.string(), createdAt: z.string(), lastUsedAt: z.string().nullable() }));
export const mfaStatus = lazyShape(() => z.object({ totp: z.boolean(), recoveryCodesLeft: z.number().int(), passkeys: z.array(passkeySummary) }));

/** What a sign-in by a first factor answers for an account with a second factor: no token. */
export const mfaChallenge = lazyShape(() => z.object({
  mfaRequired: z.literal(true),
  mfaToken: z.string(),
  methods: z.array(z.enum(['totp', 'recovery'])),
}));
/** `/auth/login` (and every first-factor sign-in): the tokens, or the challenge. */
export const loginResponse = lazyShape(() => z.union([authResponse, mfaChallenge]));

/** Any string reaches the challenge's lookup (one not issued, or too long to be, is `Invalid or expired two-factor session`). */
export const finishLoginBody = lazyShape(() =>
  body({ mfaToken: string().refine(required, REQUIRED).describe('the `mfaToken` of the sign-in\'s first step'), code: code() }),
);
export const finishLoginResponse = lazyShape(() => z.object({ jwt: z.string(), refreshToken: z.string(), user }));

export type MfaChallenge = z.output<typeof mfaChallenge>;
export type PasskeyOwnerInput = z.output<typeof passkeyRegisterOptionsBody>;

/** A WebAuthn credential as the browser's `PublicKeyCredential.toJSON()` (and `@simplewebauthn/browser`) gives it. */
const credentialJson = lazyShape(() => z
  .object(
    {
      id: text(1024).min(1, atLeast(1)),
      rawId: text(1024).min(1, atLeast(1)),
      type: z.literal('public-key'),
      response: z.record(z.string(), z.unknown()),
      clientExtensionResults: z.record(z.string(), z.unknown()).optional(),
    },
    { error: 'must be a PublicKeyCredential in its JSON form' },
  )
  .catchall(z.unknown()));

/** WebAuthn's JSON option objects, as `@simplewebauthn/server` writes them (base64url strings). */
const webauthnOptions = lazyShape(() => z.object({ challenge: z.string() }).catchall(z.unknown()));

/**
 * The owner before a passkey is added: the password, or an e-mail code sent for `add-passkey` (an account without a
 * password), and with TOTP on a current TOTP or recovery code.
 */
export const passkeyRegisterOptionsBody = lazyShape(() => body({ ...passwordFields, code: requiredText().max(32).optional(), mfaCode: mfaCode() }));
export const passkeyRegisterOptionsResponse = lazyShape(() => webauthnOptions.describe('PublicKeyCredentialCreationOptionsJSON'));
export const passkeyRegisterBody = lazyShape(() => body({ response: credentialJson, name: text(100).optional() }));
export const passkeyRegistered = lazyShape(() => z.object({ id: z.string(), name: z.string(), createdAt: z.string() }));
export const passkeyParams = lazyShape(() => ({ id: z.string().describe('the id `GET /auth/passkeys` lists') }));
/** A passkey's new name (docs/accounts.md#passkeys): 1 to 100 characters once trimmed. */
export const passkeyRenameBody = lazyShape(() => body({ name: text(100).refine((value) => value.trim() !== '', REQUIRED) }));
export const passkeyList = lazyShape(() => z.object({ data: z.array(passkeySummary) }));
export const passkeyLoginOptionsBody = lazyShape(() => body({ identifier: text().optional() }));
export const passkeyLoginOptionsResponse = lazyShape(() => z.object({ key: z.string(), options: webauthnOptions.describe('PublicKeyCredentialRequestOptionsJSON') }));
export const passkeyLoginBody = lazyShape(() => body({ key: text(64).min(1, atLeast(1)).refine(required, REQUIRED), response: credentialJson }));

// The requests of the second-factor and passkey routes: every issue named (platform/shapes/parse.ts).
export const totpSetupRequest = jsonBody(totpSetupBody);
export const totpEnableRequest = jsonBody(totpEnableBody);
export const mfaCodeRequest = jsonBody(mfaCodeBody);
export const mfaDisableRequest = jsonBody(mfaDisableBody);
export const finishLoginRequest = jsonBody(finishLoginBody);
export const passkeyRegisterOptionsRequest = jsonBody(passkeyRegisterOptionsBody);
export const passkeyRegisterRequest = jsonBody(passkeyRegisterBody);
export const passkeyRemoveRequest = { params: passkeyParams };
export const passkeyRenameRequest = { params: passkeyParams, ...jsonBody(passkeyRenameBody) };
export const passkeyLoginOptionsRequest = jsonBody(passkeyLoginOptionsBody);
export const passkeyLoginRequest = jsonBody(passkeyLoginBody);
