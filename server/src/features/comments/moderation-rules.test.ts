import { applyRules, wordMatcher } from './moderation-rules';

const rules = (over: Partial<{ blockedWords: string[]; holdWords: string[]; maxLinks: number }> = {}) => ({
  blockedWords: [],
  holdWords: [],
  maxLinks: 2,
  ...over,
});

describe('blocked words: whole words, any case, every script', () => {
  it.each([
    // [word, text, matches]
    ['spam', 'This is SPAM.', true],
    ['spam', 'spammer here', false],
    ['spam', 'antispam', false],
    ['spam', 'spam_bot', false],
    ['spam', 'spam2', false],
    ['café', 'Un CAFÉ, merci', true],
    ['café', 'cafés', false],
    ['été', 'cet été-là', true],
    ['été', 'arrêté', false],
    // a decomposed é (e + combining acute) in the text is the same word
    ['café', 'un cafe\u0301 noir', true],
    ['café', 'un cafe\u0301s noir', false],
    ['казино', 'Лучшее КАЗИНО онлайн', true],
    ['казино', 'казиноонлайн', false],
    ['Straße', 'die STRASSE', false],
    ['Straße', 'die straße hier', true],
    ['buy now', 'please BUY   now!', true],
    ['a.b', 'axb', false],
    // scripts without spaces between words: the word wherever it appears
    ['赌博', '这是一个赌博网站', true],
    ['カジノ', 'オンラインカジノです', true],
  ])('%s in %j → %s', (word, text, matches) => {
    expect(applyRules(rules({ blockedWords: [word] }), text)).toBe(matches ? 'rejected' : null);
  });

  it('an empty list or blank words match nothing', () => {
    expect(wordMatcher([])).toBeNull();
    expect(wordMatcher(['', '  '])).toBeNull();
  });
});

describe('applyRules', () => {
  it('a blocked word rejects, before a hold word holds', () => {
    expect(applyRules(rules({ blockedWords: ['viagra'], holdWords: ['offer'] }), 'an offer: Viagra')).toBe('rejected');
    expect(applyRules(rules({ blockedWords: ['viagra'], holdWords: ['offer'] }), 'a special OFFER')).toBe('pending');
    expect(applyRules(rules({ blockedWords: ['viagra'], holdWords: ['offer'] }), 'nothing to see')).toBeNull();
  });

  it('more links than maxLinks holds the comment; as many passes', () => {
    const two = 'https://a.example and [b](https://b.example)';
    expect(applyRules(rules({ maxLinks: 2 }), two)).toBeNull();
    expect(applyRules(rules({ maxLinks: 1 }), two)).toBe('pending');
    expect(applyRules(rules({ maxLinks: 0 }), 'mail ada@example.com')).toBe('pending');
    expect(applyRules(rules({ maxLinks: 0 }), '[x](javascript:alert(1))')).toBeNull();
  });
});
