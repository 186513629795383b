/**
 * Newsletters under `/api/bag/newsletters` (docs/newsletters.md): the list, subscribing by address (a confirmation
 * link is mailed) and the signed-in account's own choices.
 */
import type { z } from 'zod/v4';
import type * as shapes from '../../server/src/features/newsletters/newsletters.shapes';
import { json, type Session } from './session';

export type Newsletter = z.infer<typeof shapes.newsletterItem>;
/** One subscription of the account: the newsletter's slug and the locale its mails come in. */
export type NewsletterSubscription = z.infer<typeof shapes.subscription>;
/** `newsletters`: slugs; `email`: the address (without a token); `locale`: the mails' locale. */
export type SubscribeInput = z.input<typeof shapes.subscribeBody>;

export function newsletterCalls(session: Session) {
  const { send, request } = session;
  const base = '/api/bag/newsletters';
  return {
    /** Every newsletter one can subscribe to. */
    list: async (): Promise<Newsletter[]> => (await send<z.infer<typeof shapes.newsletterList>>(base)).data,

    /**
     * Subscribes an address (no token sent): the server's `message` is the same whatever the address, and with double
     * opt-in a confirmation link is mailed to it.
     */
    subscribe: (input: SubscribeInput & { email: string }) => send<z.infer<typeof shapes.message>>(`${base}/subscribe`, json('POST', input)),

    /** The signed-in account's subscriptions. */
    mine: async (): Promise<NewsletterSubscription[]> => (await request<z.infer<typeof shapes.subscriptionList>>(`${base}/subscriptions`)).data,

    /** Sets exactly the account's subscriptions (active at once) and answers the new list. */
    setMine: async (input: z.input<typeof shapes.setSubscriptionsBody>): Promise<NewsletterSubscription[]> =>
      (await request<z.infer<typeof shapes.subscriptionList>>(`${base}/subscriptions`, json('PUT', input))).data,
  };
}
