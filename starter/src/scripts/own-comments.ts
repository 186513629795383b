/**
 * Edit and Delete on the signed-in reader's own comments (docs/comments.md#authors-edit-delete-my-comments): Edit
 * only while the edit window is open: `createdAt` + the seconds the server reports to a signed-in reader
 * (`meta.editWindow` of a page of the thread, `comments.editWindow`; 0 or unknown: no Edit); the button goes when the window closes. A
 * refused edit or delete (`Edit window has passed`, signed out, rate limited) is a translated alert beside the
 * comment, scrolled into view and focused; focus moves into the form.
 */
import type { browserClient } from './api';
import { busy, commentError, field, friendly } from './thread-actions';

type Client = Awaited<ReturnType<typeof browserClient>>;

export function ownComments(
  client: Client,
  me: { id: number },
  list: HTMLElement,
  s: Record<string, string>,
  say: (text: string, isError?: boolean) => void,
  redraw: (focusId?: string) => Promise<void>,
  editWindow: () => number | undefined
) {
  const button = (text: string, className: string, label: string) => {
    const node = document.createElement('button');
    node.type = 'button';
    node.className = `secondary ${className}`;
    node.textContent = text;
    node.setAttribute('aria-label', `${text}: ${label}`);
    return node;
  };

  /** Adds Edit and Delete to every comment of `me` under `root` (after each draw). */
  const decorate = () => {
    for (const item of list.querySelectorAll<HTMLLIElement>('li.comment')) {
      if (item.dataset.authorId !== String(me.id) || item.dataset.content === undefined || item.querySelector(':scope > .own')) continue;
      const actions = document.createElement('span');
      actions.className = 'own';
      const excerpt = item.dataset.content.slice(0, 40);
      const left = Date.parse(item.dataset.created ?? '') + (editWindow() ?? 0) * 1000 - Date.now();
      if (left > 0) {
        const edit = button(s.edit, 'edit', excerpt);
        actions.append(edit, ' ');
        // Taken away when the window closes (an open form stays: the server's answer is then told beside it).
        setTimeout(() => edit.remove(), left);
      }
      actions.append(button(s.remove, 'delete', excerpt));
      item.querySelector(':scope > .content')?.after(actions);
    }
  };

  list.addEventListener('click', async (event) => {
    const target = (event.target as HTMLElement).closest('button.edit, button.delete');
    if (!target) return;
    const item = target.closest<HTMLLIElement>('li.comment')!;
    const id = item.dataset.id as string;
    if (target.classList.contains('delete')) {
      if (!window.confirm(s.removeConfirm)) return;
      try {
        await busy(target as HTMLButtonElement, s.working, () => client.comments.remove(id));
        await redraw();
        say(s.removed);
      } catch (error) {
        commentError(item, friendly(s, error));
      }
      return;
    }
    if (item.querySelector(':scope > form.edit-form')) return;
    const form = document.createElement('form');
    form.className = 'edit-form';
    const textarea = document.createElement('textarea');
    textarea.rows = 3;
    textarea.required = true;
    textarea.value = item.dataset.content ?? '';
    const save = document.createElement('button');
    save.type = 'submit';
    save.textContent = s.save;
    form.append(field(textarea, `edit-${id}`, s.editLabel), save);
    form.addEventListener('submit', async (submitEvent) => {
      submitEvent.preventDefault();
      try {
        const { data } = await busy(save, s.saving, () => client.comments.update(id, textarea.value));
        await redraw(data.status === 'approved' ? id : undefined);
        say(data.status === 'approved' ? s.updated : s.updatedPending);
      } catch (error) {
        const text = friendly(s, error);
        if (text === s.editWindow) {
          form.remove();
          item.querySelector(':scope > .own .edit')?.remove();
        }
        commentError(item, text);
      }
    });
    item.querySelector(':scope > .own')?.after(form);
    textarea.focus();
  });

  return decorate;
}
