/**
 * The object types of the plugin's own GraphQL queries (queries.ts): the REST answers' `data`, written from the
 * same shapes (`features/<feature>/*.shapes.ts`, see shape-types.ts) with types of our own, so nothing the generated
 * resolvers would add can get in; and the comment input, written from the create shape the REST route checks.
 */
import { articleDetail, localization, media, menu, pageDetail, taxonomy } from '../content';
import {
  commentInput,
  createdComment,
  cursorPagination,
  documentRef,
  nodeAuthor,
  rootsPageResponse,
  threadMeta,
  threadReply,
  threadRoot,
} from '../comments';
import { AUTHOR, type Nexus } from './nexus';
import { shapeInputType, shapeTypes } from './shape-types';

/** The object types the queries return; each field is the REST answer's key of the same name. */
export const outputTypes = (nexus: Nexus) => [
  ...shapeTypes(
    nexus,
    [
      { name: 'BagMedia', shape: media },
      { name: 'BagTaxonomy', shape: taxonomy, description: "An article's category or tag, as REST shows it." },
      { name: 'BagLocalization', shape: localization, description: "One of the document's other published locales, for hreflang links." },
      { name: 'BagArticle', shape: articleDetail.shape.data },
      { name: 'BagPage', shape: pageDetail.shape.data },
      { name: 'BagMenu', shape: menu },
      { name: 'BagCommentAuthor', shape: nodeAuthor },
      { name: 'BagCommentReply', shape: threadReply },
      { name: 'BagCommentRoot', shape: threadRoot },
      { name: 'BagCursorPagination', shape: cursorPagination },
      { name: 'BagCommentThreadMeta', shape: threadMeta },
      { name: 'BagCommentThread', shape: rootsPageResponse },
      { name: 'BagDocumentRef', shape: documentRef },
      { name: 'BagCreatedComment', shape: createdComment },
    ],
    [AUTHOR]
  ),
  // POST /api/bag/comments' fields but `author`: the author is the caller.
  shapeInputType(nexus, {
    name: 'BagCommentInput',
    shape: commentInput,
    omit: COMMENT_INPUT_OMITS,
    descriptions: {
      article: 'documentId or numeric id of a published article.',
      parent: 'An approved comment of the same article.',
    },
  }),
];

/** The comment create shape's fields GraphQL does not take (queries.ts passes the others on as the REST body). */
export const COMMENT_INPUT_OMITS = ['author'] as const;
