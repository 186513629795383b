/**
 * An item's `wp:comment`s (docs/import.md#wordpress-comments): states, threading, dates, IPs and guests' names;
 * pingbacks, trackbacks, trashed comments and comments on pages are skipped. Each comment keeps its source key
 * (`wordpress:<base_blog_url>:<post_id>:comment:<comment_id>`), so a run that died part-way adds only the rest.
 */
import { childrenOf, textOf, type XmlNode } from './xml-records';
import { htmlToMarkdown } from './html-markdown';
import { exportDate, type ImportRun, type Made } from './import-run';

const STATUS: Record<string, string> = { '1': 'approved', '0': 'pending', spam: 'rejected' };

export const wordpressComments = async (
  run: ImportRun,
  item: XmlNode,
  { kind, article, key }: { kind: 'article' | 'page'; article: Made; key: (id: string) => string },
) => {
  const postId = textOf(item, 'wp:post_id');
  const nodes = childrenOf(item, 'wp:comment');
  const made = new Map<string, Made>();
  // Parents first: a reply waits until the comment it answers is written (or known to be skipped).
  const pending = nodes.map((node) => ({ node, id: textOf(node, 'wp:comment_id'), parent: textOf(node, 'wp:comment_parent') || '0' }));
  const gone = new Set<string>();
  while (pending.length > 0) {
    const index = pending.findIndex((c) => c.parent === '0' || made.has(c.parent) || gone.has(c.parent) || !pending.some((o) => o.id === c.parent));
    const [{ node, id, parent }] = pending.splice(index === -1 ? 0 : index, 1);
    const type = textOf(node, 'wp:comment_type');
    const approved = textOf(node, 'wp:comment_approved');
    const reason =
      kind === 'page' ? 'page comment' : type === 'pingback' || type === 'trackback' ? type : STATUS[approved] ? null : approved || 'no state';
    if (reason) {
      run.skip('comment', id, reason);
      gone.add(id);
      continue;
    }
    const sourceKey = key(`${postId}:comment:${id}`);
    const seen = await run.seen(sourceKey);
    if (seen) {
      run.skip('comment', id, 'exists');
      made.set(id, { id: Number(seen.targetId), documentId: String(seen.targetDocumentId) });
      continue;
    }
    const author = await run.userByEmail(textOf(node, 'wp:comment_author_email'));
    const content = htmlToMarkdown(textOf(node, 'wp:comment_content')) || '…';
    const parentMade = made.get(parent);
    const createdAt = exportDate(textOf(node, 'wp:comment_date_gmt')) ?? exportDate(textOf(node, 'wp:comment_date'));
    const comment = await run.create('comment', 'comments', {
      content,
      status: STATUS[approved],
      article: article.documentId,
      ...(parentMade ? { parent: parentMade.documentId } : {}),
      ...(author ? { author } : { authorName: textOf(node, 'wp:comment_author').slice(0, 100) || undefined }),
      ip: textOf(node, 'wp:comment_author_IP').slice(0, 64) || undefined,
      ...(createdAt ? { createdAt } : {}),
    });
    await run.setCreatedAt('comment', comment, createdAt);
    await run.remember(sourceKey, 'comment', comment);
    made.set(id, comment);
  }
};
