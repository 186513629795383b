/**
 * An article's first publication queues the sends of `sendOnPublish` newsletters (docs/newsletters.md#send-on-publish):
 * around every write that may publish (`publish`, or `create` / `update` with `status: 'published'`), the article's
 * published rows are counted before and after; none before and some after is a first publication. The sends table's
 * unique (newsletter, article) makes it once per article and newsletter, ever, whatever is published later.
 */
import type { Core, Modules } from '@strapi/strapi';
import { uid } from '../../platform/plugin-id';
import { getService } from '../../platform/get-service';
import { countPublished } from './articles.data';

const ARTICLE = uid('article');
const WRITES = new Set(['create', 'update', 'publish']);

export const newsletterOnPublish =
  (strapi: Core.Strapi): Modules.Documents.Middleware.Middleware =>
  async (context, next) => {
    if (context.uid !== ARTICLE || !WRITES.has(context.action)) return next();
    const params = context.params as { documentId?: unknown; status?: unknown };
    if (context.action !== 'publish' && params.status !== 'published') return next();
    const before = typeof params.documentId === 'string' ? await countPublished(strapi, params.documentId) : 0;
    const result = await next();
    const documentId = typeof params.documentId === 'string' ? params.documentId : (result as { documentId?: unknown } | null)?.documentId;
    // Asked within the write, so that a site without such newsletters does nothing after the answer.
    if (before === 0 && typeof documentId === 'string' && (await getService(strapi, 'newsletter-sends').sendsOnPublish())) {
      // After the answer: a send is queued off the editor's request; its failure is logged, never the publication's.
      setImmediate(() => {
        getService(strapi, 'newsletter-sends')
          .firstPublished(documentId)
          .catch((error) => strapi.log.warn(`cms-plugin-bag: newsletter send on publication failed (${(error as Error).message})`));
      });
    }
    return result;
  };
