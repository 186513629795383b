import { inChunks } from './chunks';

describe('inChunks: statements of at most 500 ids', () => {
  it('hands every item over once, in order, in chunks of 500, and sums what the statements counted', async () => {
    const items = Array.from({ length: 1234 }, (_, i) => i);
    const chunks: number[][] = [];
    const counted = await inChunks(items, async (chunk) => {
      chunks.push(chunk);
      return chunk.length;
    });
    expect(chunks.map((chunk) => chunk.length)).toEqual([500, 500, 234]);
    expect(chunks.flat()).toEqual(items);
    expect(counted).toBe(1234);
  });

  it('runs the statements one after another, never two at once', async () => {
    let running = 0;
    let most = 0;
    await inChunks(Array.from({ length: 1500 }), async () => {
      running += 1;
      most = Math.max(most, running);
      await new Promise((resolve) => setImmediate(resolve));
      running -= 1;
    });
    expect(most).toBe(1);
  });

  it('counts only numbers, and runs nothing for no items', async () => {
    expect(await inChunks(Array.from({ length: 600 }), async (chunk) => (chunk.length > 100 ? 7 : { rows: [] }))).toBe(7);
    const statement = jest.fn(async () => 1);
    expect(await inChunks([], statement)).toBe(0);
    expect(statement).not.toHaveBeenCalled();
  });
});
