/**
 * Subscribing (docs/newsletters.md#subscribing): by address with double opt-in, the answer the same whatever the
 * address's state (no one learns whether it is known); as a member from the account, active at once. Confirming and
 * unsubscribing through the mailed links. A member's rows name the account, not an address: a send reads the
 * account's address when it starts, so an e-mail change is followed, and a deleted account's rows go with it.
 */
import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import { getService } from '../../platform/get-service';
import { normalizeEmail } from '../../platform/auth';
import { fieldError } from '../../platform/errors';
import { REQUIRED } from '../../platform/shapes/fields';
import { afterAnswer } from '../../platform/after-answer';
import { describeMailFailure } from '../../platform/mail-failure';
import { confirmationMail } from './mail';
import { INVALID_LINK, confirmHashOf, confirmUrl, newConfirmToken, subscriberOfToken } from './links';
import {
  allNewsletters,
  confirmByHash,
  deleteSubscribersOfUser,
  insertSubscriber,
  newslettersBySlug,
  subscriberByAddress,
  subscriberById,
  subscribersByConfirmHash,
  subscribersOfAddress,
  subscribersOfUser,
  updateSubscriber,
  type NewsletterRow,
} from './subscriptions.data';

export const DISABLED = 'Newsletters are disabled';
export const NOT_FOUND = 'Newsletter not found';
export const ACCEPTED = 'If the address can receive mail, a link to confirm the subscription is on its way.';
export const SUBSCRIBED = 'Subscribed.';
export const CONFIRMED = 'Your subscription is confirmed.';
export const UNSUBSCRIBED = 'You are unsubscribed.';

