/** Shapes of the admin panel routes (`/cms-plugin-bag/settings`, `/cms-plugin-bag/comments…`). */
import { z } from 'zod/v4';
import { commentStatus } from './comments';

export const captchaType = z.enum(['image', 'pow', 'email', 'any']);

const captcha = z.object({ enabled: z.boolean(), type: captchaType });

/** The configuration keys an administrator may change without a restart; durations in seconds. */
export const adminSettings = z.object({
  login: z.object({ captcha }),
  register: z.object({ captcha }),
  auth: z.object({ refreshToken: z.object({ expiresIn: z.number() }), requireEncryptedPassword: z.boolean() }),
  comments: z.object({ autoApprove: z.boolean() }),
});

/** Only the given keys change; a duration may be a number of seconds or a string such as '30d'. */
export const settingsBody = z.object({
  login: z.object({ captcha: captcha.partial() }).partial().optional(),
  register: z.object({ captcha: captcha.partial() }).partial().optional(),
  auth: z
    .object({
      refreshToken: z.object({ expiresIn: z.union([z.number(), z.string()]) }).partial(),
      requireEncryptedPassword: z.boolean(),
    })
    .partial()
    .optional(),
  comments: z.object({ autoApprove: z.boolean() }).partial().optional(),
});

/** The key material is described, never sent. */
export const keyMaterial = z.object({
  rsaPrivateKeyConfigured: z.boolean(),
  aesSecretConfigured: z.boolean(),
  publicKeyFingerprint: z.string(),
});

export const settingsResponse = z.object({
  data: z.object({
    settings: adminSettings,
    defaults: adminSettings,
    overrides: z.record(z.string(), z.unknown()),
    crypto: keyMaterial,
  }),
});

export const moderationReport = z.object({ reason: z.string(), details: z.string().nullable(), createdAt: z.string() });

/** A comment as moderators see it; `author.email` only for an admin who may read users in the Content Manager. */
export const moderatedComment = z.object({
  id: z.number().int(),
  documentId: z.string(),
  content: z.string(),
  status: commentStatus,
  isAdmin: z.boolean(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  createdAt: z.string(),
  author: z.object({ id: z.number().int(), documentId: z.string(), username: z.string(), email: z.string().optional() }).nullable(),
  article: z.object({ documentId: z.string(), title: z.string(), slug: z.string() }).nullable(),
  parent: z.object({ documentId: z.string() }).nullable(),
  likes: z.number().int(),
  reportCount: z.number().int(),
  /** Oldest first; reasons and details only, never who reported. */
  reports: z.array(moderationReport),
});

export const moderationQuery = {
  status: commentStatus.optional(),
  article: z.string().optional(),
  reported: z.enum(['true', 'false']).optional(),
  page: z.string().optional(),
  pageSize: z.string().optional(),
};

export const moderationList = z.object({
  data: z.array(moderatedComment),
  meta: z.object({
    pagination: z.object({ page: z.number().int(), pageSize: z.number().int(), pageCount: z.number().int(), total: z.number().int() }),
  }),
});

export const statusBody = z.object({ documentIds: z.array(z.string()), status: commentStatus });
export const statusResponse = z.object({ data: z.object({ updated: z.number().int() }) });

export const replyParams = { documentId: z.string() };
export const replyBody = z.object({ content: z.string() });
export const replyResponse = z.object({ data: moderatedComment });
