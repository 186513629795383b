/** A webhook receiver for tests: an HTTP server on 127.0.0.1 that records every POST the host's webhook runner sends. */
import http from 'http';
import type { AddressInfo } from 'net';

export interface Delivery {
  headers: http.IncomingHttpHeaders;
  body: { event: string; createdAt: string; comment: Record<string, unknown> };
}

export interface Receiver {
  /** `http://127.0.0.1:<port>/hook`, to register as a webhook's URL. */
  url: string;
  received: Delivery[];
  /** Resolves once `done(received)` holds, checked on each arrival, or after `timeoutMs` (the caller then asserts on what came). */
  waitFor(done: (received: Delivery[]) => boolean, timeoutMs?: number): Promise<Delivery[]>;
  stop(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: Delivery[] = [];
  const waiters: (() => void)[] = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body: JSON.parse(raw) });
      res.writeHead(200).end();
      for (const wake of waiters.splice(0)) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

  const waitFor = async (done: (received: Delivery[]) => boolean, timeoutMs = 10_000) => {
    const deadline = Date.now() + timeoutMs;
    while (!done(received) && Date.now() < deadline) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, deadline - Date.now());
        waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return received;
  };

  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    waitFor,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
