import { digestMail, escapeHtml, followMail, replyMail, type ReplyRow } from './templates';

const LINK = 'https://cms.example.com/api/bag/comments/unsubscribe?token=a&b';

describe('notification mails (docs/comments.md#notifications)', () => {
  const reply = (over: Partial<ReplyRow> = {}): ReplyRow => ({
    id: 7,
    content: 'Nice <b>post</b>\n\n  & thanks',
    isAdmin: false,
    author: { id: 2, username: 'ada' },
    parent: { status: 'approved', author: { id: 1, email: 'bob@example.com', blocked: false } },
    article: { title: 'A "title"' },
    ...over,
  });

  it('a reply mail names the author and quotes the reply on one line, escaped in the HTML part', () => {
    const mail = replyMail(reply(), 'A "title"', 'bob@example.com', LINK, 'New reply');
    expect(mail.to).toBe('bob@example.com');
    expect(mail.subject).toBe('New reply');
    expect(mail.text).toBe(`ada replied to your comment on "A "title"":\n\nNice <b>post</b> & thanks\n\nTo stop e-mails about replies: ${LINK}\n`);
    expect(mail.html).toContain('<blockquote style="white-space:pre-wrap">Nice &lt;b&gt;post&lt;/b&gt; &amp; thanks</blockquote>');
    expect(mail.html).toContain('on “A &quot;title&quot;”');
    expect(mail.html).toContain(`<a href="${escapeHtml(LINK)}">`);
    expect(mail.html).not.toContain('<b>');
  });

  it('one-click unsubscribe headers (RFC 2369, RFC 8058) in every kind', () => {
    const headers = { 'List-Unsubscribe': `<${LINK}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
    expect(replyMail(reply(), 't', 'x@example.com', LINK, 's').headers).toEqual(headers);
    expect(digestMail('x@example.com', 1, [], LINK, 's').headers).toEqual(headers);
    expect(followMail({ content: 'c', isAdmin: false, author: null }, 't', 'x@example.com', LINK, 's').headers).toEqual(headers);
  });

  it('the site, a user or a guest', () => {
    expect(replyMail(reply({ isAdmin: true }), 't', 'x', LINK, 's').text).toMatch(/^The site replied/);
    expect(replyMail(reply({ author: null }), 't', 'x', LINK, 's').text).toMatch(/^A guest replied/);
    expect(followMail({ content: 'c', isAdmin: false, author: { username: 'eve' } }, 't', 'x', LINK, 's').text).toMatch(/^eve commented on "t"/);
  });

  it('quotes at most 200 code points, then an ellipsis', () => {
    const long = '😀'.repeat(250);
    const text = replyMail(reply({ content: long }), 't', 'x', LINK, 's').text;
    expect(text).toContain(`\n\n${'😀'.repeat(200)}…\n\n`);
    expect(text).not.toContain('😀'.repeat(201));
  });

  it('a digest counts the pending comments and lists the newest; an unpublished article is not named', () => {
    const one = digestMail('mod@example.com', 1, [{ content: 'x', article: null }], LINK, 's');
    expect(one.text).toBe(`1 comment waiting for moderation. The newest:\n\n- on "(an unpublished article)": x\n\nTo stop these digests: ${LINK}\n`);
    const many = digestMail('mod@example.com', 3, [{ content: '<i>a</i>', article: { title: 'T' } }], LINK, 's');
    expect(many.text).toMatch(/^3 comments waiting for moderation/);
    expect(many.html).toContain('<li>on “T”: <span style="white-space:pre-wrap">&lt;i&gt;a&lt;/i&gt;</span></li>');
  });

  it('escapeHtml escapes the five characters', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
  });
});
