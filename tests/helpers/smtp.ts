/** A real local SMTP server (`smtp-server`) that keeps what it receives, parsed, and can refuse mail on demand. */
import type { AddressInfo } from 'net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  subject: string;
  text: string;
}

export interface TestSmtp {
  port: number;
  mails: ReceivedMail[];
  /** While true, every message is refused with a 550. */
  rejecting: boolean;
  /** The env that points the playground's nodemailer provider at this server. */
  env: Record<string, string>;
  /** Polls (bounded) for the next mail to `address` and returns its 6-digit code. */
  codeFor: (address: string, after?: number) => Promise<string>;
  close: () => Promise<void>;
}

export async function startSmtp(port = 0): Promise<TestSmtp> {
  const state = { rejecting: false };
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          if (state.rejecting) return callback(Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 }));
          const to = (Array.isArray(mail.to) ? mail.to : mail.to ? [mail.to] : []).flatMap((a) => a.value.map((v) => (v.address ?? '').toLowerCase()));
          mails.push({ to, subject: mail.subject ?? '', text: mail.text ?? '' });
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  const actualPort = (server.server.address() as AddressInfo).port;

  const smtp: TestSmtp = {
    port: actualPort,
    mails,
    get rejecting() {
      return state.rejecting;
    },
    set rejecting(value: boolean) {
      state.rejecting = value;
    },
    env: { SMTP_HOST: '127.0.0.1', SMTP_PORT: String(actualPort), SMTP_IGNORE_TLS: 'true', SMTP_TIMEOUT: '5000' },
    async codeFor(address: string, after = 0) {
      const deadline = Date.now() + 10_000;
      for (;;) {
        const mail = mails.slice(after).reverse().find((m) => m.to.includes(address.toLowerCase()));
        const code = mail?.text.match(/\b(\d{6})\b/)?.[1];
        if (code) return code;
        if (Date.now() > deadline) throw new Error(`no code mailed to ${address}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return smtp;
}
