import { CmsBagError, createClient, isMfaChallenge, localStorageAdapter } from '/cms-bag-client.mjs';

const client = createClient({ storage: localStorageAdapter() });
const $ = (id) => document.getElementById(id);
let captchaKey;
let article;

const el = (tag, text, attributes = {}) => {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  Object.assign(node, attributes);
  return node;
};

const renderTree = (list, nodes, render) => {
  list.replaceChildren(
    ...nodes.map((node) => {
      const item = render(node);
      if (node.children.length) {
        const sub = el('ul');
        renderTree(sub, node.children, render);
        item.append(sub);
      }
      return item;
    })
  );
};

async function showCaptcha() {
  const { key, svg } = await client.getCaptcha();
  captchaKey = key;
  $('captcha-image').innerHTML = svg;
  $('captcha').hidden = false;
}

async function showAccount() {
  if (!(await client.isLoggedIn())) {
    $('account').textContent = 'Not logged in: comments are posted as a guest.';
    $('logout').hidden = true;
    $('account-page').hidden = true;
    document.dispatchEvent(new CustomEvent('bag:account-shown'));
    return;
  }
  const me = await client.me().catch(() => null);
  $('account').textContent = me ? `Logged in as ${me.username}` : 'Session expired, please log in again.';
  $('logout').hidden = !me;
  $('account-page').hidden = !me;
  if (me) await showSessions();
  document.dispatchEvent(new CustomEvent('bag:account-shown'));
}

/** The account page: where the user is signed in, each session with its own button to end it. */
async function showSessions() {
  const sessions = await client.sessions();
  $('sessions').replaceChildren(
    ...sessions.map((session) => {
      const item = el('li');
      item.dataset.sessionId = String(session.id);
      item.append(el('span', `${session.userAgent || 'unknown device'} · ${session.ip || 'unknown IP'} · since ${new Date(session.createdAt).toLocaleString()}`));
      if (session.current) item.append(el('strong', ' (this browser)'));
      else {
        const button = el('button', 'Sign out', { type: 'button' });
        button.addEventListener('click', async () => {
          await client.revokeSession(session.id);
          await showSessions();
        });
        item.append(' ', button);
      }
      return item;
    })
  );
}

const accountStatus = (text) => {
  $('account-status').textContent = text;
};
const failed = (error) => accountStatus(error instanceof CmsBagError ? error.message : String(error));

$('revoke-others').addEventListener('click', async () => {
  try {
    const { revoked } = await client.revokeOtherSessions();
    accountStatus(`Signed out of ${revoked} other session(s).`);
    await showSessions();
  } catch (error) {
    failed(error);
  }
});

$('email-change').addEventListener('submit', async (event) => {
  event.preventDefault();
  const form = new FormData(event.target);
  try {
    await client.changeEmail({ email: form.get('email'), password: form.get('password') });
    $('email-confirm').hidden = false;
    accountStatus('A code was sent to the new address.');
  } catch (error) {
    failed(error);
  }
});

$('email-confirm').addEventListener('submit', async (event) => {
  event.preventDefault();
  try {
    const user = await client.confirmEmailChange(new FormData(event.target).get('code'));
    $('email-confirm').hidden = true;
    accountStatus(`Your address is now ${user.email}.`);
  } catch (error) {
    failed(error);
  }
});

$('delete-account').addEventListener('submit', async (event) => {
  event.preventDefault();
  if (!window.confirm('Delete your account for good?')) return;
  try {
    await client.deleteAccount({ password: new FormData(event.target).get('password') });
    await showAccount();
    $('account').textContent = `Your account was deleted. ${$('account').textContent}`;
  } catch (error) {
    failed(error);
  }
});

$('login').addEventListener('submit', async (event) => {
  event.preventDefault();
  const form = new FormData(event.target);
  const captcha = $('captcha').hidden ? {} : { key: captchaKey, code: form.get('code') };
  try {
    const result = await client.login({ identifier: form.get('identifier'), password: form.get('password'), ...captcha });
    $('captcha').hidden = true;
    // An account with a second factor: security.js asks for the code and finishes the login.
    if (isMfaChallenge(result)) {
      document.dispatchEvent(new CustomEvent('bag:mfa-required', { detail: result }));
      return;
    }
    await showAccount();
  } catch (error) {
    $('account').textContent = error instanceof CmsBagError ? error.message : String(error);
    // The captcha is on (or the last one was used up): show a fresh image and let the user try again.
    if (error instanceof CmsBagError && /captcha/i.test(error.message)) await showCaptcha();
  }
});

