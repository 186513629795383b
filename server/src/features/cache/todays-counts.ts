/**
 * The view counts a cached answer shows, as of now (a hit never serves counts from memory): a detail's read counts
 * itself (its document's count raised, the new value back: features/content/view-batches.ts shares the statement
 * between concurrent reads); a list's counts are read once for the concurrent hits of one page, each hit given counts
 * read after it came (shared-reads.ts).
 */
import type { Core } from '@strapi/strapi';
import { viewCounts } from './views.data';
import { getService } from '../../platform/get-service';
import type { ViewSlots } from './cache-entry';
import { sharedReads } from './shared-reads';

export function todaysCounts(strapi: Core.Strapi) {
  let viewsService: ReturnType<typeof getService<'views'>> | undefined;
  const countReads = sharedReads<Map<number, number>>();
  /** The counts for `slots`, in their order; null when a counted row is gone (the answer is then computed anew). */
  return async (slots: ViewSlots, counting = true): Promise<number[] | null> => {
    if (slots.kind === 'detail') {
      // A crawler's read shows the count without adding to it (docs/readers.md#what-counts).
      const service = (viewsService ??= getService(strapi, 'views'));
      const count = await (counting ? service.increment(slots.uid as never, slots.documentId, slots.locale) : service.current(slots.uid as never, slots.documentId));
      return count === null ? null : [count];
    }
    const rows = await countReads(`${slots.uid}\n${slots.ids.join(',')}`, () => viewCounts(strapi, slots.uid, slots.ids));
    if (slots.ids.some((id) => !rows.has(id))) return null;
    return slots.ids.map((id) => rows.get(id)!);
  };
}
