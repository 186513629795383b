import { getNamedType, getNullableType, isListType, isNonNullType, type GraphQLInputObjectType, type GraphQLObjectType } from 'graphql';
import * as nexus from 'nexus';
import { z } from 'zod/v4';
import { commentInput } from '../comments/comments.shapes';
import { articleDetail, menu } from '../content/content.shapes';
import { authorType } from './nexus';
import { outputTypes } from './output-types';
import { shapeInputType } from './shape-types';

const schema = nexus.makeSchema({
  types: [
    ...outputTypes(nexus),
    authorType(nexus),
    nexus.scalarType({ name: 'DateTime', serialize: (value) => value }),
    nexus.scalarType({ name: 'JSON', serialize: (value) => value }),
    nexus.queryType({
      definition(t) {
        for (const type of ['BagArticle', 'BagPage', 'BagMenu', 'BagCommentThread', 'BagCreatedComment']) t.field(`a${type}`, { type });
      },
    }),
  ],
  outputs: false,
  shouldGenerateArtifacts: false,
});
const fields = (name: string) => (schema.getType(name) as GraphQLObjectType).getFields();

describe('GraphQL object types from the answer shapes', () => {
  it('give BagArticle exactly the fields of the REST detail shape', () => {
    expect(Object.keys(fields('BagArticle')).sort()).toEqual(Object.keys(articleDetail.shape.data.shape).sort());
  });

  it('map types and nullability from the shape', () => {
    const article = fields('BagArticle');
    expect(String(article.id.type)).toBe('Int!');
    expect(String(article.documentId.type)).toBe('ID!');
    expect(String(article.title.type)).toBe('String!');
    expect(String(article.summary.type)).toBe('String');
    expect(String(article.cover.type)).toBe('BagMedia');
    expect(String(article.tags.type)).toBe('[BagTaxonomy!]');
    expect(String(article.author.type)).toBe('BagAuthor');
    expect(String(article.publishedAt.type)).toBe('DateTime');
    expect(String(article.localizations.type)).toBe('[BagLocalization!]!');
    expect(article.views.description).toBe('Views including this read.');
    expect(String(fields('BagMedia').size.type)).toBe('Float');
  });

  it('send a tree without a type of its own as JSON (menu items)', () => {
    const items = fields('BagMenu').items;
    expect(Object.keys(fields('BagMenu')).sort()).toEqual(Object.keys(menu.shape).sort());
    expect(isNonNullType(items.type) && !isListType(getNullableType(items.type)) && getNamedType(items.type).name).toBe('JSON');
  });

  it('refer to the comment types by name', () => {
    expect(String(fields('BagCommentThread').data.type)).toBe('[BagCommentRoot!]!');
    expect(String(fields('BagCommentRoot').replies.type)).toBe('[BagCommentReply!]!');
    expect(String(fields('BagCommentThreadMeta').pagination.type)).toBe('BagCursorPagination!');
    expect(String(fields('BagCreatedComment').parent.type)).toBe('BagDocumentRef');
  });
});

describe('the GraphQL comment input from the comment create shape (docs/graphql.md)', () => {
  const inputFields = (name: string) => (schema.getType(name) as GraphQLInputObjectType).getFields();

  it('has the fields of the create shape but author, typed and nullable as the shape says', () => {
    const input = inputFields('BagCommentInput');
    expect(Object.keys(input)).toEqual(Object.keys(commentInput.shape).filter((key) => key !== 'author'));
    expect(Object.fromEntries(Object.entries(input).map(([key, field]) => [key, String(field.type)]))).toEqual({
      content: 'String!',
      article: 'ID!',
      parent: 'ID',
    });
    expect(input.article.description).toBe('documentId or numeric id of a published article.');
  });

  it('shows a field added to the shape', () => {
    const extended = commentInput.extend({ rating: z.number().int().optional(), guestName: z.string() });
    const built = nexus.makeSchema({
      types: [
        shapeInputType(nexus, { name: 'Extended', shape: extended, omit: ['author'] }),
        nexus.queryType({ definition: (t) => t.field('x', { type: 'String', args: { data: nexus.arg({ type: 'Extended' }) } }) }),
      ],
      outputs: false,
      shouldGenerateArtifacts: false,
    });
    const fields = (built.getType('Extended') as GraphQLInputObjectType).getFields();
    expect(Object.fromEntries(Object.entries(fields).map(([key, field]) => [key, String(field.type)]))).toEqual({
      content: 'String!',
      article: 'ID!',
      parent: 'ID',
      rating: 'Int',
      guestName: 'String!',
    });
  });
});