// security.js signed the user in (second factor or passkey).
document.addEventListener('bag:signed-in', () => showAccount());

$('logout').addEventListener('click', async () => {
  await client.logout();
  await showAccount();
});

async function showComments() {
  const { data, meta } = await client.comments.list(article.documentId);
  $('comment-total').textContent = String(meta.total);
  renderTree($('comments'), data, (node) => {
    const item = el('li');
    item.append(el('strong', node.author ? node.author.username : 'guest'));
    if (node.isAdmin) item.append(el('span', 'site', { className: 'admin' }));
    item.append(el('p', node.content));
    return item;
  });
}

$('comment').addEventListener('submit', async (event) => {
  event.preventDefault();
  const form = event.target;
  try {
    const { data } = await client.comments.create({ content: new FormData(form).get('content'), article: article.documentId });
    $('comment-status').textContent =
      data.status === 'approved' ? 'Comment published.' : 'Thanks! Your comment is waiting for moderation.';
    $('comment-status').dataset.documentId = data.documentId;
    form.reset();
    await showComments();
  } catch (error) {
    $('comment-status').textContent = error instanceof CmsBagError ? error.message : String(error);
  }
});

// Search: every answer shows the latest query only (a slower earlier answer is dropped).
let searchSeq = 0;
async function runSearch(q) {
  const seq = ++searchSeq;
  if (!q.trim()) {
    $('search-results').replaceChildren();
    $('search-status').textContent = '';
    return;
  }
  try {
    const { data, meta } = await client.search(q, { pageSize: 10 });
    if (seq !== searchSeq) return;
    $('search-status').textContent = meta.pagination.total ? `${meta.pagination.total} found` : 'Nothing found.';
    $('search-results').replaceChildren(
      ...data.map((hit) => {
        const item = el('li');
        const link = el('a', undefined, { href: `?article=${encodeURIComponent(hit.slug)}` });
        // innerHTML on purpose: the server HTML-escapes every character of the title and excerpt and adds only the
        // <mark>…</mark> around matches, so these strings hold no other markup.
        link.innerHTML = hit.highlight.title;
        const excerpt = el('p');
        excerpt.innerHTML = hit.highlight.excerpt;
        item.append(link, excerpt);
        return item;
      })
    );
  } catch (error) {
    if (seq !== searchSeq) return;
    $('search-results').replaceChildren();
    $('search-status').textContent = error instanceof CmsBagError ? error.message : String(error);
  }
}

let searchTimer;
$('search').addEventListener('submit', (event) => {
  event.preventDefault();
  clearTimeout(searchTimer);
  runSearch(new FormData(event.target).get('q'));
});
// Search as you type, once typing pauses.
$('search').elements.q.addEventListener('input', (event) => {
  clearTimeout(searchTimer);
  searchTimer = setTimeout(() => runSearch(event.target.value), 250);
});

// Feeds and sitemap are links (readers and crawlers fetch them); the client builds their absolute URLs.
function showFeedLinks() {
  for (const format of ['rss', 'atom', 'json']) {
    const url = client.feedUrl(format);
    $(`feed-${format}`).href = url;
    const type = { rss: 'application/rss+xml', atom: 'application/atom+xml', json: 'application/feed+json' }[format];
    document.head.append(el('link', undefined, { rel: 'alternate', type, href: url, title: `Articles (${format})` }));
  }
  $('sitemap').href = client.sitemapUrl();
}

async function main() {
  showFeedLinks();
  await showAccount();

  const menu = await client.menus.get('main').catch(() => null);
  if (menu) {
    renderTree($('menu'), menu.data.items, (item) => {
      const li = el('li');
      li.append(el('a', item.title, { href: item.url, target: item.target }));
      return li;
    });
  }

  const slug = new URLSearchParams(location.search).get('article');
  article = slug ? (await client.articles.get(slug)).data : (await client.articles.list({ pagination: { pageSize: 1 } })).data[0];
  if (!article) {
    $('article-title').textContent = 'No published article yet.';
    $('comment').hidden = true;
    return;
  }
  $('article-title').textContent = article.title;
  $('article-content').textContent = article.summary ?? '';
  await showComments();
}

main();
