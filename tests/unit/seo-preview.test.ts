/** The side panel's search-result snippet and its warnings (admin/src/components/places/seo.ts). */
import { seoWarnings, snippetOf } from '../../admin/src/components/places/seo';

describe('SEO preview', () => {
  const template = 'https://front.example/fr/blog/{slug}';

  it('takes the SEO fields first, then title and summary, and fills the slug into the front-end URL', () => {
    expect(snippetOf({ title: 'Title', seoTitle: ' SEO title ', summary: 'Summary', seoDescription: 'SEO description', slug: 'été 2026' }, template)).toEqual({
      title: 'SEO title',
      description: 'SEO description',
      url: 'https://front.example/fr/blog/%C3%A9t%C3%A9%202026',
    });
    expect(snippetOf({ title: 'Title', seoTitle: '', summary: 'Summary', seoDescription: null, slug: 's' }, null)).toEqual({ title: 'Title', description: 'Summary', url: null });
  });

  it('warns past 60 and 160 characters, without a description, and when the slug moved from the published one', () => {
    const long = snippetOf({ title: 'x'.repeat(61), summary: 'y'.repeat(161), slug: 'new' }, template);
    expect(seoWarnings(long, 'new', 'old')).toEqual([
      { id: 'titleLong', values: { length: 61 } },
      { id: 'descriptionLong', values: { length: 161 } },
      { id: 'slugChanged' },
    ]);
    const fits = snippetOf({ title: 'x'.repeat(60), summary: 'y'.repeat(160), slug: 'same' }, template);
    expect(seoWarnings(fits, 'same', 'same')).toEqual([]);
    expect(seoWarnings(snippetOf({ title: 'T', slug: 'draft' }, template), 'draft', null)).toEqual([{ id: 'descriptionMissing' }]);
  });
});
