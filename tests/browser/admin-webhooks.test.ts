/**
 * The comment webhooks section of Settings → CMS Bag (docs/comments.md#webhooks), in headless Chromium against a
 * playground serving its built admin panel (`npm run build:admin`): the empty state, ticking comment events of a
 * webhook (the host's admin API then holds them and a comment reaches a real HTTP receiver on 127.0.0.1), what the
 * host's own Settings → Webhooks page does with those events on save, and a role without the webhook permissions.
 * Screenshots go to tests/artifacts (docs/admin.md shows them).
 */
import type { Browser, Page } from 'playwright-core';
import { adminLogin, createAdminWithRole, createRoleWith, type AdminCredentials } from '../helpers/admin';
import { adminUiLogin, newPage, screenshot, startWithBrowser } from '../helpers/browser';
import { createArticle } from '../helpers/comments';
import { adminToken } from '../helpers/fixtures';
import { setupStrapi, type TestApp } from '../helpers/strapi';
import { startReceiver, type Delivery, type Receiver } from '../helpers/webhooks';

const SUPER_ADMIN = { email: 'admin@example.com', password: 'Admin-password-1' };

interface Webhook {
  id: string;
  name: string;
  url: string;
  headers: Record<string, string>;
  events: string[];
  isEnabled: boolean;
}

