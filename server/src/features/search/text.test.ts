import { MARK_END, MARK_START } from './search.data';
import { hasMark, markedHtml, plainMarkdown, tokensOf, unmarked } from './text';

const marked = (text: string) => text.replace(/\[/g, MARK_START).replace(/\]/g, MARK_END);

describe('tokensOf', () => {
  it('keeps words and drops every character either database reads as query syntax', () => {
    expect(tokensOf('"strapi" OR plug* -cms (a:b) x&y|z !w NEAR/2 \u0000end')).toEqual([
      'strapi', 'OR', 'plug', 'cms', 'a', 'b', 'x', 'y', 'z', 'w', 'NEAR', '2', 'end',
    ]);
  });

  it('keeps letters of any script, digits and combining marks inside a word', () => {
    expect(tokensOf('café naïve Straße 東京 2024')).toEqual(['café', 'naïve', 'Straße', '東京', '2024']);
    expect(tokensOf('cafe\u0301s')).toEqual(['cafés']);
  });

  it('folds compatibility forms (ligatures, full-width letters) to the plain ones the index holds', () => {
    expect(tokensOf('ﬁle ＡＢＣ')).toEqual(['file', 'ABC']);
  });

  it('searches at most 32 words', () => {
    const words = Array.from({ length: 40 }, (_, i) => `w${i}`);
    expect(tokensOf(words.join(' '))).toEqual(words.slice(0, 32));
  });

  it('finds no word in text of separators only', () => {
    expect(tokensOf(' -*"() ')).toEqual([]);
  });
});

describe('markedHtml', () => {
  it('escapes the text and turns only the markers into <mark>', () => {
    expect(markedHtml(marked('<b>a</b> & "[match]" \'x\''))).toBe(
      '&lt;b&gt;a&lt;/b&gt; &amp; &quot;<mark>match</mark>&quot; &#39;x&#39;'
    );
  });

  it('always balances the tags: an unclosed mark is closed, a stray end and a repeated start are ignored', () => {
    expect(markedHtml(marked('a [b'))).toBe('a <mark>b</mark>');
    expect(markedHtml(marked('a] b'))).toBe('a b');
    expect(markedHtml(marked('[[a] b]'))).toBe('<mark>a</mark> b');
  });

  it('leaves a literal <mark> typed by an author escaped', () => {
    expect(markedHtml('<mark>x</mark>')).toBe('&lt;mark&gt;x&lt;/mark&gt;');
  });
});

describe('plainMarkdown', () => {
  it('keeps the text of images and links and drops their targets', () => {
    expect(plainMarkdown('See ![a cat](/cat.png) and [the docs](https://example.com/x?a=1).')).toBe('See a cat and the docs.');
  });

  it('drops heading, quote and list markers at line starts, emphasis and code marks, and folds whitespace', () => {
    expect(plainMarkdown('# Title\n\n> quoted\n- item\n12. numbered\n**bold** _kept_ ~~gone~~ `code`')).toBe(
      'Title quoted item numbered bold _kept_ gone code'
    );
  });
});

describe('markers', () => {
  it('hasMark sees a match; unmarked gives the text without any marker', () => {
    expect(hasMark(marked('a [b] c'))).toBe(true);
    expect(hasMark('a b c')).toBe(false);
    expect(unmarked(marked('[a] [b]c]'))).toBe('a bc');
  });
});
