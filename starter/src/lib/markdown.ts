/**
 * An article's or a page's Markdown (the API gives the editor's Markdown, `content`) rendered on the server: raw HTML
 * off in markdown-it, then sanitize-html with an allow-list, so an editor's `<script>` stays text. A `#` heading
 * becomes `<h2>` (the page's title is its only `<h1>`), and a leading heading equal to the title is dropped.
 */
import MarkdownIt from 'markdown-it';
import sanitizeHtml from 'sanitize-html';

const md = new MarkdownIt({ html: false, linkify: true, typographer: true });

const ALLOWED = {
  allowedTags: ['h2', 'h3', 'h4', 'h5', 'h6', 'p', 'a', 'ul', 'ol', 'li', 'blockquote', 'code', 'pre', 'em', 'strong', 'del', 's', 'hr', 'br', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'img'],
  allowedAttributes: { a: ['href', 'title'], img: ['src', 'alt', 'title', 'loading', 'decoding'], th: ['style'], td: ['style'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedStyles: { '*': { 'text-align': [/^(left|right|center)$/] } },
  transformTags: {
    // The page's title is its only h1: a `#` heading in the body becomes an h2.
    h1: 'h2',
    img: (tagName: string, attribs: Record<string, string>) => ({ tagName, attribs: { ...attribs, loading: 'lazy', decoding: 'async' } }),
  },
};

export function renderMarkdown(markdown: string | null | undefined, title?: string): string {
  let source = markdown ?? '';
  if (title) {
    const first = /^\s*#\s+(.+)\n/.exec(source);
    if (first && first[1].trim() === title.trim()) source = source.slice(first[0].length);
  }
  return sanitizeHtml(md.render(source), ALLOWED as sanitizeHtml.IOptions);
}

/** Plain text of Markdown, for descriptions. */
export const plainText = (markdown: string | null | undefined, max = 160) => {
  const text = sanitizeHtml(md.render(markdown ?? ''), { allowedTags: [], allowedAttributes: {} }).replace(/\s+/g, ' ').trim();
  return text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;
};
