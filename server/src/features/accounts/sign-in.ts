/**
 * Where every successful sign-in ends (password login, login by e-mailed code, passkey, registration): the tokens are issued
 * and the sign-in is recorded for sign-in alerts. A step every sign-in must pass (a second factor) goes here.
 */
import type { Core } from '@strapi/strapi';
import type { PluginConfig } from '../../platform/config/schema';
import type { ClientInfo } from '../../platform/client';
import { getService } from '../../platform/get-service';
import type { Tokens } from './refresh-token';

/** How the account proved itself; registration records the device without an alert. */
export type SignInMethod = 'password' | 'code' | 'passkey' | 'register';

const signIn = ({ strapi }: { strapi: Core.Strapi }) => ({
  async complete(user: { id: number; email: string }, client: ClientInfo, config: PluginConfig, method: SignInMethod): Promise<Tokens> {
    const tokens = await getService(strapi, 'refresh-token').issue(user.id, client, config);
    await getService(strapi, 'sign-in-alerts').record(user, client, config, method !== 'register');
    return tokens;
  },
});

export type SignInService = ReturnType<typeof signIn>;
export default signIn;