const newsletterSubscriptions = ({ strapi }: { strapi: Core.Strapi }) => {
  const jobs = afterAnswer(strapi);
  const now = () => getService(strapi, 'clock').now();
  const config = () => getService(strapi, 'settings').get();

  const assertEnabled = async () => {
    if (!(await config()).newsletters.enabled) throw new errors.NotFoundError(DISABLED);
  };

  /** The newsletters the slugs name; 404 when one does not exist. */
  const bySlugs = async (slugs: string[]): Promise<NewsletterRow[]> => {
    const unique = [...new Set(slugs)];
    const found = await newslettersBySlug(strapi, unique);
    if (found.length !== unique.length) throw new errors.NotFoundError(NOT_FOUND);
    return found;
  };

  const slugsOf = async (rows: Array<{ newsletter: string; locale: string }>) => {
    const names = new Map((await allNewsletters(strapi)).map((n) => [n.documentId, n.slug]));
    return rows.filter((row) => names.has(row.newsletter)).map((row) => ({ newsletter: names.get(row.newsletter)!, locale: row.locale }));
  };

  const memberSubscriptions = async (userId: number) => slugsOf((await subscribersOfUser(strapi, userId)).filter((row) => row.state === 'active'));

  /** By address: pending rows (or active at once without double opt-in), one confirmation mail per resend interval. */
  const subscribeAddress = async (newsletters: NewsletterRow[], address: string, locale: string) => {
    const settings = await config();
    const email = normalizeEmail(address.trim());
    const at = now();
    const waiting: number[] = [];
    for (const newsletter of newsletters) {
      const row = await subscriberByAddress(strapi, newsletter.documentId, email);
      if (row?.state === 'active') continue;
      if (!settings.newsletters.doubleOptIn) {
        if (row) await updateSubscriber(strapi, row.id, { state: 'active', locale, confirmHash: null });
        else await insertSubscriber(strapi, { newsletter: newsletter.documentId, email, locale, state: 'active' });
        continue;
      }
      if (row) {
        await updateSubscriber(strapi, row.id, { state: row.state === 'unsubscribed' ? 'pending' : row.state, locale });
        waiting.push(row.id);
      } else {
        try {
          waiting.push(((await insertSubscriber(strapi, { newsletter: newsletter.documentId, email, locale, state: 'pending' })) as { id: number }).id);
        } catch {
          // The same address subscribing twice at once: the unique (newsletter, email) keeps one row, the other request's.
        }
      }
    }
    if (waiting.length === 0) return;
    // One confirmation mail per address per `captcha.email.resendInterval`, whatever the newsletters.
    const lastSent = Math.max(0, ...(await subscribersOfAddress(strapi, email)).map((row) => Number(row.confirmSentAt ?? 0)));
    if (at - lastSent < settings.captcha.email.resendInterval * 1000) return;
    const { token, hash } = newConfirmToken();
    for (const id of waiting) {
      await updateSubscriber(strapi, id, { confirmHash: hash, confirmExpiresAt: at + settings.newsletters.confirmWindow * 1000, confirmSentAt: at });
    }
    const names = newsletters.map((n) => n.name);
    jobs.run('newsletter confirmation mail', async () => {
      try {
        await strapi.plugin('email').service('email').send(confirmationMail(email, names, confirmUrl(strapi, token), settings.newsletters.from));
      } catch (error) {
        strapi.log.warn(`cms-plugin-bag: newsletter confirmation mail not delivered (${describeMailFailure(error)})`);
      }
    });
  };

  /** The account's rows for these newsletters made active in `locale`; the others of `leave` unsubscribed. */
  const setMember = async (userId: number, wanted: NewsletterRow[], locale: string | undefined, leaveOthers: boolean) => {
    const rows = await subscribersOfUser(strapi, userId);
    const fallback = locale ?? (await getService(strapi, 'locales').defaultLocale());
    const wantedIds = new Set(wanted.map((n) => n.documentId));
    for (const newsletter of wanted) {
      const row = rows.find((r) => r.newsletter === newsletter.documentId);
      if (row) await updateSubscriber(strapi, row.id, { state: 'active', locale: locale ?? row.locale, confirmHash: null });
      else await insertSubscriber(strapi, { newsletter: newsletter.documentId, userId, locale: fallback, state: 'active' });
    }
    if (leaveOthers) {
      for (const row of rows) if (!wantedIds.has(row.newsletter) && row.state !== 'unsubscribed') await updateSubscriber(strapi, row.id, { state: 'unsubscribed' });
    }
  };

  return {
    assertEnabled,

    /** The public list: every newsletter with its categories (in the default locale's titles where there are several). */
    async list() {
      await assertEnabled();
      const defaultLocale = await getService(strapi, 'locales').defaultLocale();
      const rows = await allNewsletters(strapi);
      return rows.map((row) => {
        const categories = new Map<string, { slug: string; title: string }>();
        for (const category of row.categories ?? []) {
          if (!categories.has(category.documentId) || category.locale === defaultLocale) categories.set(category.documentId, { slug: category.slug, title: category.title });
        }
        return { documentId: row.documentId, slug: row.slug, name: row.name, description: row.description ?? null, categories: [...categories.values()] };
      });
    },

    async subscribe(input: { newsletters: string[]; email?: string; locale?: string }, user: { id: number } | undefined) {
      await assertEnabled();
      const newsletters = await bySlugs(input.newsletters);
      const { locale } = await getService(strapi, 'locales').resolve(input.locale);
      if (user) {
        await setMember(user.id, newsletters, locale, false);
        return { status: 200, body: { data: await memberSubscriptions(user.id) } };
      }
      if (!input.email) throw fieldError('email', REQUIRED, `email ${REQUIRED}`);
      await subscribeAddress(newsletters, input.email, locale);
      return { status: 202, body: { message: ACCEPTED } };
    },

    /** What a confirmation token would confirm, changing nothing; 400 when it is not a live one. */
    async checkConfirm(token: unknown) {
      await assertEnabled();
      const rows = await subscribersByConfirmHash(strapi, confirmHashOf(token));
      if (rows.length === 0 || rows.every((row) => Number(row.confirmExpiresAt ?? 0) <= now())) throw new errors.ValidationError(INVALID_LINK);
    },

    async confirm(token: unknown) {
      await assertEnabled();
      if ((await confirmByHash(strapi, confirmHashOf(token), now())) === 0) throw new errors.ValidationError(INVALID_LINK);
      return { message: CONFIRMED };
    },

    /** Which newsletter an unsubscribe token names (a 400 for a forged one). */
    async checkUnsubscribe(token: unknown) {
      await assertEnabled();
      const row = await subscriberById(strapi, subscriberOfToken(strapi, token));
      const names = new Map((await allNewsletters(strapi)).map((n) => [n.documentId, n.name]));
      return { name: (row && names.get(row.newsletter)) ?? 'this newsletter' };
    },

    /** Leaves at once: the delivery checks the row before every batch and every mail. A used token answers the same. */
    async unsubscribe(token: unknown) {
      await assertEnabled();
      const id = subscriberOfToken(strapi, token);
      const row = await subscriberById(strapi, id);
      if (row && row.state !== 'unsubscribed') await updateSubscriber(strapi, id, { state: 'unsubscribed', confirmHash: null });
      return { message: UNSUBSCRIBED };
    },

    async subscriptions(userId: number) {
      await assertEnabled();
      return { data: await memberSubscriptions(userId) };
    },

    async setSubscriptions(userId: number, input: { newsletters: string[]; locale?: string }) {
      await assertEnabled();
      const newsletters = input.newsletters.length ? await bySlugs(input.newsletters) : [];
      const locale = input.locale === undefined ? undefined : (await getService(strapi, 'locales').resolve(input.locale)).locale;
      await setMember(userId, newsletters, locale, true);
      return { data: await memberSubscriptions(userId) };
    },

    /** For the account's export: its subscriptions. */
    exportOf: (userId: number) => memberSubscriptions(userId),
    /** The account is gone: its subscriptions go with it. */
    forgetUser: (userId: number) => deleteSubscribersOfUser(strapi, userId),

    idle: () => jobs.idle(),
  };
};

export type NewsletterSubscriptionsService = ReturnType<typeof newsletterSubscriptions>;
export default newsletterSubscriptions;
