// An article's comment thread: pages of approved comments, posting and replying, editing and deleting one's own,
// following the thread, one's comments that await moderation, and the closed state.
import { $, client, currentUser, el, errorText, formatDate, link, paths } from './site.js';

const PAGE_SIZE = 10;

let article;
let me;
let closed = false;
let next = null;

export async function showThread(shown) {
  article = shown;
  me = await currentUser();
  document.head.append(el('link', undefined, { rel: 'alternate', type: 'application/rss+xml', title: 'Comments', href: client.comments.commentFeedUrl(article.documentId) }));
  $('comment').addEventListener('submit', postComment);
  $('more-comments').addEventListener('click', () => loadPage(next).catch(say));
  if (!me) {
    $('thread-hint').replaceChildren(link('Log in', paths.account()), ' to follow this thread and to edit or delete your comments.');
  }
  await Promise.all([refresh(), showFollow()]);
}

/** The first page of the thread, the count, and the user's comments awaiting moderation, read again. */
async function refresh() {
  const { data: counts } = await client.comments.counts([article.documentId]);
  $('comment-total').textContent = String(counts[article.documentId] ?? 0);
  await Promise.all([loadPage(null), showPending()]);
}

/** A page of roots, each with its first replies (`after`: the cursor of the page before; null: the first page). */
async function loadPage(after) {
  const { data: roots, meta } = await client.comments.page(article.documentId, { pageSize: PAGE_SIZE, ...(after ? { after } : {}) });
  // A closed thread (by a moderator, or by `comments.closeAfter`) is still read; it takes no new comment.
  closed = Boolean(meta.closed);
  $('thread-closed').hidden = !closed;
  $('comment').hidden = closed;
  const items = roots.map(commentItem);
  if (after) $('comments').append(...items);
  else $('comments').replaceChildren(...items);
  next = meta.pagination.next;
  $('more-comments').hidden = !next;
}

const isMine = (node) => Boolean(me && node.author && node.author.id === me.id);

const button = (text, onClick) => {
  const node = el('button', text, { type: 'button' });
  node.addEventListener('click', () => onClick(node));
  return node;
};

function commentItem(node) {
  const item = el('li', undefined, { className: 'comment', id: `comment-${node.documentId}` });
  item.dataset.commentId = node.documentId;

  const header = el('p', undefined, { className: 'comment-meta' });
  header.append(el('strong', node.deleted ? 'deleted' : (node.author?.username ?? 'guest')));
  if (node.isAdmin) header.append(el('span', 'site', { className: 'badge admin' }));
  if (node.pinned) header.append(el('span', 'pinned', { className: 'badge' }));
  header.append(` · ${formatDate(node.createdAt)}`);
  if (node.editedAt) header.append(' · edited');

  const body = el('div', undefined, { className: 'comment-body' });
  if (node.deleted) body.append(el('em', 'This comment was deleted.'));
  // contentHtml is the server's Markdown rendering, already filtered (sanitize-html: no raw HTML, safe links only).
  else if (node.contentHtml !== undefined) body.innerHTML = node.contentHtml;
  else body.append(el('p', node.content));

  const actions = el('p', undefined, { className: 'actions' });
  const replies = el('ul', undefined, { className: 'replies' });
  replies.append(...(node.replies ?? []).map(commentItem));
  if (!closed && !node.deleted) actions.append(button('Reply', () => openReply(item, actions, node)));
  if (isMine(node) && !node.deleted) {
    actions.append(button('Edit', () => openEdit(body, node)), button('Delete', () => deleteComment(node)));
  }
  const shownReplies = node.replies?.length ?? 0;
  if (node.replyCount > shownReplies) {
    actions.append(button(`Show ${node.replyCount} ${node.replyCount === 1 ? 'reply' : 'replies'}`, (self) => loadReplies(node, replies, self)));
  }
  item.append(header, body, actions, replies);
  return item;
}

/** Every approved direct reply of a comment, page after page, in place of the first ones shown. */
async function loadReplies(node, list, trigger) {
  const all = [];
  let after;
  do {
    const { data, meta } = await client.comments.replies(node.documentId, { pageSize: 50, after });
    all.push(...data);
    after = meta.pagination.next ?? undefined;
  } while (after);
  list.replaceChildren(...all.map(commentItem));
  trigger.remove();
}

