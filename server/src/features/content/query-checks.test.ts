import { errors } from '@strapi/utils';
import { parsePagination } from './query-checks';

describe('list pagination values (docs/content.md)', () => {
  it('reads integers from strings or numbers', () => {
    expect(parsePagination(undefined)).toEqual({});
    expect(parsePagination({ page: '2', pageSize: 10 })).toEqual({ page: 2, pageSize: 10 });
    expect(parsePagination({ start: '0', limit: '-1' })).toEqual({ start: 0, limit: -1 });
  });

  it.each([
    [{ page: '0' }, 'Invalid pagination[page]: expected an integer >= 1'],
    [{ pageSize: '1.5' }, 'Invalid pagination[pageSize]: expected an integer >= 1'],
    [{ start: '-1' }, 'Invalid pagination[start]: expected an integer >= 0'],
    [{ limit: '-2' }, 'Invalid pagination[limit]: expected an integer >= -1'],
    [{ page: 'abc' }, 'Invalid pagination[page]: expected an integer >= 1'],
    [{ page: '99999999999999999999' }, 'Invalid pagination[page]: expected an integer >= 1'],
    [{ page: ['1'] }, 'Invalid pagination[page]: expected an integer >= 1'],
    ['page=1', 'Invalid pagination parameter'],
  ])('refuses %j: 400 %s', (raw, message) => {
    const error = (() => {
      try {
        parsePagination(raw);
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(errors.ValidationError);
    expect((error as Error).message).toBe(message);
  });
});
