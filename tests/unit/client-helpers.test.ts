/**
 * The typed client's pure parts (docs/client.md), without a server: query strings, the locale of a read, token
 * storage, the proof-of-work solver and the password encryption. Imported from client/src, as the build bundles them.
 */
import crypto from 'crypto';
import { importPublicKey, rsaEncrypt } from '../../client/src/crypto';
import { localeQuery } from '../../client/src/locale';
import { solvePow } from '../../client/src/pow';
import { toQueryString, withQuery } from '../../client/src/query';
import { localStorageAdapter, memoryStorage } from '../../client/src/storage';

describe('query strings in the bracket notation of Strapi', () => {
  it('nests objects and lists in brackets, encodes keys and values, leaves out undefined', () => {
    expect(
      toQueryString({
        pagination: { page: 2, pageSize: 10 },
        filters: { title: { $containsi: 'a&b' }, tags: { slug: { $in: ['x y', 'z'] } } },
        sort: ['publishedAt:desc'],
        skip: undefined,
        withCount: false,
      })
    ).toBe(
      [
        'pagination%5Bpage%5D=2',
        'pagination%5BpageSize%5D=10',
        'filters%5Btitle%5D%5B%24containsi%5D=a%26b',
        'filters%5Btags%5D%5Bslug%5D%5B%24in%5D%5B0%5D=x%20y',
        'filters%5Btags%5D%5Bslug%5D%5B%24in%5D%5B1%5D=z',
        'sort%5B0%5D=publishedAt%3Adesc',
        'withCount=false',
      ].join('&')
    );
  });

  it('withQuery adds `?` only when there is a parameter', () => {
    expect(withQuery('/api/bag/articles')).toBe('/api/bag/articles');
    expect(withQuery('/api/bag/articles', {})).toBe('/api/bag/articles');
    expect(withQuery('/api/bag/articles', { q: undefined })).toBe('/api/bag/articles');
    expect(withQuery('/api/bag/search', { q: 'é' })).toBe('/api/bag/search?q=%C3%A9');
  });
});

describe("a read's locale (docs/client.md#locales)", () => {
  it("the call's own, else the client's default; null sends none", () => {
    expect(localeQuery('fr', { locale: 'de' })).toEqual({ locale: 'de' });
    expect(localeQuery('fr', {})).toEqual({ locale: 'fr' });
    expect(localeQuery('fr')).toEqual({ locale: 'fr' });
    expect(localeQuery('fr', { locale: null })).toEqual({});
    expect(localeQuery(undefined, {})).toEqual({});
  });
});

describe('token storage', () => {
  it('memoryStorage keeps values per client object', async () => {
    const one = memoryStorage();
    const two = memoryStorage();
    await one.set('jwt', 'a');
    expect(await one.get('jwt')).toBe('a');
    expect(await two.get('jwt')).toBeNull();
    await one.remove('jwt');
    expect(await one.get('jwt')).toBeNull();
  });

  it('localStorageAdapter prefixes its keys in the Web Storage it is given', async () => {
    const items = new Map<string, string>();
    const storage = {
      getItem: (key: string) => items.get(key) ?? null,
      setItem: (key: string, value: string) => void items.set(key, value),
      removeItem: (key: string) => void items.delete(key),
    } as Storage;
    const tokens = localStorageAdapter(storage);
    await tokens.set('refreshToken', 'r');
    expect([...items]).toEqual([['cms-bag:refreshToken', 'r']]);
    expect(await tokens.get('refreshToken')).toBe('r');
    await tokens.remove('refreshToken');
    expect(items.size).toBe(0);
    await localStorageAdapter(storage, 'app:').set('jwt', 'j');
    expect([...items.keys()]).toEqual(['app:jwt']);
  });
});

describe('the proof-of-work solver (docs/accounts.md#captcha-rules)', () => {
  const challenge = { key: 'k1', challenge: 'c2f1a9', algorithm: 'SHA-256' as const, expiresIn: 60 };
  const zeroBits = (text: string) => {
    const digest = crypto.createHash('sha256').update(text).digest();
    let bits = 0;
    for (const byte of digest) {
      if (byte !== 0) return bits + Math.clz32(byte) - 24;
      bits += 8;
    }
    return bits;
  };

  it('answers the smallest nonce whose SHA-256 has the leading zero bits asked for', async () => {
    const { key, code } = await solvePow({ ...challenge, difficulty: 10 });
    expect(key).toBe('k1');
    expect(zeroBits(`c2f1a9:${code}`)).toBeGreaterThanOrEqual(10);
    for (let nonce = 0; nonce < Number(code); nonce += 1) expect(zeroBits(`c2f1a9:${nonce}`)).toBeLessThan(10);
  });

  it('refuses another algorithm and a difficulty outside 0–32, and stops when aborted', async () => {
    await expect(solvePow({ ...challenge, algorithm: 'MD5' as never, difficulty: 1 })).rejects.toThrow('Unsupported proof-of-work algorithm: MD5');
    await expect(solvePow({ ...challenge, difficulty: 33 })).rejects.toThrow(RangeError);
    await expect(solvePow({ ...challenge, difficulty: 1.5 })).rejects.toThrow(RangeError);
    const controller = new AbortController();
    controller.abort(new Error('left the form'));
    await expect(solvePow({ ...challenge, difficulty: 32 }, { signal: controller.signal })).rejects.toThrow('left the form');
  });
});

describe('the password encryption (RSA-OAEP with SHA-256, as the plugin decrypts it)', () => {
  it('encrypts with the PEM public key so the private key decrypts it', async () => {
    const { publicKey, privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
    const pem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const ciphertext = await rsaEncrypt(await importPublicKey(pem), 'Pässword-1');
    const plain = crypto.privateDecrypt({ key: privateKey, padding: crypto.constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(ciphertext, 'base64'));
    expect(plain.toString('utf8')).toBe('Pässword-1');
  });
});
