import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { getService } from '../../platform/get-service';
import { validateDataBody } from './crypto.validation';

const cryptoController = ({ strapi }: { strapi: Core.Strapi }) => {
  const service = () => getService(strapi, 'crypto');

  return {
    async rsaPublicKey(ctx: Context) {
      ctx.body = { publicKey: await service().publicKey() };
    },
    async rsaEncrypt(ctx: Context) {
      ctx.body = { encrypted: await service().rsaEncrypt(validateDataBody(ctx.request.body)) };
    },
    async rsaDecrypt(ctx: Context) {
      ctx.body = { decrypted: await service().rsaDecrypt(validateDataBody(ctx.request.body)) };
    },
    async aesEncrypt(ctx: Context) {
      ctx.body = { encrypted: await service().aesEncrypt(validateDataBody(ctx.request.body)) };
    },
    async aesDecrypt(ctx: Context) {
      ctx.body = { decrypted: await service().aesDecrypt(validateDataBody(ctx.request.body)) };
    },
  };
};

export default cryptoController;
