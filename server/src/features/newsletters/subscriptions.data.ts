/** Subscriber rows (`bag_newsletter_subscribers`): an address or a member on one newsletter in one locale. */
import type { Core } from '@strapi/strapi';
import { uid } from '../../platform/plugin-id';

const SUBSCRIBER = uid('newsletter-subscriber');
const NEWSLETTER = uid('newsletter');

export type SubscriberState = 'pending' | 'active' | 'unsubscribed';

export interface SubscriberRow {
  id: number;
  newsletter: string;
  email: string | null;
  userId: number | null;
  locale: string;
  state: SubscriberState;
  confirmHash: string | null;
  confirmExpiresAt: string | number | null;
  confirmSentAt: string | number | null;
}

export interface NewsletterRow {
  id: number;
  documentId: string;
  slug: string;
  name: string;
  description: string | null;
  sendOnPublish: boolean | null;
  categories?: Array<{ documentId: string; slug: string; title: string; locale?: string }>;
}

const q = (strapi: Core.Strapi) => strapi.db.query(SUBSCRIBER);

/** Newsletters by slug (only those that exist). */
export const newslettersBySlug = (strapi: Core.Strapi, slugs: string[]): Promise<NewsletterRow[]> =>
  strapi.db.query(NEWSLETTER).findMany({ where: { slug: { $in: slugs } }, select: ['id', 'documentId', 'slug', 'name'] }) as Promise<NewsletterRow[]>;

/** Newsletters by documentId. */
export const newslettersByDocumentId = (strapi: Core.Strapi, documentIds: string[]): Promise<NewsletterRow[]> =>
  strapi.db.query(NEWSLETTER).findMany({
    where: { documentId: { $in: documentIds } },
    select: ['id', 'documentId', 'slug', 'name', 'description', 'sendOnPublish'],
    populate: { categories: { select: ['documentId', 'slug', 'title', 'locale'] } },
  }) as Promise<NewsletterRow[]>;

/** Every newsletter with its categories. */
export const allNewsletters = (strapi: Core.Strapi): Promise<NewsletterRow[]> =>
  strapi.db.query(NEWSLETTER).findMany({
    select: ['id', 'documentId', 'slug', 'name', 'description', 'sendOnPublish'],
    populate: { categories: { select: ['documentId', 'slug', 'title', 'locale'] } },
    orderBy: [{ name: 'asc' }, { id: 'asc' }],
  }) as Promise<NewsletterRow[]>;

/** Whether any newsletter sends on publication (one indexed count, asked on every first publication). */
export const countSendOnPublish = (strapi: Core.Strapi): Promise<number> => strapi.db.query(NEWSLETTER).count({ where: { sendOnPublish: true } });

export const subscriberByAddress = (strapi: Core.Strapi, newsletter: string, email: string): Promise<SubscriberRow | null> =>
  q(strapi).findOne({ where: { newsletter, email } }) as Promise<SubscriberRow | null>;

export const subscribersOfAddress = (strapi: Core.Strapi, email: string): Promise<SubscriberRow[]> =>
  q(strapi).findMany({ where: { email } }) as Promise<SubscriberRow[]>;

export const subscribersOfUser = (strapi: Core.Strapi, userId: number): Promise<SubscriberRow[]> =>
  q(strapi).findMany({ where: { userId }, orderBy: { id: 'asc' } }) as Promise<SubscriberRow[]>;

export const subscriberById = (strapi: Core.Strapi, id: number): Promise<SubscriberRow | null> =>
  q(strapi).findOne({ where: { id } }) as Promise<SubscriberRow | null>;

export const subscribersByConfirmHash = (strapi: Core.Strapi, confirmHash: string): Promise<SubscriberRow[]> =>
  q(strapi).findMany({ where: { confirmHash } }) as Promise<SubscriberRow[]>;

export const insertSubscriber = (strapi: Core.Strapi, data: Partial<SubscriberRow>) => q(strapi).create({ data });

export const updateSubscriber = (strapi: Core.Strapi, id: number, data: Partial<SubscriberRow>) => q(strapi).update({ where: { id }, data });

/** Activates the rows a confirmation link names, if it has not expired by `now`; how many it activated. */
export const confirmByHash = async (strapi: Core.Strapi, confirmHash: string, now: number): Promise<number> => {
  const { count } = await q(strapi).updateMany({
    where: { confirmHash, confirmExpiresAt: { $gt: now } },
    data: { state: 'active', confirmHash: null, confirmExpiresAt: null },
  });
  return Number(count);
};

export const deleteSubscribersOfUser = (strapi: Core.Strapi, userId: number) => q(strapi).deleteMany({ where: { userId } });

/** A newsletter's subscribers counted by locale and state. */
export const countSubscribers = async (strapi: Core.Strapi, newsletter: string) => {
  const { tableName } = strapi.db.metadata.get(SUBSCRIBER);
  const rows = (await strapi.db
    .connection(tableName)
    .where('newsletter', newsletter)
    .select('locale', 'state')
    .count({ count: '*' })
    .groupBy('locale', 'state')
    .orderBy([{ column: 'locale' }, { column: 'state' }])) as Array<{ locale: string; state: SubscriberState; count: unknown }>;
  return rows.map((row) => ({ locale: row.locale, state: row.state, count: Number(row.count) }));
};
