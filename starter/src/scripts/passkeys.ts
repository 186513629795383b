/**
 * The account's passkeys (docs/accounts.md#passkeys): the list with each one's name and dates, rename in place,
 * remove, and add one named by the user after re-authentication (the password, or a code e-mailed for `add-passkey`;
 * with TOTP on, its current code). The passkey library (`@simplewebauthn/browser`) is loaded by the typed client only
 * when a passkey is created or used, never when the page opens. Errors go through the page's `fail`.
 */
import type { browserClient } from './api';

type Client = Awaited<ReturnType<typeof browserClient>>;
type Strings = Record<string, string>;

export function passkeysSection(client: Client, s: Strings, locale: string, fail: (error: unknown) => unknown, say: (text: string) => void) {
  const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;
  const dates = new Intl.DateTimeFormat(locale === 'fr' ? 'fr-FR' : 'en-GB', { dateStyle: 'medium' });
  const heading = $('passkeys-heading');
  const button = (text: string, onClick: () => void, className = 'secondary') => {
    const element = Object.assign(document.createElement('button'), { type: 'button', className, textContent: text });
    element.addEventListener('click', onClick);
    return element;
  };

  const refresh = async (focusId?: string) => {
    const passkeys = await client.passkeys.list();
    $('passkeys-empty').hidden = passkeys.length > 0;
    $('passkeys').replaceChildren(...passkeys.map((passkey) => {
      const item = document.createElement('li');
      item.dataset.passkeyId = passkey.id;
      const name = Object.assign(document.createElement('strong'), { textContent: passkey.name });
      const used = passkey.lastUsedAt ? `${s.lastUsed} ${dates.format(new Date(passkey.lastUsedAt))}` : s.never;
      const details = Object.assign(document.createElement('span'), { textContent: ` · ${s.added} ${dates.format(new Date(passkey.createdAt))} · ${used} ` });
      const rename = button(s.rename, () => startRename(item, passkey.id, passkey.name));
      rename.setAttribute('aria-label', `${s.rename} “${passkey.name}”`);
      rename.dataset.role = 'rename';
      const remove = button(s.remove, async () => {
        try {
          await client.passkeys.remove(passkey.id);
          await refresh();
          say(s.removed.replace('{name}', passkey.name));
          heading.focus();
        } catch (error) {
          fail(error);
        }
      });
      remove.setAttribute('aria-label', `${s.remove} “${passkey.name}”`);
      item.append(name, details, rename, ' ', remove);
      return item;
    }));
    if (focusId) $('passkeys').querySelector<HTMLElement>(`[data-passkey-id="${CSS.escape(focusId)}"] [data-role="rename"]`)?.focus();
  };

  /** The name becomes a small form in the list item; focus goes into its field, and back to Rename after. */
  const startRename = (item: HTMLElement, id: string, current: string) => {
    const form = document.createElement('form');
    const field = Object.assign(document.createElement('input'), { type: 'text', name: 'name', value: current, required: true, maxLength: 100, id: `passkey-rename-${id}` });
    const label = Object.assign(document.createElement('label'), { htmlFor: field.id, textContent: s.renameLabel.replace('{name}', current) });
    const save = Object.assign(document.createElement('button'), { type: 'submit', textContent: s.save });
    form.append(label, field, save, ' ', button(s.cancel, () => refresh(id).catch(fail)));
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      try {
        const renamed = await client.passkeys.rename(id, field.value);
        await refresh(id);
        say(s.renamed.replace('{name}', renamed.name));
      } catch (error) {
        fail(error);
        field.focus();
      }
    });
    item.replaceChildren(form);
    field.focus();
    field.select();
  };

  const addForm = $<HTMLFormElement>('passkey-add-form');
  $('passkey-send-code').addEventListener('click', async () => {
    try {
      const me = await client.me();
      await client.sendCode(me.email as string, 'add-passkey');
      $('passkey-code-field').hidden = false;
      say(s.passkeyCodeSent);
      $('passkey-code').focus();
    } catch (error) {
      fail(error);
    }
  });
  addForm.addEventListener('submit', async (event) => {
    event.preventDefault();
    const data = new FormData(addForm);
    const text = (key: string) => String(data.get(key) ?? '').trim();
    const mfaCode = text('mfaCode') || undefined;
    const proof = text('code') ? { code: text('code') } : { password: String(data.get('password') ?? '') };
    try {
      const added = await client.passkeys.register({ ...proof, mfaCode }, text('name'));
      addForm.reset();
      $('passkey-code-field').hidden = true;
      await refresh();
      say(s.passkeyAdded.replace('{name}', added.name));
      heading.focus();
    } catch (error) {
      fail(error);
    }
  });

  return () => refresh();
}
