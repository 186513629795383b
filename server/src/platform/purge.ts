/**
 * Deletes expired rate-limit counters, image captchas and e-mail codes every `rateLimit.purgeInterval`, so those
 * tables hold only live rows. Every instance runs its own timer: the DELETEs are idempotent (`… WHERE resetAt /
 * expiresAt <= now`), so instances sharing a database purge side by side safely, and no instance is special.
 */
import type { Core } from '@strapi/strapi';
import { getService } from './get-service';

/** setInterval's longest delay (about 24.8 days); longer ones would fire at once. */
const MAX_DELAY_MS = 2 ** 31 - 1;

const purge = ({ strapi }: { strapi: Core.Strapi }) => {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;

  const tick = () => {
    // A purge still running (a slow database) is not overlapped by the next one.
    if (running) return;
    // Through the service registry, so what runs is the service's current `run` (tests observe it there).
    running = getService(strapi, 'purge')
      .run()
      .then(
        () => undefined,
        (error: Error) => {
          strapi.log.warn(`cms-plugin-bag: purging expired rows failed: ${error.message}`);
        }
      )
      .finally(() => {
        running = undefined;
      });
  };

  return {
    /** The scheduled job: one purge of every table with expiring rows; the numbers of rows deleted. */
    async run(): Promise<{ rateLimits: number; captchas: number; emailChanges: number }> {
      return {
        rateLimits: await getService(strapi, 'rate-limit').purgeExpired(),
        captchas: await getService(strapi, 'captcha').purgeExpired(),
        emailChanges: await getService(strapi, 'email-change').purgeExpired(),
      };
    },

    /** Runs the job every `intervalSeconds` (started in bootstrap); the timer does not keep the process alive. */
    start(intervalSeconds: number) {
      clearInterval(timer);
      timer = setInterval(tick, Math.min(intervalSeconds * 1000, MAX_DELAY_MS));
      timer.unref();
    },

    /** Stops the timer and waits for a purge under way (destroy: before the database closes). */
    async stop() {
      clearInterval(timer);
      timer = undefined;
      await running;
    },
  };
};

export type PurgeService = ReturnType<typeof purge>;
export default purge;