describe('comment webhooks on Settings → CMS Bag in a browser', () => {
  let app: TestApp;
  let browser: Browser;
  let admin: string;
  let receiver: Receiver;

  beforeAll(async () => {
    // Each test logs in through the login form: more than the host's 5 admin logins per 5 minutes.
    [app, browser] = await startWithBrowser(() => setupStrapi({ serveAdmin: true, env: { ADMIN_RATE_LIMIT: 'false' } }));
    admin = await adminToken(app);
    receiver = await startReceiver();
  }, 120_000);
  afterAll(async () => {
    await receiver?.stop();
    await browser?.close();
    await app?.stop();
  });

  const loggedIn = async (credentials: AdminCredentials = SUPER_ADMIN): Promise<Page> => {
    const page = await newPage(browser);
    await adminUiLogin(page, app.url, credentials);
    return page;
  };
  const openSettings = async (page: Page) => {
    await page.goto(`${app.url}/admin/settings/cms-plugin-bag`);
    await page.getByRole('heading', { name: 'CMS Bag settings' }).waitFor();
    return page.locator('[data-testid="comment-webhooks"]');
  };
  const createWebhook = async (body: Omit<Webhook, 'id' | 'isEnabled'>): Promise<Webhook> =>
    (await app.request().post('/admin/webhooks').set('Authorization', `Bearer ${admin}`).send(body).expect(201)).body.data;
  const readWebhook = async (id: string): Promise<Webhook> =>
    (await app.request().get(`/admin/webhooks/${id}`).set('Authorization', `Bearer ${admin}`).expect(200)).body.data;
  const deleteWebhook = (id: string) => app.request().delete(`/admin/webhooks/${id}`).set('Authorization', `Bearer ${admin}`).expect(200);

  it('shows the empty state and a link to the host’s Webhooks page while no webhook exists', async () => {
    const page = await loggedIn();
    try {
      const section = await openSettings(page);
      await section.getByRole('heading', { name: 'Comment webhooks' }).waitFor();
      await section.getByText('No webhook yet — create one in Settings → Webhooks, then choose its comment events here').waitFor();
      expect(await section.locator('[data-webhook]').count()).toBe(0);
      await section.scrollIntoViewIfNeeded();
      await screenshot(page, 'settings-webhooks-empty');

      await section.getByRole('link', { name: 'Open Settings → Webhooks' }).click();
      await page.waitForURL((url) => url.pathname === '/admin/settings/webhooks');
      await page.getByRole('heading', { name: 'Webhooks' }).waitFor();
    } finally {
      await page.context().close();
    }
  });

  it('saves the ticked comment events of a webhook next to its host events; a comment posted afterwards reaches it', async () => {
    const hook = await createWebhook({ name: 'Moderation bot', url: receiver.url, headers: { 'X-Secret': 'hook-secret' }, events: ['entry.create'] });
    const page = await loggedIn();
    try {
      const section = await openSettings(page);
      const row = section.locator(`[data-webhook="${hook.id}"]`);
      await row.getByText('Moderation bot').waitFor();
      for (const name of ['Created', 'Approved', 'Rejected', 'Reported', 'Deleted']) {
        expect(await row.getByRole('checkbox', { name }).isChecked()).toBe(false);
      }
      const save = row.getByRole('button', { name: 'Save events' });
      expect(await save.isDisabled()).toBe(true);
      await row.getByRole('checkbox', { name: 'Created' }).click();
      await row.getByRole('checkbox', { name: 'Approved' }).click();
      await save.click();
      await page.getByText('Comment events saved').waitFor();
      await section.scrollIntoViewIfNeeded();
      await screenshot(page, 'settings-webhooks');

      const saved = await readWebhook(hook.id);
      expect(saved).toEqual({ ...hook, events: ['entry.create', 'bag-comment.created', 'bag-comment.approved'] });

      await page.reload();
      const reloaded = page.locator(`[data-testid="comment-webhooks"] [data-webhook="${hook.id}"]`);
      await reloaded.getByText('Moderation bot').waitFor();
      expect(await reloaded.getByRole('checkbox', { name: 'Created' }).isChecked()).toBe(true);
      expect(await reloaded.getByRole('checkbox', { name: 'Approved' }).isChecked()).toBe(true);
      expect(await reloaded.getByRole('checkbox', { name: 'Rejected' }).isChecked()).toBe(false);
    } finally {
      await page.context().close();
    }

    // Host events still reach the webhook (the article and the comment are entries), so only comment events are compared.
    const article = await createArticle(app.strapi);
    const posted = await app.request().post('/api/bag/comments').send({ content: 'Heard by the webhook', article: article.documentId }).expect(201);
    const { documentId } = posted.body.data;
    await app.request().put('/cms-plugin-bag/comments/status').set('Authorization', `Bearer ${admin}`).send({ documentIds: [documentId], status: 'rejected' }).expect(200);
    await app.request().put('/cms-plugin-bag/comments/status').set('Authorization', `Bearer ${admin}`).send({ documentIds: [documentId], status: 'approved' }).expect(200);
    const commentEvents = (received: Delivery[]) => received.filter((d) => d.body.event.startsWith('bag-comment.'));
    const delivered = commentEvents(await receiver.waitFor((received) => commentEvents(received).length >= 2));
    // Delivered from the host's queue of workers, so in any order; the comment was rejected on the way, but that event was not ticked.
    expect(delivered.map((d) => d.body.event).sort()).toEqual(['bag-comment.approved', 'bag-comment.created']);
    for (const delivery of delivered) {
      expect(delivery.headers['x-secret']).toBe('hook-secret');
      expect(delivery.body.comment).toMatchObject({ documentId, content: 'Heard by the webhook' });
    }
    expect(receiver.received.some((d) => d.body.event === 'entry.create')).toBe(true);
    receiver.received.splice(0);
    await deleteWebhook(hook.id);
  });

  it('keeps a webhook’s comment events when it is saved in the host’s Settings → Webhooks page', async () => {
    const hook = await createWebhook({ name: 'Saved by the host', url: receiver.url, headers: {}, events: ['entry.publish', 'bag-comment.created', 'bag-comment.deleted'] });
    const page = await loggedIn();
    try {
      await page.goto(`${app.url}/admin/settings/webhooks/${hook.id}`);
      const name = page.getByRole('textbox', { name: 'Name' });
      await name.waitFor();
      expect(await name.inputValue()).toBe('Saved by the host');
      await name.fill('Renamed by the host');
      // The host's checkboxes: ticking one of its own events must not touch the comment events it does not list.
      await page.getByRole('checkbox', { name: 'entry.create' }).click();
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Saved').first().waitFor();
    } finally {
      await page.context().close();
    }
    const saved = await readWebhook(hook.id);
    expect(saved.name).toBe('Renamed by the host');
    expect(saved.events).toEqual(['entry.publish', 'bag-comment.created', 'bag-comment.deleted', 'entry.create']);
    await deleteWebhook(hook.id);
  });

  it('tells a role that may read the plugin settings but not webhooks that it may not see them', async () => {
    const hook = await createWebhook({ name: 'Hidden from editors', url: receiver.url, headers: {}, events: ['bag-comment.created'] });
    const roleId = await createRoleWith(app, 'Settings editor', ['plugin::cms-plugin-bag.settings.read', 'plugin::cms-plugin-bag.settings.update']);
    const editor = await createAdminWithRole(app, roleId, 'settings-editor@example.com');
    // The section reads the host's webhook API with the admin's own token, so the host's permission applies.
    await app.request().get('/admin/webhooks').set('Authorization', `Bearer ${await adminLogin(app, editor)}`).expect(403);

    const page = await loggedIn(editor);
    try {
      const section = await openSettings(page);
      await section.getByText('Your role may not read webhooks (Settings → Webhooks permissions)').waitFor();
      expect(await section.locator('[data-webhook]').count()).toBe(0);
      expect(await page.getByText('Hidden from editors').count()).toBe(0);
      expect(await page.getByText(/error/i).count()).toBe(0);
    } finally {
      await page.context().close();
    }
    await deleteWebhook(hook.id);
  });

  it('shows a role that may read webhooks but not update them their comment events, without a way to change them', async () => {
    const hook = await createWebhook({ name: 'Read-only for auditors', url: receiver.url, headers: {}, events: ['bag-comment.reported'] });
    const roleId = await createRoleWith(app, 'Webhook auditor', ['plugin::cms-plugin-bag.settings.read', 'admin::webhooks.read']);
    const auditor = await createAdminWithRole(app, roleId, 'webhook-auditor@example.com');
    const page = await loggedIn(auditor);
    try {
      const section = await openSettings(page);
      const row = section.locator(`[data-webhook="${hook.id}"]`);
      await row.getByText('Read-only for auditors').waitFor();
      await section.getByText('Your role may read webhooks but not change their events').waitFor();
      expect(await row.getByRole('checkbox', { name: 'Reported' }).isChecked()).toBe(true);
      expect(await row.getByRole('checkbox', { name: 'Reported' }).isDisabled()).toBe(true);
      expect(await row.getByRole('button', { name: 'Save events' }).isDisabled()).toBe(true);
    } finally {
      await page.context().close();
    }
    await deleteWebhook(hook.id);
  });
});
