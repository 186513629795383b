/**
 * The one description of the plugin's configuration: its TypeScript type, its defaults and its validation.
 * Durations are accepted as seconds or as strings such as '90s', '15m', '1h', '30d' and come out as seconds.
 */
import crypto from 'crypto';
import { z } from 'zod';

const UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };
const DURATION_PATTERN = /^(\d+)\s*(s|m|h|d)?$/;

/** Seconds in a duration written as a number of seconds or as '90s', '15m', '1h', '30d'. */
export const toSeconds = (value: number | string): number => {
  if (typeof value === 'number') return value;
  const match = DURATION_PATTERN.exec(value.trim());
  if (!match) throw new Error(`invalid duration ${value}`);
  return Number(match[1]) * UNITS[match[2] ?? 's'];
};

const duration = (fallback: string) =>
  z
    .union([z.number().int().positive(), z.string().regex(DURATION_PATTERN, 'must be a duration such as 90s, 15m, 1h or 30d')])
    .default(fallback)
    .transform(toSeconds)
    .refine((seconds) => seconds > 0, 'must be longer than 0 seconds');

/** A duration that may be 0 (switched off), such as the HTTP cache lifetimes. */
const durationOrZero = (fallback: number) =>
  z
    .union([z.number().int().min(0), z.string().regex(DURATION_PATTERN, 'must be a duration such as 90s, 15m, 1h or 30d')])
    .default(fallback)
    .transform(toSeconds);

const MIN_RSA_BITS = 2048;

/** A configured RSA key must parse and be RSA of at least 2048 bits; checked here so Strapi refuses to start. */
const checkRsaPrivateKey = (pem: string, ctx: z.RefinementCtx) => {
  let key: crypto.KeyObject;
  try {
    key = crypto.createPrivateKey(pem);
  } catch {
    ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'is not a valid PEM private key' });
    return;
  }
  if (key.asymmetricKeyType !== 'rsa' || (key.asymmetricKeyDetails?.modulusLength ?? 0) < MIN_RSA_BITS) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, message: `must be an RSA private key of at least ${MIN_RSA_BITS} bits` });
  }
};

export const CAPTCHA_TYPES = ['image', 'pow', 'email', 'any'] as const;
const captchaType = z.enum(CAPTCHA_TYPES, {
  errorMap: () => ({ message: `must be one of ${CAPTCHA_TYPES.join(', ')}` }),
});

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
const escalationType = z.enum(ESCALATION_TYPES, {
  errorMap: () => ({ message: `must be one of ${ESCALATION_TYPES.join(', ')}` }),
});

const captchaSwitch = (enabled: boolean, type: 'image' | 'email') =>
  z.object({ enabled: z.boolean().default(enabled), type: captchaType.default(type) }).strict().default({});

const limit = (interval: string, max: number) =>
  z.object({ interval: duration(interval), max: z.number().int().positive().default(max) }).strict().default({});

