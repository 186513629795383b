import { visibleComments } from './visibility';

/** `[id, status, parent]` rows of one article → the ids the public tree lists, in id order. */
const shown = (rows: [number, string, number | null][]) => {
  const statusOf = new Map(rows.map(([id, status]) => [id, status as unknown]));
  const parentOf = new Map(rows.map(([id, , parent]) => [id, parent]));
  return [...visibleComments(statusOf, parentOf)].sort((a, b) => a - b);
};

/** The rule read literally: approved, and every ancestor inside the article approved, stopping at a cycle. */
const byDefinition = (rows: [number, string, number | null][]) => {
  const byId = new Map(rows.map((row) => [row[0], row]));
  return rows
    .filter(([id]) => {
      const seen = new Set<number>();
      for (let at: number | null = id; at !== null && byId.has(at) && !seen.has(at); at = byId.get(at)![2]) {
        if (byId.get(at)![1] !== 'approved') return false;
        seen.add(at);
      }
      return true;
    })
    .map(([id]) => id)
    .sort((a, b) => a - b);
};

describe('visibleComments', () => {
  it('lists approved comments whose every ancestor is approved', () => {
    expect(
      shown([
        [1, 'approved', null],
        [2, 'approved', 1],
        [3, 'pending', 1],
        [4, 'approved', 3],
        [5, 'approved', 4],
        [6, 'rejected', null],
        [7, 'approved', 6],
      ]),
    ).toEqual([1, 2]);
  });

  it('shows a reply whose parent is outside the article, and the comments of a cycle', () => {
    expect(
      shown([
        [1, 'approved', 99],
        [2, 'approved', 3],
        [3, 'approved', 2],
        [4, 'approved', 3],
        [5, 'pending', 5],
      ]),
    ).toEqual([1, 2, 3, 4]);
  });

  it('agrees with the rule read literally on random forests with cycles, in any walk order', () => {
    const statuses = ['approved', 'approved', 'approved', 'pending', 'rejected', 'gone'];
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let round = 0; round < 50; round += 1) {
      const count = 1 + random(60);
      const rows: [number, string, number | null][] = [];
      for (let id = 1; id <= count; id += 1) {
        const parent = random(4) === 0 ? null : 1 + random(count + 5); // a few point outside the article
        rows.push([id, statuses[random(statuses.length)], parent]);
      }
      // Walks start in map order: shuffled, so a walk meets comments earlier walks already decided.
      rows.sort(() => random(3) - 1);
      expect(shown(rows)).toEqual(byDefinition(rows));
    }
  });
});
