/**
 * Sends (docs/newsletters.md#sends): an editor's send of an article, or the one a `sendOnPublish` newsletter queues on
 * an article's first publication; once per article and newsletter, ever. The recipients are fixed when the send
 * starts; delivery.ts mails them. A test send mails one address and records nothing.
 */
import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import { getService } from '../../platform/get-service';
import { ConflictError } from '../../platform/errors';
import { siteOf } from '../discovery';
import { unsubscribeUrl } from './links';
import { newsletterMail, renderArticle } from './mail';
import { publishedVersions, articleExists, type PublishedArticle } from './articles.data';
import { allNewsletters, countSendOnPublish, newslettersByDocumentId, countSubscribers, type NewsletterRow } from './subscriptions.data';
import { fixRecipients, insertSend, listSends, moveSend, recipientCounts, sendById, type SendRow } from './sends.data';
import { NOT_FOUND } from './subscriptions';

export const ALREADY_SENT = 'Already sent';
export const ARTICLE_NOT_FOUND = 'Article not found';
export const SEND_NOT_FOUND = 'Send not found';
export const NOT_PUBLISHED = 'The article has no published version in that locale';

const iso = (value: string | Date | null | undefined) => (value ? new Date(value).toISOString() : null);

const newsletterSends = ({ strapi }: { strapi: Core.Strapi }) => {
  const subscriptions = () => getService(strapi, 'newsletter-subscriptions');
  const config = () => getService(strapi, 'settings').get();

  const newsletterOf = async (documentId: string): Promise<NewsletterRow> => {
    const [row] = await newslettersByDocumentId(strapi, [documentId]);
    if (!row) throw new errors.NotFoundError(NOT_FOUND);
    return row;
  };

  /** The site, the article's published versions (in `locale` when given), the newsletter: what every send needs. */
  const prepare = async (newsletterId: string, article: string, locale: string | undefined) => {
    await subscriptions().assertEnabled();
    const newsletter = await newsletterOf(newsletterId);
    const settings = await config();
    const site = siteOf(strapi, settings, await getService(strapi, 'locales').defaultLocale());
    if (!(await articleExists(strapi, article))) throw new errors.NotFoundError(ARTICLE_NOT_FOUND);
    const wanted = locale === undefined ? undefined : (await getService(strapi, 'locales').resolve(locale)).locale;
    const versions = (await publishedVersions(strapi, article)).filter((v) => wanted === undefined || v.locale === wanted);
    if (versions.length === 0) throw new errors.ValidationError(NOT_PUBLISHED);
    return { newsletter, settings, site, versions, locale: wanted };
  };

  const present = async (rows: SendRow[]) => {
    const counts = await recipientCounts(strapi, rows.map((r) => r.id));
    const names = new Map((await newslettersByDocumentId(strapi, [...new Set(rows.map((r) => r.newsletter))])).map((n) => [n.documentId, n.name]));
    const titles = new Map<string, string>();
    for (const article of new Set(rows.map((r) => r.article))) {
      const [version] = await publishedVersions(strapi, article);
      if (version) titles.set(article, version.title);
    }
    return rows.map((row) => ({
      id: row.id,
      newsletter: { documentId: row.newsletter, name: names.get(row.newsletter) ?? null },
      article: { documentId: row.article, title: titles.get(row.article) ?? null },
      locale: row.locale ?? null,
      status: row.status,
      total: Number(row.total ?? 0),
      sent: counts.get(row.id)?.sent ?? 0,
      failed: counts.get(row.id)?.failed ?? 0,
      createdAt: iso(row.createdAt)!,
      finishedAt: iso(row.finishedAt),
    }));
  };

  const service = {
    /** Queues a send (201 `{ id, status, total }`), or mails `test` only. 409 `Already sent` the second time. */
    async start(newsletterId: string, input: { article: string; locale?: string; test?: string }) {
      const { newsletter, settings, site, versions, locale } = await prepare(newsletterId, input.article, input.locale);
      if (input.test) {
        const version = versions[0];
        const mail = service.mailFor(newsletter, version, site, input.test.trim(), unsubscribeUrl(strapi, 0), settings.newsletters.from);
        await strapi.plugin('email').service('email').send(mail);
        return { id: null, status: 'done', total: 1 };
      }
      const send = await insertSend(strapi, { newsletter: newsletter.documentId, article: input.article, locale: locale ?? null });
      if (!send) throw new ConflictError(ALREADY_SENT);
      const total = await fixRecipients(strapi, send.id, newsletter.documentId, versions.map((v) => v.locale));
      getService(strapi, 'newsletter-delivery').kick();
      return { id: send.id, status: send.status, total };
    },

    /** The mail of one article version to one address. */
    mailFor(newsletter: NewsletterRow, version: PublishedArticle, site: ReturnType<typeof siteOf>, to: string, unsubscribe: string, from?: string) {
      const rendered = renderArticle({
        title: version.title,
        content: version.content,
        summary: version.summary,
        link: site.link('article', version.slug, version.locale),
        cover: version.cover?.url ? site.media(version.cover.url) : null,
      });
      return newsletterMail(rendered, newsletter, to, unsubscribe, site.url, from);
    },

    async list(filter: { newsletter?: string; article?: string }) {
      const where: Record<string, unknown> = {};
      if (filter.newsletter) where.newsletter = filter.newsletter;
      if (filter.article) where.article = filter.article;
      return present(await listSends(strapi, where));
    },

    async get(id: number) {
      const row = await sendById(strapi, id);
      if (!row) throw new errors.NotFoundError(SEND_NOT_FOUND);
      return (await present([row]))[0];
    },

    async cancel(id: number) {
      const row = await sendById(strapi, id);
      if (!row) throw new errors.NotFoundError(SEND_NOT_FOUND);
      await moveSend(strapi, id, ['queued', 'sending'], 'cancelled', new Date(getService(strapi, 'clock').now()));
      return service.get(id);
    },

    /** Every newsletter with its subscribers by locale and state (the admin page). */
    async newsletters() {
      const rows = await allNewsletters(strapi);
      return Promise.all(rows.map(async (n) => ({ documentId: n.documentId, slug: n.slug, name: n.name, subscribers: await countSubscribers(strapi, n.documentId) })))
    },

    async subscribers(newsletterId: string) {
      const newsletter = await newsletterOf(newsletterId);
      return countSubscribers(strapi, newsletter.documentId);
    },

    /**
     * An article's first publication: a send by every `sendOnPublish` newsletter whose categories hold the article's
     * (or that has none). Without `site.url` or with newsletters off nothing is queued (logged).
     */
    /** Whether a first publication has anything to queue: a newsletter with `sendOnPublish`, newsletters on. */
    async sendsOnPublish() {
      return (await countSendOnPublish(strapi)) > 0 && (await config()).newsletters.enabled;
    },

    async firstPublished(article: string) {
      const settings = await config();
      if (!settings.newsletters.enabled) return;
      const versions = await publishedVersions(strapi, article);
      if (versions.length === 0) return;
      const categories = new Set(versions.map((v) => v.category?.documentId).filter(Boolean));
      const auto = (await allNewsletters(strapi)).filter((n) => n.sendOnPublish);
      for (const newsletter of auto) {
        const own = (newsletter.categories ?? []).map((c) => c.documentId);
        if (own.length > 0 && !own.some((c) => categories.has(c))) continue;
        try {
          await service.start(newsletter.documentId, { article });
        } catch (error) {
          if ((error as Error).message !== ALREADY_SENT) strapi.log.warn(`cms-plugin-bag: newsletter send on publication not queued (${(error as Error).message})`);
        }
      }
    },
  };

  return service;
};

export type NewsletterSendsService = ReturnType<typeof newsletterSends>;
export default newsletterSends;
