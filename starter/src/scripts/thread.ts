/**
 * Posting and replying in an article's thread (components/Thread.astro renders the comments). After a post the
 * thread is read again and drawn from the server's `contentHtml` (sanitized Markdown, docs/comments.md#markdown);
 * focus moves to the new comment, or to the reply form that opened; every outcome is announced in the status line.
 */
import { browserClient, hasSession } from './api';
import { ownComments } from './own-comments';
import { busy, commentError, friendly, readerActions } from './thread-actions';
import { threadPaging } from './thread-paging';
import { moreRepliesButton, moreRepliesLabel, renderer } from './thread-render';

type Strings = Record<string, string>;

export function postComment(section: HTMLElement) {
  const s = JSON.parse(section.dataset.strings ?? '{}') as Strings;
  const article = section.dataset.article as string;
  const api = section.dataset.api as string;
  const locale = section.dataset.locale as string;
  const closed = section.dataset.closed === 'true';
  const status = section.querySelector<HTMLElement>('#comment-status')!;
  const list = section.querySelector<HTMLOListElement>('#comment-list')!;
  const form = section.querySelector<HTMLFormElement>('#comment-form');
  const pageSize = Number(section.dataset.pageSize ?? 10);
  // Seconds an author may edit a comment after posting it: `meta.editWindow` of a signed-in read (unknown until then).
  let editWindow: number | undefined;
  const say = (text: string, isError = false) => {
    status.textContent = text;
    status.classList.toggle('error', isError);
  };

  // A signed-in reader gets Edit and Delete on their own comments, Like, Report, Follow and their comments waiting
  // for moderation (the client loads only for them); a signed-out reader gets a link to sign in.
  let decorate: (() => void) | undefined;
  let showPending: (() => Promise<void>) | undefined;
  const signIn = section.querySelector<HTMLElement>('#thread-sign-in');
  if (hasSession()) {
    void browserClient(api, locale).then(async (client) => {
      // The first page read again with the reader's token: their likes (`liked`) and the edit window (`meta.editWindow`).
      const [me, mine] = await Promise.all([client.me().catch(() => null), client.comments.page(article, { pageSize }).catch(() => null)]);
      if (!me) {
        if (signIn) signIn.hidden = false;
        return;
      }
      if (mine) {
        editWindow = mine.meta.editWindow;
        for (const node of mine.data.flatMap((root) => [root, ...root.replies])) {
          const item = document.getElementById(`comment-${node.documentId}`);
          if (item && node.liked !== undefined) item.dataset.liked = String(node.liked);
        }
      }
      const own = ownComments(client, me, list, s, say, (focusId) => redraw(client, focusId), () => editWindow);
      const reader = readerActions(client, section, list, s, say);
      decorate = () => {
        own();
        reader.decorate();
      };
      decorate();
      showPending = reader.showPending;
      await showPending();
    });
  } else if (signIn) signIn.hidden = false;

  const replyTo = (name: string) => (section.dataset.replyTo ?? '').replace('{name}', name);
  const render = renderer(s, locale, closed, replyTo);
  const paging = threadPaging({
    section,
    list,
    s,
    pageSize,
    client: () => browserClient(api, locale),
    render,
    say,
    read: (meta) => {
      if (meta.editWindow !== undefined) editWindow = meta.editWindow;
    },
    drawn: () => decorate?.(),
  });

  /** Reads the thread again and draws it; the comment `focusId` (just posted and approved) gets the focus. */
  const redraw = async (client: Awaited<ReturnType<typeof browserClient>>, focusId?: string) => {
    const { data, meta } = await client.comments.page(article, { pageSize });
    if (meta.editWindow !== undefined) editWindow = meta.editWindow;
    list.replaceChildren(...data.map(render));
    paging.setNext(meta.pagination.next);
    decorate?.();
    section.querySelector('#no-comments')?.remove();
    if (focusId) document.getElementById(`comment-${focusId}`)?.focus();
  };

  /** Reads the replies of `item` again (up to 100) and draws them; the reply `focusId` gets the focus. */
  const redrawReplies = async (client: Awaited<ReturnType<typeof browserClient>>, item: HTMLElement, focusId: string) => {
    const { data, meta } = await client.comments.replies(item.dataset.id as string, { pageSize: 100 });
    const replies = item.querySelector<HTMLOListElement>(':scope > ol.replies')!;
    replies.replaceChildren(...data.map(render));
    item.dataset.replyCount = String(meta.total ?? data.length);
    item.querySelector(':scope > button.more-replies')?.remove();
    const label = meta.pagination.next ? moreRepliesLabel(s, item) : null;
    if (label && meta.pagination.next) {
      const more = moreRepliesButton(item.dataset.id as string, label);
      more.dataset.next = meta.pagination.next;
      replies.after(more);
    }
    decorate?.();
    document.getElementById(`comment-${focusId}`)?.focus();
  };

  const send = async (content: string, submit: HTMLButtonElement, parent?: HTMLElement) => {
    say('');
    try {
      const client = await browserClient(api, locale);
      const { data } = await busy(submit, s.sending, () => client.comments.create({ content, article, ...(parent ? { parent: parent.dataset.id } : {}) }));
      // Drawn first, then announced: the status line speaks once the new comment is on the page.
      const approved = data.status === 'approved';
      if (approved && parent) await redrawReplies(client, parent, data.documentId);
      else if (approved) await redraw(client, data.documentId);
      else await showPending?.();
      say(approved ? s.published : s.pending);
      return true;
    } catch (error) {
      // A refused reply is told beside its comment; a refused comment in the status line under the form.
      if (parent) commentError(parent, friendly(s, error));
      else say(friendly(s, error), true);
      return false;
    }
  };

  if (form) {
    form.hidden = false;
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      const textarea = form.elements.namedItem('content') as HTMLTextAreaElement;
      if (await send(textarea.value, form.querySelector('button[type="submit"]') as HTMLButtonElement)) form.reset();
    });
  }

  // Reply buttons are rendered hidden (they need this script): shown now, and handled for comments drawn later too.
  section.querySelectorAll<HTMLButtonElement>('button.reply, button.more-replies, #more-comments[data-next]').forEach((button) => (button.hidden = false));
  list.addEventListener('click', (event) => {
    const button = (event.target as HTMLElement).closest('button.reply');
    if (!button) return;
    const item = button.closest<HTMLLIElement>('li.comment')!;
    const open = item.querySelector<HTMLFormElement>(':scope > form.reply-form');
    if (open) {
      open.querySelector('textarea')?.focus();
      return;
    }
    const reply = document.createElement('form');
    reply.className = 'reply-form';
    const id = `reply-${item.dataset.id}`;
    const label = document.createElement('label');
    label.htmlFor = id;
    label.textContent = s.yourReply;
    const textarea = document.createElement('textarea');
    textarea.id = id;
    textarea.name = 'content';
    textarea.rows = 3;
    textarea.required = true;
    const submit = document.createElement('button');
    submit.type = 'submit';
    submit.textContent = s.postReply;
    const cancel = document.createElement('button');
    cancel.type = 'button';
    cancel.className = 'secondary';
    cancel.textContent = s.cancel;
    cancel.addEventListener('click', () => {
      reply.remove();
      (button as HTMLButtonElement).focus();
    });
    const field = document.createElement('div');
    field.className = 'field';
    field.append(label, textarea);
    reply.append(field, submit, ' ', cancel);
    reply.addEventListener('submit', async (submitEvent) => {
      submitEvent.preventDefault();
      if (await send(textarea.value, submit, item)) reply.remove();
    });
    button.after(reply);
    textarea.focus();
  });
}
