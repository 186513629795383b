/**
 * The moderation rules (`comments.moderation`): which status a comment's text earns before the site's own default.
 * Words match whole and in any case in every script: a word boundary is "no letter, mark or digit next to it" with
 * Unicode property classes (`\b` only knows ASCII letters, so `\bcafé\b` fails). Scripts written without spaces between
 * words (Chinese, Japanese, Thai, …) have no boundary to find, so a word in them matches wherever it appears.
 */
import { countLinks } from './markdown';

export interface ModerationRules {
  blockedWords: string[];
  holdWords: string[];
  maxLinks: number;
}

/** `rejected`: a blocked word; `pending`: a hold word or too many links; `null`: no rule has a say. */
export type RuleVerdict = 'rejected' | 'pending' | null;

const WORD_CHAR = '[\\p{L}\\p{M}\\p{N}_]';
const UNSPACED = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\s]+$/u;

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** One expression matching any of `words` as a whole word, case-insensitively; null for an empty list. */
export const wordMatcher = (words: string[]): RegExp | null => {
  const parts = words
    .map((word) => word.normalize('NFC').trim())
    .filter((word) => word.length > 0)
    .map((word) =>
      UNSPACED.test(word) ? escape(word) : `(?<!${WORD_CHAR})${escape(word).replace(/\s+/g, '\\s+')}(?!${WORD_CHAR})`,
    );
  return parts.length ? new RegExp(parts.join('|'), 'iu') : null;
};

/** The rules as matchers, built once per settings value. */
export const compileRules = (rules: ModerationRules) => {
  const blocked = wordMatcher(rules.blockedWords);
  const hold = wordMatcher(rules.holdWords);
  return (content: string): RuleVerdict => {
    const text = content.normalize('NFC');
    if (blocked?.test(text)) return 'rejected';
    if (hold?.test(text)) return 'pending';
    if (countLinks(text) > rules.maxLinks) return 'pending';
    return null;
  };
};

const compiled = new WeakMap<ModerationRules, ReturnType<typeof compileRules>>();

/** What the rules say about `content` (matchers cached per settings object). */
export const applyRules = (rules: ModerationRules, content: string): RuleVerdict => {
  let judge = compiled.get(rules);
  if (!judge) {
    judge = compileRules(rules);
    compiled.set(rules, judge);
  }
  return judge(content);
};
