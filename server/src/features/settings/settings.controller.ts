/** Settings → CMS Bag: the admin keys of the effective configuration, and what the key material looks like. */
import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { adminView } from '../../platform/config/admin-settings';
import type { PluginConfig } from '../../platform/config/schema';
import { getService } from '../../platform/get-service';
import { settingsUpdateRequest } from '../../platform/config/settings.shapes';
import { checked } from '../../platform/request-check';

const adminSettingsController = ({ strapi }: { strapi: Core.Strapi }) => {
  const settings = () => getService(strapi, 'settings');

  /** The key material is described, never sent: whether it is configured, and the public key's fingerprint. */
  const keys = async () => {
    const file = settings().file();
    return {
      rsaPrivateKeyConfigured: Boolean(file.crypto.rsa.privateKey),
      aesSecretConfigured: Boolean(file.crypto.aes.secret ?? process.env.AES_SECRET),
      publicKeyFingerprint: await getService(strapi, 'crypto').publicKeyFingerprint(),
    };
  };

  const body = async (effective: PluginConfig) => ({
    data: {
      settings: adminView(effective),
      defaults: adminView(settings().file()),
      overrides: await settings().overrides(),
      crypto: await keys(),
    },
  });

  return {
    async find(ctx: Context) {
      ctx.body = await body(await settings().get());
    },
    update: checked(settingsUpdateRequest, async (ctx, { body: input }) => {
      ctx.body = await body(await settings().update(input ?? {}));
    }),
  };
};

export default adminSettingsController;
