/**
 * Typo budgets and edit distance (docs/search.md#typos). A word of 5–8 characters matches words one edit away
 * (insert, delete, substitute, or swap two neighbours), of 9 or more two; shorter words match exactly. As in
 * Meilisearch (milli's typo settings: one typo from 5 characters, two from 9), a word with two typos must keep its
 * first letter; a single typo may be at any letter, in words of 9 or more too.
 */
export const ONE_TYPO_FROM = 5;
export const TWO_TYPOS_FROM = 9;
/** Candidate words kept per query word: the closest, then the commonest. */
export const MAX_CANDIDATES = 8;

export const lengthOf = (word: string) => [...word].length;

export const budgetOf = (word: string) => {
  const length = lengthOf(word);
  if (length >= TWO_TYPOS_FROM) return 2;
  return length >= ONE_TYPO_FROM ? 1 : 0;
};

/** Optimal string alignment distance (Damerau–Levenshtein without repeated edits of a substring), or `max + 1` once over `max`. */
export const editDistance = (from: string, to: string, max: number): number => {
  const a = [...from];
  const b = [...to];
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, before[j - 2] + 1);
      current.push(value);
      best = Math.min(best, value);
    }
    if (best > max) return max + 1;
    before = previous;
    previous = current;
  }
  return previous[b.length];
};

/** Letters a first-letter typo may have typed or lost: a–z, digits, the word's own letters, and lower-case letters near its first. */
const alphabetOf = (word: string) => {
  const letters = new Set([...'abcdefghijklmnopqrstuvwxyz0123456789', ...word]);
  const first = word.codePointAt(0) ?? 0;
  if (first > 0x7f) {
    for (let cp = Math.max(0x80, first - 64); cp <= first + 64; cp += 1) {
      const char = String.fromCodePoint(cp);
      if (/\p{Ll}/u.test(char)) letters.add(char);
    }
  }
  return [...letters];
};

/** Words one edit away whose first letter differs (the vocabulary is looked up by first letter for the others). */
export const firstLetterVariants = (word: string): string[] => {
  const chars = [...word];
  const rest = chars.slice(1).join('');
  const variants = new Set<string>([rest]);
  if (chars.length > 1) variants.add(chars[1] + chars[0] + chars.slice(2).join(''));
  for (const letter of alphabetOf(word)) {
    variants.add(letter + rest);
    variants.add(letter + word);
  }
  variants.delete(word);
  return [...variants].filter((variant) => variant && variant[0] !== word[0]);
};

/** The vocabulary's words within the budget of `word`, closest first, then the ones in most rows. */
export const closest = (word: string, budget: number, vocabulary: { term: string; rows: number }[], max = MAX_CANDIDATES) =>
  vocabulary
    .filter(({ term }) => term !== word)
    .map(({ term, rows }) => ({ term, rows, distance: editDistance(word, term, budget) }))
    .filter(({ distance }) => distance <= budget)
    .sort((x, y) => x.distance - y.distance || y.rows - x.rows || (x.term < y.term ? -1 : 1))
    .slice(0, max)
    .map(({ term }) => term);