/** A small form with a textarea: `submit` gets the text; Cancel removes the form. */
function textForm({ label, value = '', submitText, onSubmit, onCancel }) {
  const form = el('form', undefined, { className: 'inline-form' });
  const textarea = el('textarea', undefined, { name: 'content', rows: 3, required: true, value, ariaLabel: label });
  form.append(textarea, el('button', submitText, { type: 'submit' }), button('Cancel', () => onCancel(form)));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    try {
      await onSubmit(textarea.value);
    } catch (error) {
      say(error);
    }
  });
  return form;
}

function openReply(item, actions, node) {
  if (item.querySelector(':scope > form')) return;
  const form = textForm({
    label: `Reply to ${node.author?.username ?? 'guest'}`,
    submitText: 'Post reply',
    onCancel: (self) => self.remove(),
    onSubmit: async (content) => {
      const { data } = await client.comments.create({ content, article: article.documentId, parent: node.documentId });
      form.remove();
      posted(data);
      await refresh();
    },
  });
  actions.after(form);
  form.elements.content.focus();
}

function openEdit(body, node) {
  const before = [...body.childNodes];
  const form = textForm({
    label: 'Edit your comment',
    value: node.content,
    submitText: 'Save',
    onCancel: () => body.replaceChildren(...before),
    onSubmit: async (content) => {
      const { data } = await client.comments.update(node.documentId, content);
      // An approved comment that was edited goes back to the moderators unless the site approves it at once.
      say(data.status === 'approved' ? 'Comment updated.' : 'Comment updated; it is waiting for moderation again.');
      await refresh();
    },
  });
  body.replaceChildren(form);
  form.elements.content.focus();
}

async function deleteComment(node) {
  if (!window.confirm('Delete your comment?')) return;
  try {
    await client.comments.remove(node.documentId);
    say('Your comment was deleted.');
    await refresh();
  } catch (error) {
    say(error);
  }
}

async function postComment(event) {
  event.preventDefault();
  const form = event.target;
  try {
    const { data } = await client.comments.create({ content: new FormData(form).get('content'), article: article.documentId });
    form.reset();
    posted(data);
    await refresh();
  } catch (error) {
    say(error); // e.g. 403 "Comments are closed for this article", 429 when posting too fast
  }
}

function posted(comment) {
  say(comment.status === 'approved' ? 'Comment published.' : 'Thanks! Your comment is waiting for moderation.');
  $('comment-status').dataset.documentId = comment.documentId;
}

const say = (message) => {
  $('comment-status').textContent = typeof message === 'string' ? message : errorText(message);
};

/** The signed-in user's comments on this article that a moderator has not approved yet (`GET /api/bag/comments/mine`). */
async function showPending() {
  if (!me) return;
  const { data: mine } = await client.comments.mine({ pageSize: 100 });
  const waiting = mine.filter((comment) => comment.status === 'pending' && comment.article?.documentId === article.documentId);
  $('pending').hidden = waiting.length === 0;
  $('pending-comments').replaceChildren(
    ...waiting.map((comment) => {
      const item = el('li');
      item.dataset.commentId = comment.documentId;
      item.append(el('p', comment.content), el('small', `Posted ${formatDate(comment.createdAt)} · awaiting moderation`));
      return item;
    })
  );
}

/** Follow / Unfollow: a mail for each newly approved comment in the thread (signed-in users only). */
async function showFollow() {
  if (!me) return;
  const follow = $('follow');
  let { subscribed } = await client.comments.subscription(article.documentId);
  const render = () => {
    follow.textContent = subscribed ? 'Unfollow this thread' : 'Follow this thread';
    follow.ariaPressed = String(subscribed);
  };
  render();
  follow.hidden = false;
  follow.addEventListener('click', async () => {
    try {
      ({ subscribed } = subscribed ? await client.comments.unsubscribe(article.documentId) : await client.comments.subscribe(article.documentId));
      render();
    } catch (error) {
      say(error);
    }
  });
}