export const configSchema = z
  .object({
    login: z
      .object({
        captcha: captchaSwitch(false, 'image'),
        escalation: z.object({ type: escalationType.default('email') }).strict().default({}),
      })
      .strict()
      .default({}),
    register: z.object({ captcha: captchaSwitch(true, 'email') }).strict().default({}),
    auth: z
      .object({
        accessToken: z.object({ expiresIn: duration('1h') }).strict().default({}),
        refreshToken: z.object({ expiresIn: duration('30d') }).strict().default({}),
        requireEncryptedPassword: z.boolean().default(false),
        hostRoutes: z
          .enum(['guarded', 'open'], { errorMap: () => ({ message: 'must be one of guarded, open' }) })
          .default('guarded'),
      })
      .strict()
      .default({}),
    captcha: z
      .object({
        image: z
          .object({
            expiresIn: duration('5m'),
            size: z.number().int().min(4).max(8).default(4),
          })
          .strict()
          .default({}),
        pow: z
          .object({
            difficulty: z.number().int().min(1).max(32).default(POW_DIFFICULTY),
            expiresIn: duration('5m'),
          })
          .strict()
          .default({}),
        email: z
          .object({
            expiresIn: duration('10m'),
            resendInterval: duration('60s'),
            maxAttempts: z.number().int().positive().default(5),
            subject: z.string().min(1).default('Your verification code'),
          })
          .strict()
          .default({}),
      })
      .strict()
      .default({}),
    crypto: z
      .object({
        rsa: z.object({ privateKey: z.string().min(1).superRefine(checkRsaPrivateKey).optional() }).strict().default({}),
        aes: z.object({ secret: z.string().min(1).optional() }).strict().default({}),
      })
      .strict()
      .default({}),
    content: z
      .object({
        /** Relation hops allowed in `populate`, `filters` and `sort` of the public lists (services/content/query-shape.ts). */
        maxRelationDepth: z.number().int().min(1).max(10).default(2),
        /** Whether a to-many relation may follow another relation there (`tags.articles`, `category.articles`). */
        nestedToMany: z.boolean().default(false),
        /**
         * A detail (`/articles/:slug`, `/pages/:slug`, `/menus/:slug`) whose slug the requested locale does not have
         * is looked up in the default locale (its `locale` says so). Lists never fall back.
         */
        localeFallback: z.boolean().default(false),
      })
      .strict()
      .default({}),
    comments: z
      .object({
        autoApprove: z.boolean().default(false),
        maxLength: z.number().int().positive().default(5000),
        /** Paged threads: `GET /bag/articles/:id/comments?pagination[pageSize]=…` and `/bag/comments/:id/replies`. */
        thread: z
          .object({
            pageSize: z.number().int().min(1).max(100).default(20),
            maxPageSize: z.number().int().min(1).max(500).default(100),
            /** Replies shown under each root of a page; the rest come from `/bag/comments/:id/replies`. */
            replies: z.number().int().min(0).max(50).default(3),
          })
          .strict()
          .default({}),
        reactions: z
          .object({
            enabled: z.boolean().default(true),
            /** Guests like by IP (IPv6 by /64); users by account. Guests are rate limited by `rateLimit.reaction`. */
            guests: z.boolean().default(true),
          })
          .strict()
          .default({}),
        reports: z
          .object({
            enabled: z.boolean().default(true),
            /**
             * Off by default: `threshold` guest reports hide a comment, and a guest is only an address, so anyone with a
             * few addresses could hide any comment. Users report by account.
             */
            guests: z.boolean().default(false),
            reasons: z.array(z.string().min(1).max(64)).min(1).default(['spam', 'abuse', 'off-topic', 'other']),
            /** Reports after which an approved comment goes back to `pending`. */
            threshold: z.number().int().min(1).default(3),
          })
          .strict()
          .default({}),
        notifications: z
          .object({
            /** E-mail the parent's author when a reply to their comment is approved. */
            replies: z.boolean().default(false),
            /** Digest of the pending queue to these addresses, at most once per `interval`. */
            moderators: z
              .object({
                emails: z.array(z.string().email()).default([]),
                interval: duration('1h'),
                /** Pending comments the queue must hold before a digest goes out. */
                minPending: z.number().int().min(1).default(1),
              })
              .strict()
              .default({}),
            /** Public origin for the unsubscribe link, e.g. https://cms.example.com; defaults to the host's own URL (domain/server-url.ts). */
            publicUrl: z.string().url().optional(),
            /**
             * HMAC secret for unsubscribe links; when not set, derived from the users-permissions jwtSecret, the key
             * of the plugin's other keyed hashes (utils/secret-hash.ts), not from the app keys.
             */
            secret: z.string().min(16).optional(),
            /** Lifetime of an unsubscribe link, from the mail's sending. */
            unsubscribeExpiresIn: duration('60d'),
            subject: z
              .object({
                reply: z.string().min(1).default('New reply to your comment'),
                digest: z.string().min(1).default('Comments waiting for moderation'),
              })
              .strict()
              .default({}),
          })
          .strict()
          .default({}),
      })
      .strict()
      .default({}),
    site: z
      .object({
        /** The public front end's origin; feeds and sitemap answer 503 `Site URL is not configured` while unset. */
        url: z.string().url().optional(),
        title: z.string().default(''),
        description: z.string().default(''),
        /** Front-end paths of documents; `{slug}` and `{locale}` are replaced. */
        paths: z
          .object({
            article: z.string().min(1).default('/articles/{slug}'),
            page: z.string().min(1).default('/{slug}'),
            category: z.string().min(1).default('/categories/{slug}'),
            tag: z.string().min(1).default('/tags/{slug}'),
          })
          .strict()
          .default({}),
      })
      .strict()
      .default({}),
    feeds: z
      .object({ size: z.number().int().min(1).max(100).default(20) })
      .strict()
      .default({}),
    sitemap: z
      .object({ pageSize: z.number().int().min(1).max(50000).default(50000) })
      .strict()
      .default({}),
    cache: z
      .object({
        /** The server-side cache of anonymous GET responses under /api/bag (CONTRACT §8). */
        enabled: z.boolean().default(true),
        /** Memory bound per process, in bytes of cached bodies and keys; least recently used entries go first. */
        maxBytes: z.number().int().min(0).default(64 * 1024 * 1024),
        /** `Cache-Control` of anonymous responses (seconds); all 0 → `public, no-cache`. */
        http: z
          .object({ maxAge: durationOrZero(0), sMaxAge: durationOrZero(0), staleWhileRevalidate: durationOrZero(0) })
          .strict()
          .default({}),
      })
      .strict()
      .default({}),
    rateLimit: z
      .object({
        enabled: z.boolean().default(true),
        login: limit('1m', 10),
        register: limit('1m', 10),
        sendCode: limit('1h', 20),
        captchaImage: limit('1m', 30),
        refreshToken: limit('1m', 60),
        comment: limit('1m', 5),
        reaction: limit('1m', 30),
        report: limit('1h', 10),
        purgeInterval: duration('10m'),
      })
      .strict()
      .default({}),
  })
  .strict();

/** The configuration as given in config/plugins.ts. */
export type PluginConfigInput = z.input<typeof configSchema>;
/** The configuration as services see it: defaults applied, durations in seconds. */
export type PluginConfig = z.output<typeof configSchema>;
export type CaptchaType = z.infer<typeof captchaType>;
export type EscalationType = z.infer<typeof escalationType>;
export type RateLimitName = keyof Omit<PluginConfig['rateLimit'], 'enabled' | 'purgeInterval'>;

const describeIssue = (issue: z.ZodIssue): string => {
  const key = issue.path.join('.');
  if (issue.code === 'unrecognized_keys') {
    const keys = issue.keys.map((k) => (key ? `${key}.${k}` : k));
    return `unknown key ${keys.join(', ')}`;
  }
  if (issue.code === 'invalid_type') return `${key} must be a ${issue.expected}, got ${issue.received}`;
  return `${key} ${issue.message.charAt(0).toLowerCase()}${issue.message.slice(1)}`;
};

/** Parses a configuration and throws an Error naming the first bad key, so Strapi refuses to start. */
export const parseConfig = (input: unknown): PluginConfig => {
  const result = configSchema.safeParse(input ?? {});
  if (!result.success) {
    throw new Error(`cms-plugin-bag: ${result.error.issues.map(describeIssue).join('; ')}`);
  }
  return result.data;
};
