/**
 * The SMTP sink of scripts/newsletters-bench.mjs, forked as a process of its own so that its CPU is not the Strapi
 * process's (nor the load generator's): an `smtp-server` accepting every mail, reading only the envelope. It counts
 * the mails to `s<i>@<domain>` per i (how many times each of the expected recipients got a mail), and the times of
 * the first and last mail accepted. Over IPC: `reset` `{ expected }` starts a new count; `stats` answers
 * `{ count, firstAt, lastAt, received, duplicates, misses, others }` (misses: expected recipients with no mail);
 * `capture` makes the next mail be parsed whole (mailparser) and sent back as `captured` (the floor replays it).
 */
import { SMTPServer } from 'smtp-server';
import { SMTPConnection } from 'smtp-server/lib/smtp-connection.js';
import { simpleParser } from 'mailparser';

// smtp-server waits 100 ms before its greeting on every connection, to catch clients that talk too soon (a spam
// check of a public server's). A sink on loopback has none to catch; with that pause, a sender opening a connection
// per mail (nodemailer without `pool`, the playground's transport) could not pass 10 mails a second, and the sink's
// pause, not the senders, would be measured. The connection starts at once instead (the check only is skipped).
SMTPConnection.prototype.init = function init() {
  this._setListeners(() => this.connectionReady());
};

let counts = new Uint16Array(0);
let count = 0;
let others = 0;
let firstAt = null;
let lastAt = null;
let capturing = false;

const tally = (session) => {
  for (const { address } of session.envelope.rcptTo) {
    const match = /^s(\d+)@/.exec(address);
    const i = match ? Number(match[1]) : -1;
    if (i >= 0 && i < counts.length) counts[i] += 1;
    else others += 1;
  }
  count += 1;
  lastAt = Date.now();
  firstAt ??= lastAt;
};

const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  // A reverse lookup of 127.0.0.1 per connection would be the sink's own cost (and slow on this machine).
  disableReverseLookup: true,
  // No client waits on a limit of the sink's: the senders decide the pace.
  maxClients: 1000,
  onData(stream, session, callback) {
    if (capturing) {
      capturing = false;
      simpleParser(stream)
        .then((parsed) => {
          const headers = Object.fromEntries(parsed.headerLines.map(({ key, line }) => [key.toLowerCase(), line.slice(line.indexOf(':') + 1).replace(/\r?\n[ \t]+/g, ' ').trim()]));
          process.send({ type: 'captured', mail: { subject: parsed.subject, html: parsed.html, text: parsed.text, headers, from: parsed.from?.text, replyTo: parsed.replyTo?.text } });
          tally(session);
          callback();
        })
        .catch(callback);
      return;
    }
    stream.on('end', () => {
      tally(session);
      callback();
    });
    stream.resume();
  },
});

process.on('message', (message) => {
  if (message.type === 'reset') {
    counts = new Uint16Array(message.expected ?? 0);
    count = 0;
    others = 0;
    firstAt = null;
    lastAt = null;
    process.send({ type: 'reset' });
  } else if (message.type === 'capture') {
    capturing = true;
    process.send({ type: 'capturing' });
  } else if (message.type === 'stats') {
    let received = 0;
    let duplicates = 0;
    let misses = 0;
    for (const n of counts) {
      if (n > 0) received += 1;
      if (n > 1) duplicates += 1;
      if (n === 0) misses += 1;
    }
    process.send({ type: 'stats', count, firstAt, lastAt, received, duplicates, misses, others });
  } else if (message.type === 'stop') {
    server.close(() => process.exit(0));
  }
});

server.listen(0, '127.0.0.1', () => process.send({ type: 'ready', port: server.server.address().port }));
