import { errors } from '@strapi/utils';
import { loginBody } from '../../features/accounts/auth.shapes';
import { commentFields } from '../../features/comments/comments.shapes';
import { parseShape } from './parse';

const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(errors.ValidationError);
    const { message, details } = error as errors.ValidationError;
    return { message, details };
  }
  throw new Error('not refused');
};

describe('parseShape', () => {
  it('returns the parsed value, without the keys the shape does not name', () => {
    expect(parseShape(loginBody, { identifier: 'ann', password: 'pw', isAdmin: true })).toEqual({ identifier: 'ann', password: 'pw' });
  });

  it('names every field of an account body, one message each, and counts them', () => {
    expect(refusal(() => parseShape(loginBody, { identifier: 1, password: '' }))).toEqual({
      message: '2 errors occurred',
      details: {
        errors: [
          { path: ['identifier'], message: 'identifier must be a `string` type, but the final value was: `1`.', name: 'ValidationError' },
          { path: ['password'], message: 'password must be at least 1 characters', name: 'ValidationError' },
        ],
      },
    });
  });

  it('gives a value of the wrong type that one message, never the checks meant for a string', () => {
    expect(refusal(() => parseShape(loginBody, { identifier: [] }))).toEqual({
      message: 'identifier must be a `string` type, but the final value was: `[]`.',
      details: { errors: [{ path: ['identifier'], message: 'identifier must be a `string` type, but the final value was: `[]`.', name: 'ValidationError' }] },
    });
  });

  it('answers a body that is not an object with the message alone', () => {
    expect(refusal(() => parseShape(loginBody, ['x']))).toEqual({ message: 'The request body must be a JSON object', details: {} });
  });

  it('one field at a time: a missing field before a wrong one, the detail with the rule alone', () => {
    expect(refusal(() => parseShape(commentFields(10), { content: 5 }, { first: true }))).toEqual({
      message: 'article is required',
      details: { errors: [{ path: ['article'], message: 'is required', name: 'ValidationError' }] },
    });
    expect(refusal(() => parseShape(commentFields(10), { content: '😀'.repeat(11), article: 'a b' }, { first: true }))).toEqual({
      message: 'content must be at most 10 characters',
      details: { errors: [{ path: ['content'], message: 'must be at most 10 characters', name: 'ValidationError' }] },
    });
  });
});
