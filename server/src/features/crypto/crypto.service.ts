/**
 * The plugin's key material and the four operations on it.
 * RSA-OAEP with SHA-256 (OAEP and MGF1), 2048 bits, interoperable with WebCrypto's RSA-OAEP/SHA-256 both ways.
 * AES-256-GCM, output Base64(ciphertext ‖ tag(16) ‖ IV(12)), key scrypt(secret, 'salt', 32).
 * The private key and the AES key never leave this module.
 */
import crypto from 'crypto';
import { promisify } from 'util';
import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import { getService } from '../../platform/get-service';

/** The largest plaintext RSA-OAEP/SHA-256 can take with a 2048-bit key: 256 − 2·32 − 2 bytes. */
export const RSA_MAX_PLAINTEXT_BYTES = 190;
const RSA_BITS = 2048;
const TAG_BYTES = 16;
const IV_BYTES = 12;
// Fixed (docs/crypto.md#keys-and-algorithms): keeps data encrypted by earlier deployments of the same API readable.
const AES_SALT = 'salt';

const generateKeyPair = promisify(crypto.generateKeyPair);
const scrypt = promisify(crypto.scrypt) as (password: string, salt: string, keylen: number) => Promise<Buffer>;

const decryptionFailed = () => new errors.ValidationError('Decryption failed');

/** Strict Base64 (standard alphabet, padded or not); anything else is not a ciphertext of ours. */
const decodeBase64 = (data: string): Buffer => {
  const compact = data.replace(/\s+/g, '');
  if (compact.length === 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(compact) || compact.length % 4 === 1) {
    throw decryptionFailed();
  }
  return Buffer.from(compact, 'base64');
};

interface RsaKeys {
  privateKey: crypto.KeyObject;
  publicKeyPem: string;
}

const cryptoService = ({ strapi }: { strapi: Core.Strapi }) => {
  let rsa: Promise<RsaKeys> | undefined;
  let aesKey: Promise<Buffer> | undefined;

  const rsaKeys = (): Promise<RsaKeys> => {
    rsa ??= (async () => {
      const configured = getService(strapi, 'settings').file().crypto.rsa.privateKey;
      // Generated on the libuv thread pool: start-up and requests are not blocked while the key is made.
      // A configured key was checked by the config schema (RSA, ≥ 2048 bits) before start-up went on.
      const privateKey = configured
        ? crypto.createPrivateKey(configured)
        : (await generateKeyPair('rsa', { modulusLength: RSA_BITS })).privateKey;
      const publicKeyPem = crypto.createPublicKey(privateKey).export({ type: 'spki', format: 'pem' }).toString();
      return { privateKey, publicKeyPem };
    })();
    return rsa;
  };

  const aesSecret = () => getService(strapi, 'settings').file().crypto.aes.secret ?? process.env.AES_SECRET;

  const aes = (): Promise<Buffer> => {
    aesKey ??= (async () => {
      const secret = aesSecret();
      return secret ? scrypt(secret, AES_SALT, 32) : getService(strapi, 'clock').randomBytes(32);
    })();
    return aesKey;
  };

  return {
    /**
     * Key material is made on first use (the RSA pair on the thread pool), so it costs start-up nothing;
     * only the operator's warning about a temporary AES key is given at start.
     */
    init() {
      if (!aesSecret()) {
        strapi.log.warn(
          'cms-plugin-bag: no crypto.aes.secret and no AES_SECRET: using a temporary AES key; data encrypted now cannot be decrypted after a restart'
        );
      }
    },

    async publicKey(): Promise<string> {
      return (await rsaKeys()).publicKeyPem;
    },

    /** SHA-256 fingerprint of the public key (DER), hex with colons, for display. */
    async publicKeyFingerprint(): Promise<string> {
      const der = crypto.createPublicKey((await rsaKeys()).publicKeyPem).export({ type: 'spki', format: 'der' });
      return crypto.createHash('sha256').update(der).digest('hex').match(/.{2}/g)!.join(':');
    },

    async rsaEncrypt(data: string): Promise<string> {
      if (Buffer.byteLength(data, 'utf8') > RSA_MAX_PLAINTEXT_BYTES) {
        throw new errors.ValidationError('Data too long for RSA encryption');
      }
      const { publicKeyPem } = await rsaKeys();
      return crypto
        .publicEncrypt({ key: publicKeyPem, padding: crypto.constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(data, 'utf8'))
        .toString('base64');
    },

    /** Decrypts Base64 RSA-OAEP/SHA-256; any failure is the same 400 `Decryption failed`. */
    async rsaDecrypt(data: string): Promise<string> {
      const ciphertext = decodeBase64(data);
      const { privateKey } = await rsaKeys();
      try {
        return crypto
          .privateDecrypt({ key: privateKey, padding: crypto.constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, ciphertext)
          .toString('utf8');
      } catch {
        throw decryptionFailed();
      }
    },

    async aesEncrypt(data: string): Promise<string> {
      const key = await aes();
      const iv = getService(strapi, 'clock').randomBytes(IV_BYTES);
      const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
      const ciphertext = Buffer.concat([cipher.update(data, 'utf8'), cipher.final()]);
      return Buffer.concat([ciphertext, cipher.getAuthTag(), iv]).toString('base64');
    },

    async aesDecrypt(data: string): Promise<string> {
      const raw = decodeBase64(data);
      if (raw.length < TAG_BYTES + IV_BYTES) throw decryptionFailed();
      const key = await aes();
      const iv = raw.subarray(raw.length - IV_BYTES);
      const tag = raw.subarray(raw.length - IV_BYTES - TAG_BYTES, raw.length - IV_BYTES);
      const ciphertext = raw.subarray(0, raw.length - IV_BYTES - TAG_BYTES);
      try {
        const decipher = crypto.createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
        decipher.setAuthTag(tag);
        return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
      } catch {
        throw decryptionFailed();
      }
    },
  };
};

export type CryptoService = ReturnType<typeof cryptoService>;
export default cryptoService;
