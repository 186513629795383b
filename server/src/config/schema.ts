/**
 * The one description of the plugin's configuration: its TypeScript type, its defaults and its validation.
 * Durations are accepted as seconds or as strings such as '90s', '15m', '1h', '30d' and come out as seconds.
 */
import crypto from 'crypto';
import { z } from 'zod/v4';
import { DURATION_PATTERN, captchaType, durationInput } from '../domain/shapes/admin';

const UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };

/** Seconds in a duration written as a number of seconds or as '90s', '15m', '1h', '30d'. */
export const toSeconds = (value: number | string): number => {
  if (typeof value === 'number') return value;
  const match = DURATION_PATTERN.exec(value.trim());
  if (!match) throw new Error(`invalid duration ${value}`);
  return Number(match[1]) * UNITS[match[2] ?? 's'];
};

/** A duration over 0 seconds, as seconds. */
export const durationValue = durationInput
  .transform(toSeconds)
  .refine((seconds) => seconds > 0, 'must be longer than 0 seconds');

const duration = (fallback: string) => durationValue.default(toSeconds(fallback));

/** A duration that may be 0 (switched off), such as the HTTP cache lifetimes. */
const durationOrZero = (fallback: number) =>
  z
    .union([z.number().int().min(0), z.string().regex(DURATION_PATTERN, 'must be a duration such as 90s, 15m, 1h or 30d')])
    .default(fallback)
    .transform(toSeconds);

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
const escalationType = z.enum(ESCALATION_TYPES, { error: `must be one of ${ESCALATION_TYPES.join(', ')}` });

const captchaSwitch = (enabled: boolean, type: 'image' | 'email') =>
  z.object({ enabled: z.boolean().default(enabled), type: captchaType.default(type) }).strict().prefault({});

const limit = (interval: string, max: number) =>
  z.object({ interval: duration(interval), max: z.number().int().positive().default(max) }).strict().prefault({});

export const configSchema = z
  .object({
    login: z
      .object({
        captcha: captchaSwitch(false, 'image'),
        escalation: z.object({ type: escalationType.default('email') }).strict().prefault({}),
      })
      .strict()
      .prefault({}),
    register: z.object({ captcha: captchaSwitch(true, 'email') }).strict().prefault({}),
    auth: z
      .object({
        accessToken: z.object({ expiresIn: duration('1h') }).strict().prefault({}),
        refreshToken: z.object({ expiresIn: duration('30d') }).strict().prefault({}),
        requireEncryptedPassword: z.boolean().default(false),
        hostRoutes: z
          .enum(['guarded', 'open'], { error: 'must be one of guarded, open' })
          .default('guarded'),
      })
      .strict()
      .prefault({}),
    account: z
      .object({
        passwordless: z.object({ enabled: z.boolean().default(false) }).strict().prefault({}),
        emailChange: z.object({ revertWindow: duration('7d') }).strict().prefault({}),
        deletion: z
          .object({
            enabled: z.boolean().default(true),
            comments: z.enum(['anonymize', 'delete'], { error: 'must be one of anonymize, delete' }).default('anonymize'),
          })
          .strict()
          .prefault({}),
        signInAlerts: z.boolean().default(true),
        mfa: z
          .object({
            enabled: z.boolean().default(true),
            /** The name authenticator apps show; unset: `site.title`, else 'Strapi'. */
            issuer: z.string().min(1).max(100).optional(),
          })
          .strict()
          .prefault({}),
        passkeys: z
          .object({
            /** WebAuthn relying party id; unset: the host name of `site.url`. */
            rpId: z.string().min(1).max(253).optional(),
            /** Origins accepted in a passkey's client data; unset: `site.url`'s origin. */
            origins: z.array(z.string().url()).optional(),
          })
          .strict()
          .prefault({}),
      })
      .strict()
      .prefault({}),
    captcha: z
      .object({
        image: z
          .object({
            expiresIn: duration('5m'),
            size: z.number().int().min(4).max(8).default(4),
          })
          .strict()
          .prefault({}),
        pow: z
          .object({
            difficulty: z.number().int().min(1).max(32).default(POW_DIFFICULTY),
            expiresIn: duration('5m'),
          })
          .strict()
          .prefault({}),
        email: z
          .object({
            expiresIn: duration('10m'),
            resendInterval: duration('60s'),
            maxAttempts: z.number().int().positive().default(5),
            subject: z.string().min(1).default('Your verification code'),
          })
          .strict()
          .prefault({}),
      })
      .strict()
      .prefault({}),
    crypto: z
      .object({
        rsa: z.object({ privateKey: z.string().min(1).superRefine(checkRsaPrivateKey).optional() }).strict().prefault({}),
        aes: z.object({ secret: z.string().min(1).optional() }).strict().prefault({}),
      })
      .strict()
      .prefault({}),
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
      .prefault({}),
    comments: z
      .object({
        autoApprove: z.boolean().default(false),
        maxLength: z.number().int().positive().default(5000),
        /** How long after posting an author may edit a comment; 0: never. */
        editWindow: durationOrZero(toSeconds('15m')),
        /** Nodes carry `contentHtml`, the comment rendered from Markdown (services/comments/markdown.ts). */
        markdown: z.boolean().default(true),
        /** Threads of articles first published longer ago than this take no new comments; 0: never. */
        closeAfter: durationOrZero(0),
        /** Rules applied to a comment's text on submit and on edit (services/comments/moderation-rules.ts); admin-editable. */
        moderation: z
          .object({
            blockedWords: z.array(z.string().min(1).max(100)).max(1000).default([]),
            holdWords: z.array(z.string().min(1).max(100)).max(1000).default([]),
            maxLinks: z.number().int().min(0).default(2),
            trustApproved: z.boolean().default(false),
          })
          .strict()
          .prefault({}),
        /** Paged threads: `GET /bag/articles/:id/comments?pagination[pageSize]=…` and `/bag/comments/:id/replies`. */
        thread: z
          .object({
            pageSize: z.number().int().min(1).max(100).default(20),
            maxPageSize: z.number().int().min(1).max(500).default(100),
            /** Replies shown under each root of a page; the rest come from `/bag/comments/:id/replies`. */
            replies: z.number().int().min(0).max(50).default(3),
          })
          .strict()
          .prefault({}),
        reactions: z
          .object({
            enabled: z.boolean().default(true),
            /** Guests like by IP (IPv6 by /64); users by account. Guests are rate limited by `rateLimit.reaction`. */
            guests: z.boolean().default(true),
          })
          .strict()
          .prefault({}),
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
          .prefault({}),
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
              .prefault({}),
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
                follow: z.string().min(1).default('New comment in a thread you follow'),
              })
              .strict()
              .prefault({}),
          })
          .strict()
          .prefault({}),
      })
      .strict()
      .prefault({}),
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
          .prefault({}),
      })
      .strict()
      .prefault({}),
    redirects: z
      .object({
        /** Old slugs of articles and pages answer 301 to the current one (docs/redirects.md); editors' redirects are listed either way. */
        enabled: z.boolean().default(true),
      })
      .strict()
      .prefault({}),
    feeds: z
      .object({ size: z.number().int().min(1).max(100).default(20) })
      .strict()
      .prefault({}),
    sitemap: z
      .object({ pageSize: z.number().int().min(1).max(50000).default(50000) })
      .strict()
      .prefault({}),
    cache: z
      .object({
        /** The server-side cache of anonymous GET responses under /api/bag (docs/caching.md). */
        enabled: z.boolean().default(true),
        /** Memory bound per process, in bytes of cached bodies and keys; least recently used entries go first. */
        maxBytes: z.number().int().min(0).default(64 * 1024 * 1024),
        /** `Cache-Control` of anonymous responses (seconds); all 0 → `public, no-cache`. */
        http: z
          .object({ maxAge: durationOrZero(0), sMaxAge: durationOrZero(0), staleWhileRevalidate: durationOrZero(0) })
          .strict()
          .prefault({}),
      })
      .strict()
      .prefault({}),
    graphql: z
      .object({
        /**
         * With the host's GraphQL plugin: root fields returning the plugin's types one operation may hold (each
         * alias counts) and its estimated cost (graphql/operation-limits.ts); the depth limit is the host's.
         */
        maxRootFields: z.number().int().min(1).max(1000).default(20),
        maxCost: z.number().int().min(1).default(20000),
      })
      .strict()
      .prefault({}),
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
      .prefault({}),
  })
  .strict();

