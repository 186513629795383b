import { errors } from '@strapi/utils';
import { checkFilterValues, checkRelationDepth, type RelationLimits } from './query-shape';

/** A small content model: articles in categories (a tree), with tags, media and an SEO component. */
const MODELS: Record<string, { attributes: Record<string, any> }> = {
  article: {
    attributes: {
      title: { type: 'string' },
      views: { type: 'integer' },
      rating: { type: 'float' },
      featured: { type: 'boolean' },
      category: { type: 'relation', relation: 'manyToOne', target: 'category' },
      tags: { type: 'relation', relation: 'manyToMany', target: 'tag' },
      cover: { type: 'media', multiple: false },
      gallery: { type: 'media', multiple: true },
      seo: { type: 'component', component: 'shared.seo' },
    },
  },
  category: {
    attributes: {
      name: { type: 'string' },
      parent: { type: 'relation', relation: 'manyToOne', target: 'category' },
      articles: { type: 'relation', relation: 'oneToMany', target: 'article' },
    },
  },
  tag: { attributes: { name: { type: 'string' }, articles: { type: 'relation', relation: 'manyToMany', target: 'article' } } },
  'shared.seo': { attributes: { metaTitle: { type: 'string' }, image: { type: 'media', multiple: false } } },
  'plugin::upload.file': { attributes: { name: { type: 'string' }, size: { type: 'decimal' } } },
};
const getModel = (uid: string) => MODELS[uid];
const DEFAULTS: RelationLimits = { maxDepth: 2, nestedToMany: false };

/** The ValidationError a check throws, as message and details; undefined when the query passes. */
const outcome = (run: () => void) => {
  try {
    run();
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(errors.ValidationError);
    return { message: (error as Error).message, details: (error as errors.ValidationError).details as Record<string, unknown> };
  }
};
const depth = (query: Record<string, unknown>, limits: RelationLimits = DEFAULTS) =>
  outcome(() => checkRelationDepth(getModel, 'article', query, limits));
const values = (filters: unknown) => outcome(() => checkFilterValues(getModel, 'article', filters));

describe('checkRelationDepth', () => {
  it('lets paths up to maxDepth through, in every form', () => {
    expect(depth({ populate: 'category.parent', sort: 'category.parent.name:asc', filters: { category: { parent: { name: 'x' } } } })).toBeUndefined();
    expect(depth({ populate: { category: { populate: { parent: true } } } })).toBeUndefined();
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['dotted populate', { populate: 'category.parent.parent' }, 'populate'],
    ['populate among others in a list', { populate: 'cover,category.parent.parent' }, 'populate'],
    ['bracket populate', { populate: { category: { populate: { parent: { populate: { parent: true } } } } } }, 'populate'],
    ['populate as an array', { populate: ['tags', 'category.parent.parent'] }, 'populate'],
    ['dotted sort', { sort: 'title:asc,category.parent.parent.name:desc' }, 'sort'],
    ['object sort', { sort: [{ category: { parent: { parent: { name: 'asc' } } } }] }, 'sort'],
    ['filters', { filters: { category: { parent: { parent: { name: 'x' } } } } }, 'filters'],
    ['filters under $or and $not', { filters: { $or: [{ title: 'a' }, { $not: { category: { parent: { parent: { name: 'x' } } } } }] } }, 'filters'],
    ['filters inside a populate', { populate: { category: { filters: { parent: { parent: { name: 'x' } } } } } }, 'populate'],
  ])('refuses a path one hop too deep: %s', (_, query, param) => {
    const refused = depth(query);
    expect(refused?.message).toBe(`Invalid ${param}: category.parent.parent goes 3 relations deep, more than content.maxRelationDepth (2)`);
    expect(refused?.details).toMatchObject({ param, path: 'category.parent.parent', maxRelationDepth: 2 });
  });

  it('counts media as a hop and walks through components without counting them', () => {
    const one = { maxDepth: 1, nestedToMany: false };
    expect(depth({ populate: 'seo.image' }, one)).toBeUndefined();
    expect(depth({ populate: 'cover' }, one)).toBeUndefined();
    expect(depth({ populate: 'category.parent' }, one)?.details).toMatchObject({ path: 'category.parent' });
    expect(depth({ populate: 'category.articles' }, { maxDepth: 1, nestedToMany: true })?.details).toMatchObject({ path: 'category.articles' });
  });

  it('refuses a to-many relation behind another relation unless nestedToMany allows it', () => {
    const refused = depth({ populate: 'category.articles' });
    expect(refused?.message).toBe(
      'Invalid populate: category.articles reaches a to-many relation through another relation, which content.nestedToMany does not allow'
    );
    expect(refused?.details).toMatchObject({ param: 'populate', nestedToMany: false });
    expect(depth({ filters: { tags: { articles: { title: 'x' } } } })?.details).toMatchObject({ param: 'filters', path: 'tags.articles' });
    expect(depth({ populate: 'category.articles' }, { maxDepth: 2, nestedToMany: true })).toBeUndefined();
    expect(depth({ populate: 'tags,gallery' })).toBeUndefined();
  });

  it('expands populate=* under a relation to every relation of the target', () => {
    expect(depth({ populate: { category: { populate: '*' } } })?.details).toMatchObject({ path: 'category.*', nestedToMany: false });
    expect(depth({ populate: { category: { populate: '*' } } }, { maxDepth: 1, nestedToMany: true })?.details).toMatchObject({
      path: 'category.*',
      maxRelationDepth: 1,
    });
    expect(depth({ populate: '*' }, { maxDepth: 1, nestedToMany: false })).toBeUndefined();
  });

  it('leaves unknown attributes to the host (its validation refuses them)', () => {
    expect(depth({ populate: 'nope.a.b.c', sort: 'nope.a.b.c:asc', filters: { nope: { a: { b: { c: 1 } } } } })).toBeUndefined();
  });
});

