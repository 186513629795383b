/** What the comment rules share: the comment uid and the parameters of a Document Service call. */
import type { Modules } from '@strapi/strapi';
import { uid } from '../../platform/plugin-id';

export const COMMENT = uid('comment');

export type Params = { documentId?: string; data?: Record<string, unknown> };

type Context = Parameters<Modules.Documents.Middleware.Middleware>[0];

/** The call's parameters when it is about comments, else undefined (the rule lets it through untouched). */
export const commentParams = (context: Context): Params | undefined =>
  context.uid === COMMENT ? (context.params as Params) : undefined;
