/**
 * Work that runs after the current request has been answered (mails to owners, reply notifications, digests): a
 * failure is logged by its mail error code, never thrown, and `idle()` waits for every job started so far (tests,
 * shutdown).
 */
import type { Core } from '@strapi/strapi';
import { describeMailFailure } from './mail-failure';

export const afterAnswer = (strapi: Core.Strapi) => {
  const inFlight = new Set<Promise<void>>();
  return {
    /** Runs `job` once the current turn has answered; `what` names it in the log line of a failure. */
    run(what: string, job: () => Promise<void>): void {
      const run: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
        .then(job)
        .catch((error) => {
          strapi.log.warn(`cms-plugin-bag: ${what} failed (${describeMailFailure(error)})`);
        })
        .finally(() => inFlight.delete(run));
      inFlight.add(run);
    },

    /** Resolves once every job started so far has finished or failed. */
    async idle(): Promise<void> {
      while (inFlight.size > 0) await Promise.all([...inFlight]);
    },
  };
};
