/**
 * Delivery (docs/newsletters.md#delivery): every instance runs this loop. It polls the database for queued or
 * running sends and works on them in batches of `newsletters.batchSize` claimed in the database with a lease of one
 * minute (sends.data.ts `claimBatch`), so instances sharing a database share a send, and a batch whose process died
 * is taken over once its lease runs out. Before each batch a cancelled send stops; the claimed batch's recipients
 * who left are skipped. Each recipient is marked sent as soon as the mail server accepted the mail; a refusal is
 * tried again twice, then counted `failed`. On Strapi's destroy the loop stops after the mail under way and gives
 * its leases back.
 */
import type { Core } from '@strapi/strapi';
import { getService } from '../../platform/get-service';
import { describeMailFailure } from '../../platform/mail-failure';
import { siteOf } from '../discovery';
import { unsubscribeUrl } from './links';
import { newsletterMail, renderArticle } from './mail';
import { publishedVersions } from './articles.data';
import { newslettersByDocumentId } from './subscriptions.data';
import { activeSends, claimBatch, countPending, markRefused, markSent, markSkipped, moveSend, releaseLeases, sendById, skipLeft, type SendRow } from './sends.data';
import type { PluginConfig } from '../../platform/config/schema';

const LEASE_MS = 60_000;
const POLL_MS = 1_000;
/** The first try and two more. */
const MAX_TRIES = 3;

const newsletterDelivery = ({ strapi }: { strapi: Core.Strapi }) => {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let started = false;
  let stopped = false;
  const held = new Set<number>();

  const deliver = async (send: SendRow, settings: PluginConfig): Promise<void> => {
    const [newsletter] = await newslettersByDocumentId(strapi, [send.newsletter]);
    if (!newsletter) {
      await moveSend(strapi, send.id, ['queued', 'sending'], 'cancelled', new Date());
      return;
    }
    let site: ReturnType<typeof siteOf>;
    try {
      site = siteOf(strapi, settings, await getService(strapi, 'locales').defaultLocale());
    } catch {
      return; // `site.url` unset since the send started: it waits until it is set again.
    }
    const versions = new Map((await publishedVersions(strapi, send.article)).map((v) => [v.locale, v]));
    const rendered = new Map(
      [...versions].map(([locale, v]) => [
        locale,
        renderArticle({ title: v.title, content: v.content, summary: v.summary, link: site.link('article', v.slug, locale), cover: v.cover?.url ? site.media(v.cover.url) : null }),
      ])
    );
    while (!stopped) {
      const current = await sendById(strapi, send.id);
      if (!current || (current.status !== 'queued' && current.status !== 'sending')) return;
      const until = Date.now() + LEASE_MS;
      const claimed = await claimBatch(strapi, send.id, settings.newsletters.batchSize, Date.now(), until);
      if (claimed.length === 0) {
        if ((await countPending(strapi, send.id)) === 0) await moveSend(strapi, send.id, ['queued', 'sending'], 'done', new Date());
        return;
      }
      if (current.status === 'queued') await moveSend(strapi, send.id, ['queued'], 'sending');
      // Who left since the send started is skipped, checked for this batch just before its first mail.
      const left = await skipLeft(strapi, claimed.map((r) => r.id));
      const batch = claimed.filter((r) => !left.has(r.id));
      batch.forEach((r) => held.add(r.id));
      for (const recipient of batch) {
        if (stopped) break;
        const version = rendered.get(recipient.locale);
        if (!version) {
          // The article has no published version in the subscriber's locale (any more): skipped for them.
          await markSkipped(strapi, recipient.id);
        } else {
          const mail = newsletterMail(version, newsletter, recipient.email, unsubscribeUrl(strapi, recipient.subscriberId), site.url, settings.newsletters.from);
          try {
            await strapi.plugin('email').service('email').send(mail);
            await markSent(strapi, recipient.id);
          } catch (error) {
            await markRefused(strapi, recipient.id, recipient.tries, MAX_TRIES);
            strapi.log.warn(`cms-plugin-bag: newsletter mail not delivered, try ${recipient.tries + 1} of ${MAX_TRIES} (${describeMailFailure(error)})`);
          }
        }
        held.delete(recipient.id);
      }
    }
  };

  const runOnce = async () => {
    const settings = await getService(strapi, 'settings').get();
    if (!settings.newsletters.enabled) return;
    for (const send of await activeSends(strapi)) {
      if (stopped) return;
      await deliver(send, settings);
    }
  };

  const tick = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = runOnce()
      .catch((error) => {
        strapi.log.warn(`cms-plugin-bag: newsletter delivery failed, trying again (${(error as Error).message})`);
      })
      .finally(() => {
        running = undefined;
        if (again && !stopped) {
          again = false;
          tick();
        }
      });
  };

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      tick();
      schedule();
    }, POLL_MS);
    timer.unref();
  };

  return {
    /** Starts the loop (bootstrap). */
    start() {
      if (started) return;
      started = true;
      schedule();
      tick();
    },
    /** A send was queued here: work on it now rather than at the next poll. */
    kick() {
      if (started) tick();
    },
    /** Resolves once the current round has ended (tests). */
    async idle() {
      while (running) await running;
    },
    /** Stops after the mail under way; the leases of what this instance will not mail are given back (destroy). */
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
      if (held.size > 0) await releaseLeases(strapi, [...held]).catch(() => undefined);
      held.clear();
    },
  };
};

export type NewsletterDeliveryService = ReturnType<typeof newsletterDelivery>;
export default newsletterDelivery;
