/**
 * A comment of a paged thread drawn in the browser (components/CommentItem.astro draws the same markup on the
 * server): its like count (`likes`, docs/comments.md#paged-threads-counts-and-the-rest-envelope), the reader's own
 * like (`liked`, signed-in reads only), the replies shown and a button for the ones not shown yet (`replyCount`).
 */
import type { ThreadReply, ThreadRoot } from 'cms-plugin-bag/client';

type Strings = Record<string, string>;
export type ThreadNode = ThreadReply & { replies?: ThreadReply[] };

/** `{n}` in a translated template replaced by `n`; `one` when n is 1 (the `…One` key), else the plural. */
export const count = (s: Strings, key: string, n: number) => (n === 1 && s[`${key}One`] ? s[`${key}One`] : s[key]).replace('{n}', String(n));

/** The label of the button that shows a comment's replies not drawn yet (none left: null). */
export const moreRepliesLabel = (s: Strings, item: HTMLElement) => {
  const drawn = item.querySelectorAll(':scope > ol.replies > li.comment:not(.pending)').length;
  const left = Number(item.dataset.replyCount ?? 0) - drawn;
  return left > 0 ? count(s, drawn ? 'moreReplies' : 'showReplies', left) : null;
};

export function renderer(s: Strings, locale: string, closed: boolean, replyTo: (name: string) => string) {
  const dates = new Intl.DateTimeFormat(locale === 'fr' ? 'fr-FR' : 'en-GB', { dateStyle: 'long', timeZone: 'UTC' });

  const render = (node: ThreadNode): HTMLLIElement => {
    const item = document.createElement('li');
    item.className = 'comment';
    item.id = `comment-${node.documentId}`;
    item.dataset.id = node.documentId;
    item.tabIndex = -1;
    const name = node.author?.username ?? (node.isAdmin ? s.site : s.guest);
    item.dataset.author = name;
    item.dataset.created = node.createdAt;
    item.dataset.likes = String(node.likes);
    item.dataset.replyCount = String(node.replyCount);
    if (node.liked !== undefined) item.dataset.liked = String(node.liked);
    // A guest's name (kept from an import) has no account: no id.
    if (node.author && 'id' in node.author) item.dataset.authorId = String(node.author.id);
    if (!node.deleted) item.dataset.content = node.content;
    const header = document.createElement('header');
    const strong = document.createElement('strong');
    strong.textContent = node.deleted ? '—' : name;
    const time = document.createElement('time');
    time.dateTime = node.createdAt;
    time.textContent = dates.format(new Date(node.createdAt));
    const likes = document.createElement('span');
    likes.className = 'likes';
    likes.textContent = count(s, 'likes', node.likes);
    header.append(strong, ' · ', time, ' · ', likes);
    const body = document.createElement('div');
    body.className = 'content';
    if (node.deleted) body.textContent = s.deleted;
    // The server's rendering: markdown-it without raw HTML, then sanitize-html (docs/comments.md#markdown).
    else if (typeof node.contentHtml === 'string') body.innerHTML = node.contentHtml;
    else body.textContent = node.content;
    item.append(header, body);
    if (!closed && !node.deleted) {
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'secondary reply';
      button.textContent = s.reply;
      button.setAttribute('aria-label', replyTo(name));
      item.append(button);
    }
    const replies = document.createElement('ol');
    replies.className = 'replies';
    replies.id = `replies-${node.documentId}`;
    replies.append(...(node.replies ?? []).map(render));
    item.append(replies);
    const label = moreRepliesLabel(s, item);
    if (label) item.append(moreRepliesButton(node.documentId, label));
    return item;
  };

  return render;
}

/** The button under a comment's replies that draws the next ones (scripts/thread-paging.ts). */
export function moreRepliesButton(id: string, label: string) {
  const more = document.createElement('button');
  more.type = 'button';
  more.className = 'secondary more-replies';
  more.textContent = label;
  more.setAttribute('aria-controls', `replies-${id}`);
  return more;
}
