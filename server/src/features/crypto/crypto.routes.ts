/** `/api/cms-plugin-bag/utils/…`. Decrypt and AES are granted to nobody: an open decrypt would undo the encryption. */
import * as shapes from './crypto.shapes';
import type { RouteModule } from '../../platform/route-types';

const data = shapes.dataRequest;

const cryptoRoutes: RouteModule = {
  routes: [
    { method: 'GET', path: '/utils/rsa/public-key', handler: 'crypto.rsaPublicKey', response: shapes.publicKey },
    { method: 'POST', path: '/utils/rsa/encrypt', handler: 'crypto.rsaEncrypt', request: data, response: shapes.encrypted },
    { method: 'POST', path: '/utils/rsa/decrypt', handler: 'crypto.rsaDecrypt', request: data, response: shapes.decrypted },
    { method: 'POST', path: '/utils/aes/encrypt', handler: 'crypto.aesEncrypt', request: data, response: shapes.encrypted },
    { method: 'POST', path: '/utils/aes/decrypt', handler: 'crypto.aesDecrypt', request: data, response: shapes.decrypted },
  ],
  grants: {
    public: ['crypto.rsaPublicKey', 'crypto.rsaEncrypt'],
    authenticated: ['crypto.rsaPublicKey', 'crypto.rsaEncrypt'],
  },
};

export default cryptoRoutes;