/** The configuration as given in config/plugins.ts. */
export type PluginConfigInput = z.input<typeof configSchema>;
/** The configuration as services see it: defaults applied, durations in seconds. */
export type PluginConfig = z.output<typeof configSchema>;
export type CaptchaType = z.infer<typeof captchaType>;
export type EscalationType = z.infer<typeof escalationType>;
export type RateLimitName = keyof Omit<PluginConfig['rateLimit'], 'enabled' | 'purgeInterval'>;

/** The type of a given value, as the messages name it. */
const typeName = (value: unknown): string => {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'number' : Number.isNaN(value) ? 'nan' : 'float';
  return typeof value;
};

const valueAt = (input: unknown, path: readonly PropertyKey[]): unknown =>
  path.reduce<unknown>((value, key) => (value !== null && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[key] : undefined), input);

/** `<key> <what is wrong>`, in the wording of the plugin's earlier releases. */
const describeIssue = (input: unknown, issue: z.core.$ZodIssue): string => {
  const key = issue.path.join('.');
  switch (issue.code) {
    case 'unrecognized_keys':
      return `unknown key ${issue.keys.map((k) => (key ? `${key}.${k}` : k)).join(', ')}`;
    case 'invalid_type':
      return `${key} must be a ${issue.expected === 'int' ? 'integer' : issue.expected}, got ${typeName(valueAt(input, issue.path))}`;
    case 'too_small':
    case 'too_big': {
      const bound = issue.code === 'too_small' ? issue.minimum : issue.maximum;
      const than = issue.code === 'too_small' ? 'greater than' : 'less than';
      const least = issue.code === 'too_small' ? 'at least' : 'at most';
      if (issue.origin === 'string') return `${key} string must contain ${least} ${bound} character(s)`;
      if (issue.origin === 'array') return `${key} array must contain ${least} ${bound} element(s)`;
      return `${key} number must be ${than}${issue.inclusive ? ' or equal to' : ''} ${bound}`;
    }
    case 'invalid_union': {
      // The alternative the value had the type of says what is wrong with it (a duration string that does not parse).
      const typed = issue.errors.find((branch) => branch.length > 0 && branch.every((inner) => inner.code !== 'invalid_type'));
      return typed ? describeIssue(input, { ...typed[0], path: [...issue.path, ...typed[0].path] }) : `${key} invalid input`;
    }
    case 'invalid_format':
      if (issue.format === 'url' || issue.format === 'email') return `${key} invalid ${issue.format}`;
      return `${key} ${issue.message}`;
    default:
      return `${key} ${issue.message.charAt(0).toLowerCase()}${issue.message.slice(1)}`;
  }
};

/** Parses a configuration and throws an Error naming the first bad key, so Strapi refuses to start. */
export const parseConfig = (input: unknown): PluginConfig => {
  const result = configSchema.safeParse(input ?? {});
  if (!result.success) {
    throw new Error(`cms-plugin-bag: ${result.error.issues.map((issue) => describeIssue(input, issue)).join('; ')}`);
  }
  return result.data;
};
