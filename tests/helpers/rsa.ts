import crypto from 'crypto';

/** A PKCS#8 PEM RSA private key, as an operator would put in `crypto.rsa.privateKey` / RSA_PRIVATE_KEY. */
export const rsaPrivateKeyPem = (modulusLength = 2048): string =>
  crypto.generateKeyPairSync('rsa', {
    modulusLength,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  }).privateKey;
