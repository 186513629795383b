/** `/api/cms-plugin-bag/utils/…`. Decrypt and AES are granted to nobody: an open decrypt would undo the encryption. */
import type { RouteModule } from '../types';

const cryptoRoutes: RouteModule = {
  routes: [
    { method: 'GET', path: '/utils/rsa/public-key', handler: 'crypto.rsaPublicKey' },
    { method: 'POST', path: '/utils/rsa/encrypt', handler: 'crypto.rsaEncrypt' },
    { method: 'POST', path: '/utils/rsa/decrypt', handler: 'crypto.rsaDecrypt' },
    { method: 'POST', path: '/utils/aes/encrypt', handler: 'crypto.aesEncrypt' },
    { method: 'POST', path: '/utils/aes/decrypt', handler: 'crypto.aesDecrypt' },
  ],
  grants: {
    public: ['crypto.rsaPublicKey', 'crypto.rsaEncrypt'],
    authenticated: ['crypto.rsaPublicKey', 'crypto.rsaEncrypt'],
  },
};

export default cryptoRoutes;
