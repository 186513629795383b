/**
 * The parts of `q` (docs/search.md#what-q-may-contain): words, `"…"` phrases, `-word` exclusions, and whether the last
 * word is also a prefix. Words are runs of letters, digits and combining marks, as before; every other character
 * separates them and is never query syntax. A `"` without its pair, or a `-` when `q` has nothing but exclusions, is
 * only a separator (`-walrus` alone finds walrus).
 */
const WORD = /[\p{L}\p{N}\p{M}]+/gu;
/** At most this many words (phrase words and exclusions included); the rest of a long `q` is ignored. */
const MAX_WORDS = 32;
/** The last word is a prefix from this many characters. */
const PREFIX_FROM = 2;

export interface QueryWord {
  /** The word as typed (NFKC). */
  text: string;
  /** Where it stands in `text` of the parsed query, for a suggestion that replaces it. */
  start: number;
  /** The last word of `q`, at least two characters: it also matches as a prefix. */
  prefix: boolean;
}

export interface ParsedQuery {
  /** `q` after NFKC normalization (the positions of the words are in it). */
  text: string;
  words: QueryWord[];
  phrases: string[][];
  excluded: string[];
}

export const parseQuery = (q: string): ParsedQuery => {
  const text = q.normalize('NFKC');
  // Spans of paired quotes: their words form a phrase.
  const spans: [number, number][] = [];
  for (let open = text.indexOf('"'); open !== -1; ) {
    const close = text.indexOf('"', open + 1);
    if (close === -1) break;
    spans.push([open, close]);
    open = text.indexOf('"', close + 1);
  }
  const inSpan = (index: number) => spans.findIndex(([open, close]) => index > open && index < close);
  const words: QueryWord[] = [];
  const excluded: { text: string; start: number }[] = [];
  const phrases = new Map<number, string[]>();
  let count = 0;
  let last: 'word' | 'other' = 'other';
  for (const match of text.matchAll(WORD)) {
    if (count >= MAX_WORDS) break;
    count += 1;
    const start = match.index ?? 0;
    const span = inSpan(start);
    if (span !== -1) {
      phrases.set(span, [...(phrases.get(span) ?? []), match[0]]);
      last = 'other';
    } else if (text[start - 1] === '-' && (start === 1 || /\s/u.test(text[start - 2]))) {
      excluded.push({ text: match[0], start });
      last = 'other';
    } else {
      words.push({ text: match[0], start, prefix: false });
      last = 'word';
    }
  }
  const phraseList = [...phrases.values()];
  if (!words.length && !phraseList.length) {
    // Nothing to exclude from: the `-` was text.
    words.push(...excluded.map((word) => ({ ...word, prefix: false })));
    excluded.length = 0;
    last = words.length ? 'word' : 'other';
  }
  const final = words[words.length - 1];
  if (final && last === 'word' && [...final.text].length >= PREFIX_FROM) final.prefix = true;
  return { text, words, phrases: phraseList, excluded: excluded.map((word) => word.text) };
};
