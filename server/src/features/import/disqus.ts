/**
 * A Disqus export mapped as docs/import.md#disqus says: each `thread` is matched by path (query and trailing slash
 * ignored) against the front-end paths of articles and the old WordPress addresses an import redirected; each
 * `post` becomes a comment there. A deleted post is kept as a deleted node only once a reply to it turns up; the
 * ones no reply needs are skipped at the end. Only maps of ids stay in memory.
 */
import { child, textOf, type XmlNode } from './xml-records';
import { htmlToMarkdown } from './html-markdown';
import { exportDate, type ImportRun, type Made } from './import-run';

const DSQ_ID = 'dsq:id';

/** A thread link's path: no origin, query, fragment or trailing slash. */
export const threadPath = (link: string): string | null => {
  try {
    const url = new URL(link.trim());
    return url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname;
  } catch {
    return null;
  }
};

interface DeletedPost {
  node: XmlNode;
  thread: string;
}

export const createDisqusImport = (run: ImportRun, articleByPath: (path: string) => Promise<Made | null>) => {
  const threads = new Map<string, Made | null>();
  const comments = new Map<string, Made>();
  const deleted = new Map<string, DeletedPost>();

  const thread = async (node: XmlNode) => {
    const id = node.attributes[DSQ_ID] ?? textOf(node, 'id');
    const path = threadPath(textOf(node, 'link'));
    const article = path ? await articleByPath(path) : null;
    threads.set(id, article);
    if (!article) run.skip('thread', id, 'no article');
  };

  /** Writes the post (its deleted parents first, as deleted nodes); undefined when it is not written. */
  const write = async (node: XmlNode, asDeleted: boolean): Promise<Made | undefined> => {
    const id = node.attributes[DSQ_ID] ?? '';
    const already = comments.get(id);
    if (already) return already;
    const article = threads.get(child(node, 'thread')?.attributes[DSQ_ID] ?? '');
    if (!article) return undefined;
    const sourceKey = `disqus:${id}`;
    const seen = await run.seen(sourceKey);
    if (seen) {
      run.skip('comment', id, 'exists');
      const made = { id: Number(seen.targetId), documentId: String(seen.targetDocumentId) };
      comments.set(id, made);
      return made;
    }
    const parentId = child(node, 'parent')?.attributes[DSQ_ID];
    let parent = parentId ? comments.get(parentId) : undefined;
    const deletedParent = parentId ? deleted.get(parentId) : undefined;
    if (!parent && parentId && deletedParent) {
      deleted.delete(parentId);
      parent = await write(deletedParent.node, true);
    }
    const author = child(node, 'author');
    const user = await run.userByEmail(textOf(author, 'email'));
    const content = asDeleted ? '…' : htmlToMarkdown(textOf(node, 'message')) || '…';
    const createdAt = exportDate(textOf(node, 'createdAt'));
    const made = await run.create('comment', 'comments', {
      content,
      status: textOf(node, 'isSpam') === 'true' ? 'rejected' : 'approved',
      article: article.documentId,
      ...(parent ? { parent: parent.documentId } : {}),
      ...(user ? { author: user } : { authorName: (textOf(author, 'name') || textOf(author, 'username')).slice(0, 100) || undefined }),
      ip: textOf(node, 'ipAddress').slice(0, 64) || undefined,
      ...(createdAt ? { createdAt } : {}),
    });
    if (asDeleted) await run.tombstone(made);
    await run.setCreatedAt('comment', made, createdAt);
    await run.remember(sourceKey, 'comment', made);
    comments.set(id, made);
    return made;
  };

  const post = async (node: XmlNode) => {
    const id = node.attributes[DSQ_ID] ?? '';
    const threadId = child(node, 'thread')?.attributes[DSQ_ID] ?? '';
    if (!threads.get(threadId)) return;
    if (textOf(node, 'isDeleted') === 'true') {
      if (await run.seen(`disqus:${id}`)) return run.skip('comment', id, 'exists');
      deleted.set(id, { node, thread: threadId });
      return;
    }
    await write(node, false);
  };

  return {
    async record(node: XmlNode) {
      if (node.name === 'thread') await thread(node);
      else if (node.name === 'post') await post(node);
      return node.name !== 'category';
    },
    async finish() {
      for (const id of deleted.keys()) run.skip('comment', id, 'deleted');
      deleted.clear();
    },
  };
};
