import { isBeaconBot, isCrawler, REMEMBERED_AGENTS } from './crawlers';

describe('the crawler tests, remembered per User-Agent (docs/readers.md#what-counts)', () => {
  const browser = (n: number) => `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.${n} Safari/537.36`;
  const crawler = (n: number) => `Mozilla/5.0 (compatible; Googlebot/2.${n}; +http://www.google.com/bot.html)`;

  it('answers each User-Agent the same, past as many distinct ones as it remembers', () => {
    const agents = Array.from({ length: REMEMBERED_AGENTS * 2 + 3 }, (_, n) => (n % 2 === 1 ? crawler(n) : browser(n)));
    const expected = agents.map((_, n) => n % 2 === 1);
    expect(agents.map((agent) => isCrawler(agent))).toEqual(expected);
    // Asked again, in the other order: the oldest were forgotten and tested anew, the newest remembered.
    expect([...agents].reverse().map((agent) => isCrawler(agent))).toEqual([...expected].reverse());
    expect(agents.map((agent) => isBeaconBot(agent))).toEqual(expected);
  });

  it('keeps the two lists apart for the same User-Agent, and tests a long one every time', () => {
    expect(isCrawler('node')).toBe(false);
    expect(isBeaconBot('node')).toBe(true);
    expect(isCrawler('node')).toBe(false);
    const long = `${'x'.repeat(600)} Googlebot/2.1`;
    expect(isCrawler(long)).toBe(true);
    expect(isCrawler(long)).toBe(true);
    expect(isCrawler(browser(1).padEnd(700, ' z'))).toBe(false);
  });
});
