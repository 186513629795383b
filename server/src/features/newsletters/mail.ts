/**
 * A newsletter mail (docs/newsletters.md#the-mail): subject the article's title; an HTML part (the article's Markdown
 * rendered and sanitized as comments' `contentHtml`, its cover as an absolute image, a link to it on `site.url`) and a
 * text part; `List-Unsubscribe` (RFC 2369), `List-Unsubscribe-Post` (RFC 8058) and `List-Id` (RFC 2919). Every link
 * comes from configuration: the unsubscribe link is this server's own URL, the article's is `site.url`'s.
 */
import { escapeHtml, renderCommentMarkdown } from '../comments';

export interface ArticleForMail {
  title: string;
  content: string | null;
  summary: string | null;
  /** Absolute. */
  link: string;
  /** Absolute, or none. */
  cover: string | null;
}

export interface NewsletterForMail {
  slug: string;
  name: string;
}

export interface OutgoingMail {
  to: string;
  from?: string;
  subject: string;
  text: string;
  html: string;
  /** A prepared value goes out as written (nodemailer would MIME-encode the quotes and angle brackets of `List-Id`). */
  headers: Record<string, string | { prepared: true; value: string }>;
}

/** `List-Id: "<name>" <slug.newsletters.host>`: a list identifier mail clients and filters group by. */
export const listId = (newsletter: NewsletterForMail, siteUrl: string): string => {
  const host = new URL(siteUrl).hostname || 'localhost';
  const name = newsletter.name.replace(/["\\\r\n]/g, ' ').trim();
  const id = `${newsletter.slug.toLowerCase().replace(/[^a-z0-9-]/g, '-')}.newsletters.${host}`;
  // Sent as written (prepared), so a name beyond ASCII goes as an RFC 2047 encoded word.
  const phrase = /^[\x20-\x7e]*$/.test(name) ? `"${name}"` : `=?UTF-8?B?${Buffer.from(name, 'utf8').toString('base64')}?=`;
  return `${phrase} <${id}>`;
};

/** The article rendered once per send and locale; only the address and the unsubscribe link differ per recipient. */
export const renderArticle = (article: ArticleForMail) => {
  const body = renderCommentMarkdown(article.content ?? '');
  const cover = article.cover ? `<p><img src="${escapeHtml(article.cover)}" alt="" style="max-width:100%;height:auto"></p>` : '';
  const summary = article.summary ? `<p><em>${escapeHtml(article.summary)}</em></p>` : '';
  return {
    subject: article.title,
    htmlTop: `<h1>${escapeHtml(article.title)}</h1>${cover}${summary}${body}<p><a href="${escapeHtml(article.link)}">Read it on the site</a></p>`,
    textTop: [article.title, '', article.summary ?? '', article.content ?? '', '', `Read it on the site: ${article.link}`].filter((line, i, all) => line !== '' || all[i - 1] !== '').join('\n'),
  };
};

export const newsletterMail = (
  rendered: ReturnType<typeof renderArticle>,
  newsletter: NewsletterForMail,
  to: string,
  unsubscribeUrl: string,
  siteUrl: string,
  from: string | undefined
): OutgoingMail => ({
  to,
  ...(from ? { from } : {}),
  subject: rendered.subject,
  html:
    `<!doctype html><html><body>${rendered.htmlTop}<hr>` +
    `<p style="font-size:small">You get this because you subscribed to ${escapeHtml(newsletter.name)}. ` +
    `<a href="${escapeHtml(unsubscribeUrl)}">Unsubscribe</a></p></body></html>`,
  text: `${rendered.textTop}\n\n--\nYou get this because you subscribed to ${newsletter.name}.\nUnsubscribe: ${unsubscribeUrl}\n`,
  headers: {
    'List-Unsubscribe': `<${unsubscribeUrl}>`,
    'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    'List-Id': { prepared: true, value: listId(newsletter, siteUrl) },
  },
});

/** The double opt-in mail: the link opens a page whose button confirms (a link scanner's GET changes nothing). */
export const confirmationMail = (to: string, names: string[], confirmUrl: string, from: string | undefined): OutgoingMail => {
  const list = names.join(', ');
  return {
    to,
    ...(from ? { from } : {}),
    subject: 'Confirm your subscription',
    text: `Please confirm your subscription to ${list}:\n\n${confirmUrl}\n\nIf you did not ask for it, ignore this mail: nothing will be sent to you.\n`,
    html:
      `<!doctype html><html><body><p>Please confirm your subscription to ${escapeHtml(list)}:</p>` +
      `<p><a href="${escapeHtml(confirmUrl)}">Confirm my subscription</a></p>` +
      `<p>If you did not ask for it, ignore this mail: nothing will be sent to you.</p></body></html>`,
    headers: {},
  };
};
