/**
 * Highlights as the service receives them: the text with MARK_START / MARK_END around each match and nowhere else.
 * The stored text may hold any character, those two included, so neither database is trusted to keep them apart:
 *
 * - SQLite: FTS5 `highlight()` / `snippet()` copy the stored text as it is, so each is asked twice, with two different
 *   pairs of markers. The answers differ exactly where a marker was inserted; every other character is the text's.
 * - PostgreSQL: `ts_headline` re-parses the text it is given, and its parser drops what looks like an HTML tag. It gets
 *   the text with `&` and `<` written as `&amp;` and `&lt;` (no tag left to drop, each entity one token it copies
 *   whole) and `<mark>` / `</mark>` as its markers, which cannot occur in that text; both are undone here.
 *
 * Control characters of the text (C0 but tab, line feed and carriage return) are dropped: invisible, not allowed in
 * HTML text, and never taken for markers.
 */
import { MARK_END, MARK_START } from './common.data';

/** The second pair of markers of a SQLite highlight (any pair differing from MARK_START / MARK_END). */
export const SHADOW_START = '\u0004';
export const SHADOW_END = '\u0005';
/** ts_headline's markers: the text it receives has no `<`. */
export const HEADLINE_START = '<mark>';
export const HEADLINE_END = '</mark>';

const CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g;

/** The text without its control characters (those above). */
export const withoutControls = (text: string) => text.replace(CONTROLS, '');

/**
 * One SQLite highlight from its two forms: `primary` marked with MARK_START / MARK_END, `shadow` with SHADOW_START /
 * SHADOW_END. Two answers of unequal length cannot happen (same text, same fragment, one-character markers); the text
 * is then returned without any mark.
 */
export const fromMarkerPair = (primary: string, shadow: string): string => {
  if (primary.length !== shadow.length) return withoutControls(primary.split(MARK_START).join('').split(MARK_END).join(''));
  let marked = '';
  let from = 0;
  for (let i = 0; i < primary.length; i += 1) {
    if (primary[i] === shadow[i]) continue;
    marked += withoutControls(primary.slice(from, i)) + (primary[i] === MARK_START ? MARK_START : MARK_END);
    from = i + 1;
  }
  return marked + withoutControls(primary.slice(from));
};

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<' };

/** The SQL expression of `column`'s text as ts_headline gets it: `&` and `<` written as entities. */
export const headlineInput = (column: string) => `replace(replace(coalesce(${column}, ''), '&', '&amp;'), '<', '&lt;')`;

/** One PostgreSQL headline of a `headlineInput` text, back to the text with MARK_START / MARK_END. */
export const fromHeadline = (headline: string): string =>
  headline
    .split(/(<mark>|<\/mark>)/)
    .map((part) => {
      if (part === HEADLINE_START) return MARK_START;
      if (part === HEADLINE_END) return MARK_END;
      return withoutControls(part.replace(/&amp;|&lt;/g, (entity) => ENTITIES[entity]));
    })
    .join('');
