import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { getService } from '../../platform/get-service';
import { checked } from '../../platform/request-check';
import { dataRequest } from './crypto.shapes';

const cryptoController = ({ strapi }: { strapi: Core.Strapi }) => {
  const service = () => getService(strapi, 'crypto');

  return {
    async rsaPublicKey(ctx: Context) {
      ctx.body = { publicKey: await service().publicKey() };
    },
    rsaEncrypt: checked(dataRequest, async (ctx, { body }) => {
      ctx.body = { encrypted: await service().rsaEncrypt(body.data) };
    }),
    rsaDecrypt: checked(dataRequest, async (ctx, { body }) => {
      ctx.body = { decrypted: await service().rsaDecrypt(body.data) };
    }),
    aesEncrypt: checked(dataRequest, async (ctx, { body }) => {
      ctx.body = { encrypted: await service().aesEncrypt(body.data) };
    }),
    aesDecrypt: checked(dataRequest, async (ctx, { body }) => {
      ctx.body = { decrypted: await service().aesDecrypt(body.data) };
    }),
  };
};

export default cryptoController;
