/** The search-result snippet of a document being edited and what to warn about (docs/admin.md#edit-view-side-panel). */

export const TITLE_MAX = 60;
export const DESCRIPTION_MAX = 160;

/** The form values the preview reads: articles have `title`/`summary`, pages `seoTitle`/`seoDescription` too. */
export interface SeoFields {
  title?: string | null;
  seoTitle?: string | null;
  summary?: string | null;
  seoDescription?: string | null;
  slug?: string | null;
}

export interface Snippet {
  title: string;
  description: string;
  url: string | null;
}

const text = (value: string | null | undefined) => (typeof value === 'string' ? value.trim() : '');

export const snippetOf = (values: SeoFields, urlTemplate: string | null): Snippet => ({
  title: text(values.seoTitle) || text(values.title),
  description: text(values.seoDescription) || text(values.summary),
  url: urlTemplate && text(values.slug) ? urlTemplate.replace(/\{slug\}/g, encodeURIComponent(text(values.slug))) : urlTemplate,
});

export type WarningId = 'titleLong' | 'descriptionLong' | 'descriptionMissing' | 'slugChanged';

export const seoWarnings = (snippet: Snippet, slug: string | null | undefined, publishedSlug: string | null) => {
  const warnings: { id: WarningId; values?: Record<string, number> }[] = [];
  if (snippet.title.length > TITLE_MAX) warnings.push({ id: 'titleLong', values: { length: snippet.title.length } });
  if (!snippet.description) warnings.push({ id: 'descriptionMissing' });
  else if (snippet.description.length > DESCRIPTION_MAX) warnings.push({ id: 'descriptionLong', values: { length: snippet.description.length } });
  if (publishedSlug !== null && text(slug) && text(slug) !== publishedSlug) warnings.push({ id: 'slugChanged' });
  return warnings;
};
