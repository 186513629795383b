/**
 * The signed-in reader's actions in an article's thread (docs/starter.md#the-comment-thread): likes with
 * `aria-pressed` and the new count, reports with a reason from `comments.reports.reasons`, following the thread by
 * mail, and their own comments still waiting for moderation (`GET /api/bag/comments/mine`,
 * docs/comments.md#authors-edit-delete-my-comments). Every action's button is disabled with a busy text while its
 * request runs; a refusal is a translated sentence beside the comment (focused, announced), never the server's text.
 */
import { errorMessage, errorStatus, type browserClient } from './api';

type Client = Awaited<ReturnType<typeof browserClient>>;
type Strings = Record<string, string>;

/** A translated sentence for a refused request: rate limited, closed thread, signed out, gone, else the network. */
export const friendly = (s: Strings, error: unknown) => {
  const code = errorStatus(error);
  if (code === 429) return s.tooFast;
  if (code === 401) return s.signedOut;
  if (code === 403) return /closed/i.test(errorMessage(error)) ? s.closed : /edit window/i.test(errorMessage(error)) ? s.editWindow : s.signedOut;
  if (code === 404) return s.gone;
  if (code === 400) return s.invalid;
  return s.network;
};

/** Runs `work` with `button` disabled, `aria-busy` and the busy text; the button's own text comes back after. */
export async function busy<T>(button: HTMLButtonElement, text: string, work: () => Promise<T>): Promise<T> {
  const label = button.textContent;
  button.disabled = true;
  button.setAttribute('aria-busy', 'true');
  button.textContent = text;
  try {
    return await work();
  } finally {
    button.disabled = false;
    button.removeAttribute('aria-busy');
    button.textContent = label;
  }
}

/** Shows `text` as an alert beside the comment `item` (replacing an earlier one), scrolled into view and focused. */
export function commentError(item: HTMLElement, text: string) {
  let line = item.querySelector<HTMLElement>(':scope > .comment-error');
  if (!line) {
    line = document.createElement('p');
    line.className = 'comment-error error';
    line.setAttribute('role', 'alert');
    line.tabIndex = -1;
    (item.querySelector(':scope > .content') ?? item.firstElementChild)?.after(line);
  }
  line.textContent = text;
  line.scrollIntoView({ block: 'center' });
  line.focus();
}

/** A form field: `control` with the id `id` and its label. */
export function field(control: HTMLElement, id: string, text: string) {
  const wrap = document.createElement('div');
  wrap.className = 'field';
  const label = document.createElement('label');
  label.htmlFor = id;
  label.textContent = text;
  control.id = id;
  wrap.append(label, control);
  return wrap;
}

const button = (text: string, className: string) => {
  const node = document.createElement('button');
  node.type = 'button';
  node.className = `secondary ${className}`;
  node.textContent = text;
  return node;
};

