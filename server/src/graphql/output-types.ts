/**
 * The object types of the plugin's own GraphQL queries (queries.ts): the REST answers' `data`, typed field by field
 * with types of our own, so nothing the generated resolvers would add can get in.
 */
import { AUTHOR_TYPE, type Nexus, type ObjectDefinition } from './nexus';

const dateFields = (t: ObjectDefinition, ...names: string[]) => {
  for (const name of names) t.field(name, { type: 'DateTime' });
};

/** A comment node of a thread page, root or reply (the REST page's node keys). */
const commentNodeFields = (t: ObjectDefinition) => {
  t.nonNull.int('id');
  t.nonNull.id('documentId');
  t.nonNull.string('content');
  t.nonNull.field('createdAt', { type: 'DateTime' });
  t.nonNull.boolean('isAdmin');
  t.nonNull.int('likes');
  t.field('author', { type: AUTHOR_TYPE });
  t.nonNull.int('replyCount', { description: 'Approved direct replies.' });
};

/** The object types the queries return; each field is the REST answer's key of the same name. */
export const outputTypes = (nexus: Nexus) => [
  nexus.objectType({
    name: 'BagMedia',
    definition(t) {
      t.nonNull.int('id');
      t.nonNull.id('documentId');
      t.string('name');
      t.string('alternativeText');
      t.string('caption');
      t.int('width');
      t.int('height');
      t.field('formats', { type: 'JSON' });
      t.string('hash');
      t.string('ext');
      t.string('mime');
      t.float('size');
      t.string('url');
      t.string('previewUrl');
      t.string('provider');
      t.field('provider_metadata', { type: 'JSON' });
      dateFields(t, 'createdAt', 'updatedAt', 'publishedAt');
    },
  }),
  nexus.objectType({
    name: 'BagTaxonomy',
    description: "An article's category or tag, as REST shows it.",
    definition(t) {
      t.nonNull.int('id');
      t.nonNull.id('documentId');
      t.string('title');
      t.string('slug');
      t.string('description');
      t.string('locale');
      dateFields(t, 'createdAt', 'updatedAt', 'publishedAt');
    },
  }),
  nexus.objectType({
    name: 'BagLocalization',
    description: "One of the document's other published locales, for hreflang links.",
    definition(t) {
      t.nonNull.string('locale');
      t.nonNull.string('slug');
    },
  }),
  nexus.objectType({
    name: 'BagArticle',
    definition(t) {
      t.nonNull.int('id');
      t.nonNull.id('documentId');
      t.string('title');
      t.string('slug');
      t.string('summary');
      t.string('content');
      t.boolean('isTop');
      t.int('views', { description: 'Views including this read.' });
      t.field('cover', { type: 'BagMedia' });
      t.field('category', { type: 'BagTaxonomy' });
      t.list.nonNull.field('tags', { type: 'BagTaxonomy' });
      t.field('author', { type: AUTHOR_TYPE });
      t.string('locale', { description: 'The locale of the version served (the default one when served by fallback).' });
      t.nonNull.list.nonNull.field('localizations', { type: 'BagLocalization', description: "The document's other published locales." });
      dateFields(t, 'createdAt', 'updatedAt', 'publishedAt');
    },
  }),
  nexus.objectType({
    name: 'BagPage',
    definition(t) {
      t.nonNull.int('id');
      t.nonNull.id('documentId');
      t.string('title');
      t.string('slug');
      t.string('content');
      t.field('cover', { type: 'BagMedia' });
      t.string('seoTitle');
      t.string('seoKeywords');
      t.string('seoDescription');
      t.int('views', { description: 'Views including this read.' });
      t.string('locale', { description: 'The locale of the version served (the default one when served by fallback).' });
      t.nonNull.list.nonNull.field('localizations', { type: 'BagLocalization', description: "The document's other published locales." });
      dateFields(t, 'createdAt', 'updatedAt', 'publishedAt');
    },
  }),
  nexus.objectType({
    name: 'BagMenu',
    definition(t) {
      t.nonNull.int('id');
      t.nonNull.id('documentId');
      t.string('title');
      t.string('slug');
      t.string('locale', { description: 'The locale served: the requested one, or the default one by content.localeFallback.' });
      t.nonNull.field('items', {
        type: 'JSON',
        description: 'The tree of GET /api/bag/menus/:slug: items with their attributes and `children`, in order.',
      });
    },
  }),
  nexus.objectType({
    name: 'BagCommentReply',
    definition(t) {
      commentNodeFields(t);
    },
  }),
  nexus.objectType({
    name: 'BagCommentRoot',
    definition(t) {
      commentNodeFields(t);
      t.nonNull.list.nonNull.field('replies', { type: 'BagCommentReply', description: 'The first approved replies, oldest first.' });
    },
  }),
  nexus.objectType({
    name: 'BagCursorPagination',
    definition(t) {
      t.nonNull.int('pageSize');
      t.nonNull.boolean('hasMore');
      t.string('next', { description: 'The `after` of the next page; null on the last page.' });
    },
  }),
  nexus.objectType({
    name: 'BagCommentThreadMeta',
    definition(t) {
      t.nonNull.field('pagination', { type: 'BagCursorPagination' });
      t.int('total', { description: "The article's approved roots." });
    },
  }),
  nexus.objectType({
    name: 'BagCommentThread',
    definition(t) {
      t.nonNull.list.nonNull.field('data', { type: 'BagCommentRoot' });
      t.nonNull.field('meta', { type: 'BagCommentThreadMeta' });
    },
  }),
  nexus.objectType({
    name: 'BagDocumentRef',
    definition(t) {
      t.nonNull.int('id');
      t.nonNull.id('documentId');
    },
  }),
  nexus.objectType({
    name: 'BagCreatedComment',
    definition(t) {
      t.nonNull.int('id');
      t.nonNull.id('documentId');
      t.nonNull.string('content');
      t.nonNull.string('status', { description: '`pending` until a moderator approves it, or `approved` with comments.autoApprove.' });
      t.nonNull.field('createdAt', { type: 'DateTime' });
      t.nonNull.boolean('isAdmin');
      t.field('parent', { type: 'BagDocumentRef' });
      t.nonNull.field('article', { type: 'BagDocumentRef' });
    },
  }),
  nexus.inputObjectType({
    name: 'BagCommentInput',
    definition(t) {
      t.nonNull.string('content');
      t.nonNull.id('article', { description: 'documentId or numeric id of a published article.' });
      t.id('parent', { description: 'An approved comment of the same article.' });
    },
  }),
];

