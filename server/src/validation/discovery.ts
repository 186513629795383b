/** Query checks of the feeds (docs/discovery.md#feed-errors): each throws the host's ValidationError naming the parameter. */
import { fieldError } from '../domain/errors';

export interface FeedQueryInput {
  locale?: unknown;
  category?: string;
  tag?: string;
}

/** A slug parameter: absent (or empty), or one string (`?tag=a&tag=b` and `?tag[x]=a` → 400 naming it). */
const slug = (query: Record<string, unknown>, name: string): string | undefined => {
  const value = query[name];
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string') throw fieldError(name, 'must be one slug', `${name} must be one slug`);
  return value;
};

/** `locale` (checked by the locales service), `category` and `tag` of a feed request; nothing else is read. */
export const validateFeedQuery = (query: Record<string, unknown>): FeedQueryInput => ({
  locale: query.locale,
  category: slug(query, 'category'),
  tag: slug(query, 'tag'),
});
