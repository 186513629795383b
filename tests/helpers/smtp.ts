/**
 * A real SMTP server for tests (the `smtp-server` package), collecting parsed mail. Point the playground at it
 * with `setupStrapi({ env: smtp.env })`. `stop()` / `start()` take it down and bring it back on the same port;
 * `refuse(true)` makes it answer every recipient with 550 quoting the address, as Postfix does (a mail server that is
 * up but rejects).
 */
import type { AddressInfo } from 'net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/**
 * The subjects of the plugin's notices about an account (sign-in alert, credential changes, the second factor's
 * lock): mails with no code in them, which `nextCode` passes over.
 */
export const NOTICE_SUBJECTS = new Set([
  'New sign-in to your account',
  'A passkey was added to your account',
  'A passkey was removed from your account',
  'Two-factor authentication was turned on',
  'Two-factor authentication was turned off',
  'New recovery codes were made for your account',
  'A recovery code was used',
  'Your password was changed',
  'Your password was reset',
  'Too many wrong two-factor codes',
]);

export interface Mail {
  to: string[];
  subject: string;
  text: string;
  html: string;
  /** Header lines as sent, by lower-cased name (the last one wins), folding undone. */
  headers: Record<string, string>;
}

export interface TestSmtp {
  port: number;
  /** Environment for setupStrapi: SMTP_HOST, SMTP_PORT, SMTP_IGNORE_TLS, a short SMTP_TIMEOUT. */
  env: Record<string, string>;
  mails: Mail[];
  /** The first mail to `address` (case-insensitive) not returned before, waiting up to `timeoutMs`. */
  nextMail: (address: string, timeoutMs?: number) => Promise<Mail>;
  /** The 6-digit code of the next mail to `address` (notices skipped). */
  nextCode: (address: string, timeoutMs?: number) => Promise<string>;
  stop: () => Promise<void>;
  start: () => Promise<void>;
  refuse: (on: boolean) => void;
  /**
   * `hold()`: mails are read but not answered (the server has not accepted them yet) until `release()`; `held()` is
   * how many wait. A test can act while a sender waits on the server (e.g. between two batches of a newsletter send).
   */
  hold: () => void;
  release: () => void;
  held: () => number;
}

const addresses = (parsed: ParsedMail): string[] => {
  const list = Array.isArray(parsed.to) ? parsed.to : parsed.to ? [parsed.to] : [];
  return list.flatMap((group) => group.value.map((entry) => (entry.address ?? '').toLowerCase()));
};

export async function startSmtp(): Promise<TestSmtp> {
  const mails: Mail[] = [];
  const taken = new Set<Mail>();
  let server: SMTPServer | undefined;
  let port = 0;
  let refusing = false;
  let gate: { promise: Promise<void>; open: () => void } | undefined;
  let waiting = 0;
  /** Sessions whose client went away: a held mail of theirs was never accepted, so it is not collected. */
  const closed = new Set<string>();

  const listen = async () => {
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onRcptTo(address, _session, callback) {
        if (!refusing) return callback();
        callback(Object.assign(new Error(`<${address.address}>: Recipient address rejected: Mailbox unavailable`), { responseCode: 550 }));
      },
      onClose(session) {
        closed.add(session.id);
      },
      onData(stream, session, callback) {
        simpleParser(stream)
          .then((parsed) => {
            const headers = Object.fromEntries(
              parsed.headerLines.map(({ key, line }) => [key.toLowerCase(), line.slice(line.indexOf(':') + 1).replace(/\r?\n[ \t]+/g, ' ').trim()])
            );
            const accept = () => {
              mails.push({ to: addresses(parsed), subject: parsed.subject ?? '', text: parsed.text ?? '', html: parsed.html || '', headers });
              callback();
            };
            if (!gate) return accept();
            waiting += 1;
            return gate.promise.then(() => {
              waiting -= 1;
              if (closed.has(session.id)) return callback(new Error('client went away'));
              accept();
            });
          })
          .catch(callback);
      },
    });
    await new Promise<void>((resolve, reject) => {
      server!.once('error', reject);
      server!.listen(port, '127.0.0.1', () => resolve());
    });
    port = (server.server.address() as AddressInfo).port;
  };

  await listen();

  const nextMail = async (address: string, timeoutMs = 10_000): Promise<Mail> => {
    const wanted = address.toLowerCase();
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const mail = mails.find((m) => !taken.has(m) && m.to.includes(wanted));
      if (mail) {
        taken.add(mail);
        return mail;
      }
      if (Date.now() > deadline) throw new Error(`no mail to ${address} within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };

  return {
    get port() {
      return port;
    },
    get env() {
      return { SMTP_HOST: '127.0.0.1', SMTP_PORT: String(port), SMTP_IGNORE_TLS: 'true', SMTP_TIMEOUT: '3000' };
    },
    mails,
    nextMail,
    async nextCode(address, timeoutMs) {
      let mail = await nextMail(address, timeoutMs);
      // A notice (docs/accounts.md#alerts) may come between a login or a change and the code a test waits for.
      while (NOTICE_SUBJECTS.has(mail.subject)) mail = await nextMail(address, timeoutMs);
      const match = /\b(\d{6})\b/.exec(mail.text);
      if (!match) throw new Error(`no 6-digit code in the mail to ${address}`);
      return match[1];
    },
    async stop() {
      if (!server) return;
      const closing = server;
      server = undefined;
      await new Promise<void>((resolve) => closing.close(() => resolve()));
    },
    async start() {
      if (!server) await listen();
    },
    refuse(on) {
      refusing = on;
    },
    hold() {
      if (gate) return;
      let open!: () => void;
      const promise = new Promise<void>((resolve) => (open = resolve));
      gate = { promise, open };
    },
    release() {
      gate?.open();
      gate = undefined;
    },
    held: () => waiting,
  };
}
