/**
 * The paged thread in the browser (docs/starter.md#the-comment-thread): *Show more comments* reads the next page of
 * roots with the cursor the last page gave (`meta.pagination.next`), *Show replies* / *Show more replies* the next
 * replies of one comment (`comments.replies`). What appeared gets the focus (its first comment) and the status line
 * says how many were added; a failure is told there and the button stays for a retry.
 */
import type { browserClient } from './api';
import { busy } from './thread-actions';
import { count, moreRepliesLabel, type ThreadNode } from './thread-render';

type Client = Awaited<ReturnType<typeof browserClient>>;
type Strings = Record<string, string>;
/** The replies endpoint's largest page (`comments.thread.maxPageSize`, default 100). */
const MAX_PAGE = 100;

export function threadPaging(options: {
  section: HTMLElement;
  list: HTMLOListElement;
  s: Strings;
  pageSize: number;
  client: () => Promise<Client>;
  render: (node: ThreadNode) => HTMLLIElement;
  say: (text: string, isError?: boolean) => void;
  /** Called with every page read (the signed-in reader's `meta.editWindow`) and after comments were drawn. */
  read: (meta: { editWindow?: number }) => void;
  drawn: () => void;
}) {
  const { section, list, s, pageSize, render, say } = options;
  const moreComments = section.querySelector<HTMLButtonElement>('#more-comments');
  const article = section.dataset.article as string;

  /** Draws `nodes` at the end of `into` (those already there skipped), then focuses the first new one. */
  const append = (into: HTMLOListElement, nodes: ThreadNode[], announce: string) => {
    const fresh = nodes.filter((node) => !document.getElementById(`comment-${node.documentId}`)).map(render);
    // Before the reader's comments waiting for moderation, which stay last.
    const pending = into.querySelector(':scope > li.comment.pending');
    for (const item of fresh) into.insertBefore(item, pending);
    options.drawn();
    fresh[0]?.focus();
    say(count(s, announce, fresh.length));
    return fresh.length;
  };

  /** Sets the cursor of the next page of roots, or takes the button away after the last page. */
  const setNext = (next: string | null | undefined) => {
    if (!moreComments) return;
    if (next) moreComments.dataset.next = next;
    moreComments.hidden = !next;
  };

  moreComments?.addEventListener('click', async () => {
    try {
      const client = await options.client();
      const page = await busy(moreComments, s.loading, () => client.comments.page(article, { pageSize, after: moreComments.dataset.next }));
      options.read(page.meta);
      // The focus leaves the button before it may go.
      const added = append(list, page.data, 'shownComments');
      setNext(page.meta.pagination.next);
      if (!added && moreComments.hidden) list.querySelector<HTMLElement>(':scope > li.comment:last-of-type')?.focus();
    } catch {
      say(s.loadFailed, true);
    }
  });

  list.addEventListener('click', async (event) => {
    const button = (event.target as HTMLElement).closest<HTMLButtonElement>('button.more-replies');
    if (!button) return;
    const item = button.closest<HTMLLIElement>('li.comment')!;
    const replies = item.querySelector<HTMLOListElement>(':scope > ol.replies')!;
    const drawn = replies.querySelectorAll(':scope > li.comment').length;
    try {
      const client = await options.client();
      // The first read starts at the oldest reply (the shown ones are skipped); later ones follow its cursor.
      const after = button.dataset.next;
      const size = after ? pageSize : Math.min(MAX_PAGE, drawn + pageSize);
      const page = await busy(button, s.loading, () => client.comments.replies(item.dataset.id as string, { pageSize: size, after }));
      options.read(page.meta);
      if (page.meta.total !== undefined) item.dataset.replyCount = String(page.meta.total);
      append(replies, page.data, 'shownReplies');
      const label = page.meta.pagination.next ? moreRepliesLabel(s, item) : null;
      if (label && page.meta.pagination.next) {
        button.dataset.next = page.meta.pagination.next;
        button.textContent = label;
      } else {
        button.remove();
        if (document.activeElement === document.body) item.focus();
      }
    } catch {
      say(s.loadFailed, true);
    }
  });

  return { setNext };
}
