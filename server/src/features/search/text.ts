/** Turning the user's text into literal search terms, and the database's marked excerpts into safe HTML. */
import { MARK_END, MARK_START } from './search.data';

/** At most this many terms are searched; the rest of a long `q` is ignored. */
const MAX_TOKENS = 32;

/**
 * The words of `q`: runs of letters, digits and combining marks. Everything else (quotes, `*`, `-`, parentheses,
 * `:`, `&|!`, NUL…) separates words, so nothing the user types can be query syntax on either database.
 */
export const tokensOf = (q: string): string[] => (q.normalize('NFKC').match(/[\p{L}\p{N}\p{M}]+/gu) ?? []).slice(0, MAX_TOKENS);

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => ESCAPES[char]);

/** Markdown syntax an excerpt is better without: images and links keep their text, markers of emphasis, headings, quotes, lists and code go. */
export const plainMarkdown = (text: string): string =>
  text
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^\s{0,3}(#{1,6}|>|[-*+]|\d+\.)\s+/gm, '')
    .replace(/(\*{1,3}|~~|`+)/g, '')
    .replace(/\s+/g, ' ')
    .trim();

/** HTML-escaped text in which only the database's match markers become `<mark>…</mark>` (always balanced). */
export const markedHtml = (text: string): string => {
  let html = '';
  let open = false;
  for (const part of text.split(new RegExp(`([${MARK_START}${MARK_END}])`))) {
    if (part === MARK_START) {
      if (!open) html += '<mark>';
      open = true;
    } else if (part === MARK_END) {
      if (open) html += '</mark>';
      open = false;
    } else html += escapeHtml(part);
  }
  return open ? `${html}</mark>` : html;
};

export const hasMark = (text: string) => text.includes(MARK_START);

/** Text without the markers. */
export const unmarked = (text: string) => text.split(MARK_START).join('').split(MARK_END).join('');
