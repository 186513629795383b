import { errors } from '@strapi/utils';
import { cursorCodec, type CursorKey } from './thread';

const KEYS = ['key-one', 'key-two'];
const codec = cursorCodec(KEYS);

/** The ValidationError `decode` throws, with its field and message. */
const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(errors.ValidationError);
    const { message, details } = error as errors.ValidationError;
    return { message, path: (details as { errors: Array<{ path: string[] }> }).errors[0].path };
  }
  throw new Error('decode accepted the cursor');
};

describe('thread cursors', () => {
  it.each<CursorKey>([
    { sort: 'createdAt:desc', createdAt: 1_700_000_000_123, id: 42 },
    { sort: 'createdAt:asc', createdAt: 0, id: 1 },
    { sort: 'top', likes: 17, createdAt: 1_700_000_000_000, id: 9 },
  ])('gives back the key a cursor was made from (%j)', (key) => {
    const cursor = codec.encode(key);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/);
    expect(codec.decode(cursor, key.sort)).toEqual(key);
  });

  it('is accepted by another instance with the same app keys, refused with other keys', () => {
    const cursor = codec.encode({ sort: 'createdAt:desc', createdAt: 5, id: 6 });
    expect(cursorCodec([...KEYS]).decode(cursor, 'createdAt:desc')).toEqual({ sort: 'createdAt:desc', createdAt: 5, id: 6 });
    expect(refusal(() => cursorCodec(['other-key']).decode(cursor, 'createdAt:desc'))).toEqual({
      message: 'after is not a valid cursor',
      path: ['after'],
    });
  });

  it('refuses a cursor whose payload was changed', () => {
    const [, mac] = codec.encode({ sort: 'createdAt:desc', createdAt: 5, id: 6 }).split('.');
    const forged = Buffer.from(JSON.stringify(['d', 5, 7])).toString('base64url');
    expect(refusal(() => codec.decode(`${forged}.${mac}`, 'createdAt:desc')).message).toBe('after is not a valid cursor');
  });

  it('refuses a cursor made for another sort, saying so', () => {
    const cursor = codec.encode({ sort: 'top', likes: 1, createdAt: 5, id: 6 });
    expect(refusal(() => codec.decode(cursor, 'createdAt:asc')).message).toBe(
      'after was made for another sort; start again without it for sort=createdAt:asc'
    );
  });

  it.each<[string, unknown]>([
    ['a number', 12],
    ['an array', ['a.b']],
    ['an over-long string', 'a'.repeat(201)],
  ])('refuses %s as not a cursor at all', (_, value) => {
    expect(refusal(() => codec.decode(value, 'top')).message).toBe('after must be a cursor from meta.pagination.next');
  });

  it.each<[string, (cursor: string) => string]>([
    ['an extra segment', (cursor) => `${cursor}.x`],
    ['no signature', (cursor) => cursor.split('.')[0]],
    ['a truncated signature', (cursor) => cursor.slice(0, -1)],
    ['an empty string', () => ''],
  ])('refuses a cursor with %s', (_, change) => {
    const cursor = codec.encode({ sort: 'top', likes: 1, createdAt: 5, id: 6 });
    expect(refusal(() => codec.decode(change(cursor), 'top')).message).toBe('after is not a valid cursor');
  });
});
