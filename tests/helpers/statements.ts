/**
 * Tests that count the SQL a request runs listen to knex's `query` event, which also reports what the app runs on its
 * own clock: the newsletter delivery loop's poll for queued or running sends, once a second on every instance
 * (server/src/features/newsletters/delivery.ts). `forRequests` wraps such a listener so that it does not see that poll.
 */
const BACKGROUND = [/^select [`"]t0[`"]\.\* from [`"]bag_newsletter_sends[`"] as [`"]t0[`"] where \([`"]t0[`"]\.[`"]status[`"] in /];

export const isBackground = (sql: string) => BACKGROUND.some((pattern) => pattern.test(sql.trim()));

/** The listener, called for every statement but the app's own background ones. Pass the result to `on` and `off`. */
export const forRequests =
  <Q extends { sql: string }>(listener: (query: Q) => void) =>
  (query: Q) => {
    if (!isBackground(query.sql)) listener(query);
  };
