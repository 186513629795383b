/** RSA-OAEP/SHA-256 with WebCrypto (browsers and Node 20's `globalThis.crypto`), matching the plugin's key service. */

const pemToDer = (pem: string): ArrayBuffer => {
  const base64 = pem.replace(/-----(BEGIN|END) PUBLIC KEY-----/g, '').replace(/\s+/g, '');
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes.buffer;
};

const toBase64 = (buffer: ArrayBuffer): string => {
  const bytes = new Uint8Array(buffer);
  let binary = '';
  for (let i = 0; i < bytes.length; i += 1) binary += String.fromCharCode(bytes[i]);
  return btoa(binary);
};

/** Imports an SPKI PEM public key for RSA-OAEP with SHA-256. */
export const importPublicKey = (pem: string): Promise<CryptoKey> =>
  globalThis.crypto.subtle.importKey('spki', pemToDer(pem), { name: 'RSA-OAEP', hash: 'SHA-256' }, false, ['encrypt']);

/** Base64 RSA-OAEP/SHA-256 ciphertext of `text` (at most 190 bytes of UTF-8 with a 2048-bit key). */
export const rsaEncrypt = async (key: CryptoKey, text: string): Promise<string> =>
  toBase64(await globalThis.crypto.subtle.encrypt({ name: 'RSA-OAEP' }, key, new TextEncoder().encode(text)));