describe('checkFilterValues', () => {
  it.each<[string, unknown]>([
    ['integers as numbers and strings', { views: { $gt: 5, $lt: '10' }, id: { $in: ['1', 2] } }],
    ['floats in decimal and exponent notation', { rating: { $gte: '4.5', $lte: '1e3' } }],
    ['booleans in the forms the host reads', { featured: 't', $and: [{ featured: { $ne: '0' } }, { featured: true }] }],
    ['null and presence operators on any type', { views: { $null: 'yes' }, rating: null, featured: { $notNull: true } }],
    ['text operators on text', { title: { $containsi: '42' } }],
    ['values behind relations and components', { category: { name: 'x', parent: { id: '3' } }, seo: { metaTitle: 'x' } }],
  ])('accepts %s', (_, filters) => {
    expect(values(filters)).toBeUndefined();
  });

  it.each<[string, unknown, string, string]>([
    ['text for an integer', { views: { $eq: 'abc' } }, 'views.$eq', 'must be an integer in range'],
    ['a fraction for an integer', { views: '1.5' }, 'views', 'must be an integer in range'],
    ['an integer over the column', { views: { $gt: String(2 ** 31) } }, 'views.$gt', 'must be an integer in range'],
    ['text for a float', { rating: { $lt: '4,5' } }, 'rating.$lt', 'must be a number in range'],
    ['a word for a boolean', { featured: 'yes' }, 'featured', 'must be true or false'],
    ['LIKE on a number', { views: { $containsi: '1' } }, 'views.$containsi', 'cannot be used on a integer'],
    ['one bad element of a list', { views: { $in: ['1', 'x'] } }, 'views.$in', 'must be an integer in range'],
    ['a bad id behind a relation', { category: { parent: { id: 'abc' } } }, 'category.parent.id', 'must be an integer in range'],
    ['a bad value under $not', { views: { $not: { $eq: 'x' } } }, 'views.$not.$eq', 'must be an integer in range'],
    ['$or that is not a list', { $or: { views: 1 } }, '$or', 'must be a list of filters'],
    ['$not that is not a filter', { $not: 'x' }, '$not', 'must be a filter'],
    ['a bad media size', { cover: { size: { $gt: 'big' } } }, 'cover.size.$gt', 'must be a number in range'],
  ])('refuses %s, naming the path', (_, filters, path, message) => {
    const refused = values(filters);
    expect(refused?.message).toBe(`Invalid filters: ${path} ${message}`);
    expect(refused?.details).toEqual({ param: 'filters', path, source: 'query' });
  });
});
