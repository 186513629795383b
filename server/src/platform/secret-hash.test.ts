import crypto from 'crypto';
import { sameHash, sha256 } from './secret-hash';

describe('sha256 and sameHash (the digests kept for refresh tokens and codes)', () => {
  it('sha256 is the hex SHA-256 of the text', () => {
    expect(sha256('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  it('sameHash: true for equal digests only', () => {
    const digest = sha256('refresh-token');
    expect(sameHash(digest, sha256('refresh-token'))).toBe(true);
    expect(sameHash(digest, sha256('refresh-tokem'))).toBe(false);
  });

  it('sameHash: a digest of another length is not the same (and does not throw)', () => {
    const digest = sha256('x');
    expect(sameHash(digest, digest.slice(0, 32))).toBe(false);
    expect(sameHash(digest, crypto.createHash('sha512').update('x').digest('hex'))).toBe(false);
    expect(sameHash('', digest)).toBe(false);
  });
});
