import { MARK_END as E, MARK_START as S } from './common.data';
import { SHADOW_END, SHADOW_START, fromHeadline, fromMarkerPair } from './marks.data';

/** What FTS5 answers for `text` with the matches `words` marked by `start` / `end`. */
const marked = (text: string, words: string[], start: string, end: string) =>
  words.reduce((html, word) => html.split(word).join(`${start}${word}${end}`), text);

describe('fromMarkerPair (SQLite)', () => {
  it.each([
    ['plain text', 'a walrus here', 'a \u0002walrus\u0003 here'],
    ['markers typed in the text', '\u0002not\u0003 a \u0003match\u0002 walrus', 'not a match \u0002walrus\u0003'],
    ['markers against the match', '\u0002\u0003walrus\u0002\u0003', '\u0002walrus\u0003'],
    ['the shadow markers in the text', '\u0004walrus\u0005 and \u0001\u001f\ttab', '\u0002walrus\u0003 and \ttab'],
  ])('%s: marks the matches only and drops control characters', (_, text, expected) => {
    const primary = marked(text, ['walrus'], S, E);
    const shadow = marked(text, ['walrus'], SHADOW_START, SHADOW_END);
    expect(fromMarkerPair(primary, shadow)).toBe(expected.replace(/\u0002/g, S).replace(/\u0003/g, E));
  });

  it('answers the text without marks when the two answers cannot be the same text', () => {
    expect(fromMarkerPair(`${S}walrus${E}\u0002`, 'walrus')).toBe('walrus');
  });
});

describe('fromHeadline (PostgreSQL)', () => {
  it('undoes the entities of the input and takes only <mark> for markers', () => {
    expect(fromHeadline('&lt;b>x&lt;/b> <mark>Walrus</mark> &amp;lt; AT&amp;T \u0002y\u0003 &gt;')).toBe(
      `<b>x</b> ${S}Walrus${E} &lt; AT&T y &gt;`,
    );
  });
});
