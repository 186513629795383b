/**
 * Who counts as a reader (docs/readers.md#what-counts). The bot list is `isbot`'s, never a pattern of our own:
 *
 * - A detail read (`GET /api/bag/articles/:slug`, `/pages/:slug`): a User-Agent that `isbot` calls a bot, with the
 *   list's entries that match HTTP libraries taken out (a server-rendered front end reads with `node`, `undici`,
 *   `axios`, `curl`… for its reader, so those still count), or an empty one.
 * - The beacon (`POST /api/bag/views`), which browsers send: `isbot` in full (HTTP libraries included), or an empty
 *   User-Agent.
 *
 * The entries taken out are found, not written: every pattern of `isbot`'s list that matches one of the libraries'
 * own User-Agents below. The crawlers' names (Googlebot, bingbot, AhrefsBot, UptimeRobot, Feedly…) stay matched
 * (tests/api/readers.test.ts).
 */
import { createIsbotFromList, isbot, list } from 'isbot';

/** User-Agents HTTP libraries send by default: what a server-rendered front end's reads look like. */
export const HTTP_LIBRARY_AGENTS = [
  'node',
  'undici',
  'axios/1.7.2',
  'curl/8.5.0',
  'node-fetch/1.0 (+https://github.com/bitinn/node-fetch)',
  'node-fetch',
  'got (https://github.com/sindresorhus/got)',
  'python-requests/2.31.0',
  'python-httpx/0.27.0',
  'Go-http-client/1.1',
  'okhttp/4.12.0',
  'Java/17.0.2',
  'Deno/1.40.0',
  'Bun/1.1.0',
  'ky',
];

/** `isbot`'s patterns that match an HTTP library's User-Agent. */
export const LIBRARY_PATTERNS = list.filter((pattern) => HTTP_LIBRARY_AGENTS.some((agent) => new RegExp(pattern, 'i').test(agent)));

const crawlerOnly = createIsbotFromList(list.filter((pattern) => !LIBRARY_PATTERNS.includes(pattern)));

const agentOf = (userAgent: string | string[] | undefined) => (Array.isArray(userAgent) ? userAgent[0] : userAgent)?.trim() ?? '';

/** User-Agents remembered per test: a site's readers send a few hundred distinct ones, each tested once. */
export const REMEMBERED_AGENTS = 512;
/** A longer User-Agent is tested every time, not kept (the memory stays under REMEMBERED_AGENTS × this). */
const REMEMBERED_LENGTH = 512;

/**
 * `test` remembered per User-Agent, at most REMEMBERED_AGENTS of them (the oldest forgotten first): `isbot`'s one
 * regular expression of some 200 alternatives ran on every detail read (docs/readers.md#measured).
 */
const remembered = (test: (agent: string) => boolean) => {
  const answers = new Map<string, boolean>();
  return (agent: string): boolean => {
    let answer = answers.get(agent);
    if (answer === undefined) {
      answer = test(agent);
      if (agent.length > REMEMBERED_LENGTH) return answer;
      if (answers.size >= REMEMBERED_AGENTS) answers.delete(answers.keys().next().value as string);
      answers.set(agent, answer);
    }
    return answer;
  };
};

const crawlerAgent = remembered(crawlerOnly);
const botAgent = remembered(isbot);

/** A detail read's User-Agent names a crawler, or is empty: the read counts no view. */
export const isCrawler = (userAgent: string | string[] | undefined): boolean => {
  const agent = agentOf(userAgent);
  return agent === '' || crawlerAgent(agent);
};

/** The beacon's User-Agent is a bot's (HTTP libraries included), or empty: no view. */
export const isBeaconBot = (userAgent: string | string[] | undefined): boolean => {
  const agent = agentOf(userAgent);
  return agent === '' || botAgent(agent);
};

/** Whether a detail read with this User-Agent counts a view, `views.countBots` considered. */
export const readCounts = (countBots: boolean, userAgent: string | string[] | undefined) => countBots || !isCrawler(userAgent);
