/** Shapes of the admin settings route (`/cms-plugin-bag/settings`): the configuration keys an administrator may change, which the configuration schema's fields share. */
import { z } from 'zod/v4';
import { lazyShape } from '../shapes/lazy';
import { checkedElsewhere } from '../shapes/fields';
import { jsonBody } from '../route-types';

export const CAPTCHA_TYPES = ['image', 'pow', 'email', 'any'] as const;
export const captchaType = lazyShape(() => z.enum(CAPTCHA_TYPES, { error: `must be one of ${CAPTCHA_TYPES.join(', ')}` }));

/** A duration as written in the settings: seconds, or a number with a unit, such as '90s', '15m', '1h' or '30d'. */
export const DURATION_PATTERN = /^(\d+)\s*(s|m|h|d)?$/;
export const durationInput = lazyShape(() => z.union([
  z.number().int().positive(),
  z.string().regex(DURATION_PATTERN, 'must be a duration such as 90s, 15m, 1h or 30d'),
]));

const captcha = lazyShape(() => z.strictObject({ enabled: z.boolean(), type: captchaType }));

const ruleWords = lazyShape(() => z.array(z.string().trim().min(1, 'must not contain empty words').max(100, 'must contain words of at most 100 characters')).max(1000));

/** `comments.moderation`: what a comment's text must not or may only with a moderator's look contain. */
export const moderationRules = lazyShape(() => z.strictObject({
  blockedWords: ruleWords,
  holdWords: ruleWords,
  maxLinks: z.number().int().min(0),
  trustApproved: z.boolean(),
}));

/** The configuration keys an administrator may change without a restart; durations in seconds. */
export const adminSettings = lazyShape(() => z.strictObject({
  login: z.strictObject({ captcha }),
  register: z.strictObject({ captcha }),
  auth: z.strictObject({ refreshToken: z.strictObject({ expiresIn: z.number() }), requireEncryptedPassword: z.boolean() }),
  comments: z.strictObject({ autoApprove: z.boolean(), moderation: moderationRules }),
  account: z.strictObject({
    passwordless: z.strictObject({ enabled: z.boolean() }),
    deletion: z.strictObject({ enabled: z.boolean() }),
    signInAlerts: z.boolean(),
    mfa: z.strictObject({ enabled: z.boolean() }),
  }),
  newsletters: z.strictObject({ enabled: z.boolean(), doubleOptIn: z.boolean() }),
}));

/** Only the given keys change (any other key is refused); a duration may be a number of seconds or a string such as '30d'. */
export const settingsBody = lazyShape(() => z
  .strictObject({
    login: z.strictObject({ captcha: captcha.partial() }).partial(),
    register: z.strictObject({ captcha: captcha.partial() }).partial(),
    auth: z.strictObject({ refreshToken: z.strictObject({ expiresIn: durationInput }).partial(), requireEncryptedPassword: z.boolean() }).partial(),
    comments: z.strictObject({ autoApprove: z.boolean(), moderation: moderationRules.partial() }).partial(),
    account: z
      .strictObject({
        passwordless: z.strictObject({ enabled: z.boolean() }).partial(),
        deletion: z.strictObject({ enabled: z.boolean() }).partial(),
        signInAlerts: z.boolean(),
        mfa: z.strictObject({ enabled: z.boolean() }).partial(),
      })
      .partial(),
    newsletters: z.strictObject({ enabled: z.boolean(), doubleOptIn: z.boolean() }).partial(),
  })
  .partial());

/** The key material is described, never sent. */
export const keyMaterial = lazyShape(() => z.object({
  rsaPrivateKeyConfigured: z.boolean(),
  aesSecretConfigured: z.boolean(),
  publicKeyFingerprint: z.string(),
}));

export const settingsResponse = lazyShape(() => z.object({
  data: z.object({
    settings: adminSettings,
    defaults: adminSettings,
    overrides: z.record(z.string(), z.unknown()),
    crypto: keyMaterial,
  }),
}));

/** The update's body is checked by the settings store (platform/settings.ts), with its wording. */
export const settingsUpdateRequest = jsonBody(checkedElsewhere(settingsBody));
