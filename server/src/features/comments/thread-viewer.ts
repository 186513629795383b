/**
 * What a page of a thread adds for a signed-in reader (a request with a valid Bearer token; docs/comments.md#paged-threads-counts-and-the-rest-envelope):
 * `liked` on every node (the reader's like, from one statement over the page's ids) and `meta.editWindow`, the
 * seconds `comments.editWindow` leaves an author to edit a comment after `createdAt` (0: never). An anonymous page
 * is left exactly as it was: it is the one the response cache keeps, and nothing computed for one reader reaches
 * another (the cache never serves nor fills a request with a token).
 */
import type { Core } from '@strapi/strapi';
import type { PluginConfig } from '../../platform/config/schema';
import { likedByVoter } from './comment-feedback.data';
import type { PageMeta, ThreadReply } from './thread-pages';
import { voterKey } from './voter-key';
import type { ClientInfo } from '../../platform/client';

type Node = ThreadReply & { replies?: ThreadReply[] };

export const forViewer = async <T extends Node>(
  strapi: Core.Strapi,
  page: { data: T[]; meta: PageMeta },
  user: { id: number } | undefined,
  client: ClientInfo,
  config: PluginConfig
): Promise<{ data: T[]; meta: PageMeta }> => {
  if (!user) return page;
  const nodes: ThreadReply[] = page.data.flatMap((node) => [node, ...(node.replies ?? [])]);
  const liked = nodes.length ? await likedByVoter(strapi, nodes.map((node) => node.id), voterKey(strapi, { user, client })) : new Set<number>();
  for (const node of nodes) node.liked = liked.has(node.id);
  return { data: page.data, meta: { ...page.meta, editWindow: config.comments.editWindow } };
};
