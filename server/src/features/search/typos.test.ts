/** Typo budgets, edit distance and the parts of q (docs/search.md#typos, docs/search.md#what-q-may-contain). */
import { budgetOf, closest, editDistance, firstLetterVariants } from './typos';
import { parseQuery } from './query-text';

describe('typo budgets and edit distance (docs/search.md#typos)', () => {
  it('gives no typo under 5 characters, one from 5, two from 9', () => {
    expect(['kiwi', 'zebra', 'receives', 'recieving', 'hippopotamus'].map(budgetOf)).toEqual([0, 1, 1, 2, 2]);
  });

  it('counts a swap of neighbours as one edit, and stops past the budget', () => {
    expect(editDistance('recieve', 'receive', 1)).toBe(1);
    expect(editDistance('xebra', 'zebra', 1)).toBe(1);
    expect(editDistance('hipopotamis', 'hippopotamus', 2)).toBe(2);
    expect(editDistance('hxpopotamis', 'hippopotamus', 2)).toBe(3);
    expect(editDistance('abc', 'abcdef', 1)).toBe(2);
  });

  it('finds first-letter typos by value and keeps the closest candidates first', () => {
    const variants = firstLetterVariants('xebra');
    expect(variants).toEqual(expect.arrayContaining(['zebra', 'ebra', 'exbra', 'axebra']));
    expect(variants).not.toContain('xebra');
    expect(closest('bread', 1, [{ term: 'breed', rows: 1 }, { term: 'bread', rows: 9 }, { term: 'brend', rows: 5 }, { term: 'brand', rows: 8 }, { term: 'broad', rows: 7 }])).toEqual([
      'broad',
      'brend',
      'breed',
    ]);
  });
});

describe('the parts of q (docs/search.md#what-q-may-contain)', () => {
  it('takes phrases, exclusions and the last word as a prefix', () => {
    const parsed = parseQuery('"red fox" jumps -fence over');
    expect(parsed.phrases).toEqual([['red', 'fox']]);
    expect(parsed.excluded).toEqual(['fence']);
    expect(parsed.words.map((word) => [word.text, word.prefix])).toEqual([
      ['jumps', false],
      ['over', true],
    ]);
  });

  it('keeps a lone quote, an inner hyphen and exclusions alone as text', () => {
    expect(parseQuery('"walrus').words.map((word) => word.text)).toEqual(['walrus']);
    expect(parseQuery('red-fox').excluded).toEqual([]);
    expect(parseQuery('-walrus').words.map((word) => word.text)).toEqual(['walrus']);
    expect(parseQuery('fox z').words.map((word) => word.prefix)).toEqual([false, false]);
    expect(parseQuery('zeb "black"').words.map((word) => word.prefix)).toEqual([false]);
  });
});
