/**
 * Fixed-window request counters kept in the database (platform/rate-limit.data.ts), so every instance sharing it
 * counts together and the counts survive restarts.
 */
import type { Core } from '@strapi/strapi';
import type { PluginConfig, RateLimitName } from './config/schema';
import { countHit, deleteEndedWindows, takeHitBack } from './rate-limit.data';
import { getService } from './get-service';
import { sha256 } from './secret-hash';

export interface HitResult {
  allowed: boolean;
  hits: number;
  /** Seconds until the window resets (for Retry-After). */
  retryAfter: number;
}

const rateLimit = ({ strapi }: { strapi: Core.Strapi }) => {
  const now = () => getService(strapi, 'clock').now();

  return {
    /**
     * Counts one request in `bucket` and tells whether it is within `max` per `interval` seconds.
     * The bucket name is stored hashed: it may contain an e-mail address or an IP.
     */
    async hit(bucket: string, { interval, max }: { interval: number; max: number }): Promise<HitResult> {
      const at = now();
      const { hits, windowEnd } = await countHit(strapi, sha256(bucket), at, at + interval * 1000);
      // The window may have been opened by a request whose clock read a few ms later than ours (statements run in
      // any order, instances' clocks drift), so the remaining time is clamped to the window's length.
      const retryAfter = Math.min(interval, Math.max(1, Math.ceil((windowEnd - at) / 1000)));
      return { allowed: hits <= max, hits, retryAfter };
    },

    /** Counts a request against a configured limit (`rateLimit.<name>`), unless rate limiting is disabled. */
    async check(name: RateLimitName, subject: string, config: PluginConfig): Promise<HitResult> {
      if (!config.rateLimit.enabled) return { allowed: true, hits: 0, retryAfter: 0 };
      return this.hit(`${name}:${subject}`, config.rateLimit[name]);
    },

    /** Takes one hit of `rateLimit.<name>` back from `subject` in its current window (e.g. a login that succeeded). */
    async giveBack(name: RateLimitName, subject: string, config: PluginConfig): Promise<void> {
      if (!config.rateLimit.enabled) return;
      await takeHitBack(strapi, sha256(`${name}:${subject}`), now());
    },

    /** Deletes counters whose window has passed. */
    purgeExpired: (): Promise<number> => deleteEndedWindows(strapi, now()),
  };
};

export type RateLimitService = ReturnType<typeof rateLimit>;
export default rateLimit;
