/**
 * An imported post's or comment's HTML as Markdown (docs/import.md#html-to-markdown): the comments' sanitizer first
 * (WordPress's block comments, scripts, styles, iframes, event handlers and `javascript:` URLs go), then turndown.
 * Text that looked like a tag in the source (`&lt;script&gt;`) stays text: its `<` is escaped in the Markdown.
 */
import type TurndownService from 'turndown';
import { sanitizeRichHtml } from '../comments';
import { lazyRequire, onFirstUse } from '../../platform/lazy-require';

const Turndown = lazyRequire<typeof TurndownService>('turndown');

const service = onFirstUse(() => {
  const turndown = new (Turndown())({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
  turndown.remove(['script', 'style', 'iframe', 'noscript', 'object', 'embed', 'form']);
  const escape = turndown.escape.bind(turndown);
  turndown.escape = (text: string) => escape(text).split('<').join('\\<');
  return turndown;
});

/** WordPress's classic editor stores paragraphs as blank lines (its `wpautop` adds the `<p>` when showing). */
const paragraphs = (html: string) => (/<p[\s>]/i.test(html) ? html : html.split(/\n{2,}/).map((p) => `<p>${p}</p>`).join(''));

/** Markdown of `html` ('' for none). */
export const htmlToMarkdown = (html: string): string => {
  const clean = sanitizeRichHtml(paragraphs(html));
  return clean ? service().turndown(clean).trim() : '';
};
