/**
 * The sections of accounts and their defences: login and registration captchas, tokens, account features (passwordless
 * sign-in, e-mail change, deletion, second factors, passkeys), the captchas themselves and the crypto keys.
 */
import crypto from 'crypto';
import { z } from 'zod/v4';
import { captchaSwitch, duration, section } from './fields';

const MIN_RSA_BITS = 2048;

/** A configured RSA key must parse and be RSA of at least 2048 bits; checked here so Strapi refuses to start. */
const checkRsaPrivateKey = (pem: string, ctx: z.RefinementCtx<string>) => {
  let key: crypto.KeyObject;
  try {
    key = crypto.createPrivateKey(pem);
  } catch {
    ctx.addIssue({ code: 'custom', message: 'is not a valid PEM private key' });
    return;
  }
  if (key.asymmetricKeyType !== 'rsa' || (key.asymmetricKeyDetails?.modulusLength ?? 0) < MIN_RSA_BITS) {
    ctx.addIssue({ code: 'custom', message: `must be an RSA private key of at least ${MIN_RSA_BITS} bits` });
  }
};

/**
 * Leading zero bits a proof-of-work solution needs: 2^16 SHA-256 tries on average, which the client's WebCrypto
 * solver does in about 0.3 s in Chromium and 0.5 s in Node 20 (median 0.2 s / 0.4 s, `bench/pow-solve.mjs`). WebCrypto
 * pays a call per hash, so each further bit doubles that; 18 bits would already take over a second on average.
 */
const POW_DIFFICULTY = 16;

/**
 * What lifts a failed-login escalation (`login.escalation.type`): an e-mail code to the account's address, an image
 * captcha, or either (`any`). Never a proof of work: a script pays for that with CPU alone.
 */
export const ESCALATION_TYPES = ['email', 'image', 'any'] as const;
export const escalationType = z.enum(ESCALATION_TYPES, { error: `must be one of ${ESCALATION_TYPES.join(', ')}` });

export const accountSections = {
  login: section({
    captcha: captchaSwitch(false, 'image'),
    escalation: section({ type: escalationType.default('email') }),
  }),
  register: section({ captcha: captchaSwitch(true, 'email') }),
  auth: section({
    accessToken: section({ expiresIn: duration('1h') }),
    refreshToken: section({ expiresIn: duration('30d') }),
    requireEncryptedPassword: z.boolean().default(false),
    hostRoutes: z.enum(['guarded', 'open'], { error: 'must be one of guarded, open' }).default('guarded'),
  }),
  account: section({
    passwordless: section({ enabled: z.boolean().default(false) }),
    emailChange: section({ revertWindow: duration('7d') }),
    deletion: section({
      enabled: z.boolean().default(true),
      comments: z.enum(['anonymize', 'delete'], { error: 'must be one of anonymize, delete' }).default('anonymize'),
    }),
    signInAlerts: z.boolean().default(true),
    mfa: section({
      enabled: z.boolean().default(true),
      /** The name authenticator apps show; unset: `site.title`, else 'Strapi'. */
      issuer: z.string().min(1).max(100).optional(),
    }),
    passkeys: section({
      /** WebAuthn relying party id; unset: the host name of `site.url`. */
      rpId: z.string().min(1).max(253).optional(),
      /** Origins accepted in a passkey's client data; unset: `site.url`'s origin. */
      origins: z.array(z.string().url()).optional(),
    }),
  }),
  captcha: section({
    image: section({
      expiresIn: duration('5m'),
      size: z.number().int().min(4).max(8).default(4),
    }),
    pow: section({
      difficulty: z.number().int().min(1).max(32).default(POW_DIFFICULTY),
      expiresIn: duration('5m'),
    }),
    email: section({
      expiresIn: duration('10m'),
      resendInterval: duration('60s'),
      maxAttempts: z.number().int().positive().default(5),
      subject: z.string().min(1).default('Your verification code'),
    }),
  }),
  crypto: section({
    rsa: section({ privateKey: z.string().min(1).superRefine(checkRsaPrivateKey).optional() }),
    aes: section({ secret: z.string().min(1).optional() }),
  }),
};
