import { cleanText, rfc822Date, w3cDate, xml } from './xml';

describe('XML text of the feeds and the sitemap (docs/discovery.md)', () => {
  it('xml escapes the five special characters', () => {
    expect(xml(`Tom & "Jerry" <b>'s</b>`)).toBe('Tom &amp; &quot;Jerry&quot; &lt;b&gt;&apos;s&lt;/b&gt;');
  });

  it('xml leaves plain text, URLs and dates as they are, and writes null and undefined as nothing', () => {
    expect(xml('https://example.com/a/b?c=d')).toBe('https://example.com/a/b?c=d');
    expect(xml(42)).toBe('42');
    expect(xml(null)).toBe('');
    expect(xml(undefined)).toBe('');
  });

  it('removes what XML 1.0 cannot carry, keeps tab, newline, carriage return and paired surrogates', () => {
    expect(cleanText('a\u0000b\u0008c\u000Bd\u001Fe\u007Ff\uFFFEg\uFFFF')).toBe('abcdefg');
    expect(cleanText('a\tb\nc\rd')).toBe('a\tb\nc\rd');
    expect(cleanText('smile \uD83D\uDE00')).toBe('smile \uD83D\uDE00');
    expect(cleanText('lone \uD83D and \uDE00 halves')).toBe('lone  and  halves');
    expect(xml('a\u0000 & \uD83D\uDE00 \uDE00')).toBe('a &amp; \uD83D\uDE00 ');
  });

  it('w3cDate: ISO 8601 in UTC to the second, from a Date, epoch milliseconds or a date string', () => {
    const ms = Date.parse('2026-01-02T03:04:05.678Z');
    expect(w3cDate(new Date(ms))).toBe('2026-01-02T03:04:05Z');
    expect(w3cDate(ms)).toBe('2026-01-02T03:04:05Z');
    expect(w3cDate(String(ms))).toBe('2026-01-02T03:04:05Z');
    expect(w3cDate('2026-01-02T05:04:05.678+02:00')).toBe('2026-01-02T03:04:05Z');
  });

  it('rfc822Date: the RSS date of the same second', () => {
    expect(rfc822Date('2026-01-02T03:04:05.678Z')).toBe('Fri, 02 Jan 2026 03:04:05 GMT');
  });
});
