/**
 * Edit and Delete on the signed-in reader's own comments (docs/comments.md#authors-edit-delete-my-comments): Edit
 * only within the edit window (`comments.editWindow`, 15 minutes unless the site changed it: EDIT_WINDOW_MS), a
 * `Edit window has passed` answer shown as a sentence beside the comment's own status; focus moves into the form.
 */
import { errorMessage, type browserClient } from './api';

type Client = Awaited<ReturnType<typeof browserClient>>;
const EDIT_WINDOW_MS = 15 * 60 * 1000;

export function ownComments(client: Client, me: { id: number }, list: HTMLElement, s: Record<string, string>, say: (text: string, isError?: boolean) => void, redraw: (focusId?: string) => Promise<void>) {
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
      if (Date.now() - Date.parse(item.dataset.created ?? '') < EDIT_WINDOW_MS) actions.append(button(s.edit, 'edit', excerpt), ' ');
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
        await client.comments.remove(id);
        await redraw();
        say(s.removed);
      } catch {
        say(s.network, true);
      }
      return;
    }
    if (item.querySelector(':scope > form.edit-form')) return;
    const form = document.createElement('form');
    form.className = 'edit-form';
    const label = document.createElement('label');
    label.htmlFor = `edit-${id}`;
    label.textContent = s.editLabel;
    const textarea = document.createElement('textarea');
    textarea.id = `edit-${id}`;
    textarea.rows = 3;
    textarea.required = true;
    textarea.value = item.dataset.content ?? '';
    const save = document.createElement('button');
    save.type = 'submit';
    save.textContent = s.save;
    const field = document.createElement('div');
    field.className = 'field';
    field.append(label, textarea);
    form.append(field, save);
    form.addEventListener('submit', async (submitEvent) => {
      submitEvent.preventDefault();
      try {
        const { data } = await client.comments.update(id, textarea.value);
        await redraw(data.status === 'approved' ? id : undefined);
        say(data.status === 'approved' ? s.updated : s.updatedPending);
      } catch (error) {
        if (/edit window/i.test(errorMessage(error))) {
          form.remove();
          item.querySelector(':scope > .own .edit')?.remove();
          say(s.editWindow, true);
          (item.querySelector<HTMLButtonElement>(':scope > .own .delete') ?? item).focus();
        } else say(s.network, true);
      }
    });
    item.querySelector(':scope > .own')?.after(form);
    textarea.focus();
  });

  return decorate;
}