export function readerActions(client: Client, section: HTMLElement, list: HTMLElement, s: Strings, say: (text: string, isError?: boolean) => void) {
  const article = section.dataset.article as string;
  const reasons = (section.dataset.reasons ?? '').split(',').filter(Boolean);
  // Every comment carries its like count from the first render (`likes`) and, read with the reader's token, whether
  // they like it (`liked`): docs/comments.md#paged-threads-counts-and-the-rest-envelope.
  const likeLabel = (item: HTMLElement) => `${s.like} (${item.dataset.likes ?? 0})`;

  /** Adds Like and Report to every approved comment that has not got them yet (after each draw). */
  const decorate = () => {
    for (const item of list.querySelectorAll<HTMLLIElement>('li.comment:not(.pending)')) {
      if (item.dataset.content === undefined || item.querySelector(':scope > .react')) continue;
      const actions = document.createElement('span');
      actions.className = 'react';
      const like = button(likeLabel(item), 'like');
      like.setAttribute('aria-pressed', String(item.dataset.liked === 'true'));
      actions.append(like, ' ', button(s.report, 'report'));
      item.querySelector(':scope > .content')?.after(actions);
    }
  };

  list.addEventListener('click', async (event) => {
    const target = (event.target as HTMLElement).closest<HTMLButtonElement>('button.like, button.report');
    if (!target) return;
    const item = target.closest<HTMLLIElement>('li.comment')!;
    const id = item.dataset.id as string;
    if (target.classList.contains('like')) {
      const wasLiked = target.getAttribute('aria-pressed') === 'true';
      try {
        const { data } = await busy(target, s.working, () => (wasLiked ? client.comments.unlike(id) : client.comments.like(id)));
        item.dataset.likes = String(data.likes);
        item.dataset.liked = String(data.liked);
        target.textContent = likeLabel(item);
        const shown = item.querySelector(':scope > header .likes');
        if (shown) shown.textContent = (data.likes === 1 ? s.likesOne : s.likes).replace('{n}', String(data.likes));
        target.setAttribute('aria-pressed', String(data.liked));
        say(data.liked ? s.liked : s.unliked);
      } catch (error) {
        commentError(item, friendly(s, error));
      }
      return;
    }
    const open = item.querySelector<HTMLFormElement>(':scope > form.report-form');
    if (open) return open.querySelector('select')?.focus();
    const form = document.createElement('form');
    form.className = 'report-form';
    const select = document.createElement('select');
    select.required = true;
    for (const reason of reasons) select.append(new Option(s[`reason:${reason}`] ?? reason, reason));
    const send = document.createElement('button');
    send.type = 'submit';
    send.textContent = s.sendReport;
    form.append(field(select, `report-${id}`, s.reportReason), send);
    form.addEventListener('submit', async (submitEvent) => {
      submitEvent.preventDefault();
      try {
        await busy(send, s.working, () => client.comments.report(id, { reason: select.value }));
        form.remove();
        item.querySelector<HTMLButtonElement>(':scope > .react .report')?.focus();
        say(s.reported);
      } catch (error) {
        commentError(item, friendly(s, error));
      }
    });
    item.querySelector(':scope > .react')?.after(form);
    select.focus();
  });

  /** Following the thread by mail: the button tells the state (`aria-pressed`) and the status line the change. */
  const follow = section.querySelector<HTMLButtonElement>('#follow');
  const followState = section.querySelector<HTMLElement>('#follow-state');
  const showFollow = (subscribed: boolean) => {
    follow!.setAttribute('aria-pressed', String(subscribed));
    follow!.textContent = subscribed ? s.unfollow : s.follow;
    followState!.textContent = subscribed ? s.following : s.notFollowing;
  };
  if (follow && followState) {
    void client.comments.subscription(article).then((state) => {
      showFollow(state.subscribed);
      follow.parentElement!.hidden = false;
    }, () => undefined);
    follow.addEventListener('click', async () => {
      const subscribed = follow.getAttribute('aria-pressed') === 'true';
      try {
        const state = await busy(follow, s.working, () => (subscribed ? client.comments.unsubscribe(article) : client.comments.subscribe(article)));
        showFollow(state.subscribed);
        say(state.subscribed ? s.followed : s.unfollowed);
      } catch (error) {
        say(friendly(s, error), true);
      }
    });
  }

  /** The reader's own comments on this article still waiting for moderation, marked so, after the approved ones. */
  const dates = new Intl.DateTimeFormat(section.dataset.locale === 'fr' ? 'fr-FR' : 'en-GB', { dateStyle: 'long', timeZone: 'UTC' });
  const showPending = async () => {
    const { data } = await client.comments.mine({ pageSize: 100 }).catch(() => ({ data: [] as never[] }));
    list.querySelectorAll('li.comment.pending').forEach((node) => node.remove());
    for (const comment of data) {
      if (comment.status !== 'pending' || comment.article?.documentId !== article) continue;
      const item = document.createElement('li');
      item.className = 'comment pending';
      item.id = `comment-${comment.documentId}`;
      const header = document.createElement('header');
      const strong = document.createElement('strong');
      strong.textContent = s.you;
      const time = document.createElement('time');
      time.dateTime = comment.createdAt;
      time.textContent = dates.format(new Date(comment.createdAt));
      const mark = document.createElement('span');
      mark.className = 'pending-mark';
      mark.textContent = s.awaiting;
      header.append(strong, ' · ', time, ' · ', mark);
      const body = document.createElement('div');
      body.className = 'content';
      body.textContent = comment.content;
      item.append(header, body);
      list.append(item);
    }
    if (list.querySelector('li.comment.pending')) section.querySelector('#no-comments')?.remove();
  };

  return { decorate, showPending };
}
