/** Accounts: refresh-token messages, the host auth routes, and the login escalation flag (the checked bodies' types: features/accounts/auth.shapes.ts). */

export const REFRESH_ERRORS = {
  missing: 'Missing refresh token',
  invalid: 'Invalid refresh token',
  expired: 'Refresh token expired',
  blocked: 'Your account has been blocked by an administrator',
} as const;

/**
 * An e-mail address as the plugin compares and stores it: Unicode NFKC (so a look-alike typed with full-width or
 * compatibility characters is the address it looks like) and lower case. Every lookup, code, counter and new
 * address goes through it.
 */
export const normalizeEmail = (address: string): string => address.normalize('NFKC').toLowerCase();

/** The host's own auth actions the plugin guards (REST routes and GraphQL mutations). */
export type HostAuthRoute = 'login' | 'register' | 'forgotPassword';

const ESCALATED = 'cmsPluginBagCaptchaEscalated';

/**
 * The login escalation flag on a request's `ctx.state`: set by the rate-limit middleware when the identifier is
 * past its failure limit, read by the handler, which then requires a captcha of `login.escalation.type`.
 */
export const markCaptchaEscalated = (ctx: { state: Record<string, unknown> }): void => {
  ctx.state[ESCALATED] = true;
};

/** True when this login's identifier is past its failure limit: the login must carry a valid captcha. */
export const captchaEscalated = (ctx: { state: Record<string, unknown> }): boolean => ctx.state[ESCALATED] === true;
