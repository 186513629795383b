/**
 * Posting and replying in an article's thread (components/Thread.astro renders the comments). After a post the
 * thread is read again and drawn from the server's `contentHtml` (sanitized Markdown, docs/comments.md#markdown);
 * focus moves to the new comment, or to the reply form that opened; every outcome is announced in the status line.
 */
import { browserClient, hasSession } from './api';
import { ownComments } from './own-comments';
import { busy, commentError, friendly, readerActions } from './thread-actions';

type Strings = Record<string, string>;
interface Node { documentId: string; content: string; author?: { id: number; username: string } | null; contentHtml?: string | null; createdAt: string; deleted?: boolean; isAdmin?: boolean; children?: Node[] }

export function postComment(section: HTMLElement) {
  const s = JSON.parse(section.dataset.strings ?? '{}') as Strings;
  const article = section.dataset.article as string;
  const api = section.dataset.api as string;
  const locale = section.dataset.locale as string;
  const closed = section.dataset.closed === 'true';
  const status = section.querySelector<HTMLElement>('#comment-status')!;
  const list = section.querySelector<HTMLOListElement>('#comment-list')!;
  const form = section.querySelector<HTMLFormElement>('#comment-form');
  const dates = new Intl.DateTimeFormat(locale === 'fr' ? 'fr-FR' : 'en-GB', { dateStyle: 'long', timeZone: 'UTC' });
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
      const me = await client.me().catch(() => null);
      if (!me) {
        if (signIn) signIn.hidden = false;
        return;
      }
      const own = ownComments(client, me, list, s, say, (focusId) => redraw(client, focusId));
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

  const render = (node: Node): HTMLLIElement => {
    const item = document.createElement('li');
    item.className = 'comment';
    item.id = `comment-${node.documentId}`;
    item.dataset.id = node.documentId;
    item.tabIndex = -1;
    const name = node.author?.username ?? (node.isAdmin ? s.site : s.guest);
    item.dataset.author = name;
    item.dataset.created = node.createdAt;
    if (node.author) item.dataset.authorId = String(node.author.id);
    if (!node.deleted) item.dataset.content = node.content;
    const header = document.createElement('header');
    const strong = document.createElement('strong');
    strong.textContent = node.deleted ? '—' : name;
    const time = document.createElement('time');
    time.dateTime = node.createdAt;
    time.textContent = dates.format(new Date(node.createdAt));
    header.append(strong, ' · ', time);
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
    replies.append(...(node.children ?? []).map(render));
    item.append(replies);
    return item;
  };

  /** Reads the thread again and draws it; the comment `focusId` (just posted and approved) gets the focus. */
  const redraw = async (client: Awaited<ReturnType<typeof browserClient>>, focusId?: string) => {
    const { data } = await client.comments.list(article);
    list.replaceChildren(...(data as unknown as Node[]).map(render));
    decorate?.();
    section.querySelector('#no-comments')?.remove();
    if (focusId) document.getElementById(`comment-${focusId}`)?.focus();
  };

  const send = async (content: string, submit: HTMLButtonElement, parent?: HTMLElement) => {
    say('');
    try {
      const client = await browserClient(api, locale);
      const { data } = await busy(submit, s.sending, () => client.comments.create({ content, article, ...(parent ? { parent: parent.dataset.id } : {}) }));
      // Drawn first, then announced: the status line speaks once the new comment is on the page.
      const approved = data.status === 'approved';
      if (approved) await redraw(client, data.documentId);
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
  section.querySelectorAll<HTMLButtonElement>('button.reply').forEach((button) => (button.hidden = false));
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
