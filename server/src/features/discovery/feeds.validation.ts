/** Query checks of the feeds (docs/discovery.md#feed-errors): `category` and `tag` by their shape; `locale` is left to the locales service. */
import { z } from 'zod/v4';
import { feedQuery } from './feeds.shapes';
import { lazyShape } from '../../platform/shapes/lazy';
import type { FeedQuery } from './feeds.service';
import { parseShape } from '../../platform/shapes/parse';

const slugs = lazyShape(() => z.object({ category: feedQuery.category, tag: feedQuery.tag }));

const present = (value: string | undefined) => (value === '' ? undefined : value);

/** `locale` (checked by the locales service), `category` and `tag` of a feed request; nothing else is read. */
export const validateFeedQuery = (query: Record<string, unknown>): FeedQuery => {
  const { category, tag } = parseShape(slugs, query, { first: true });
  return { locale: query.locale, category: present(category), tag: present(tag) };
};
