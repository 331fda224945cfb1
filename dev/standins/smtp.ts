import type { ReceivedMail } from './received-mail';
import { EventEmitter } from 'node:events';
import type { AddressInfo } from 'node:net';
import { Hono } from 'hono';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { mailboxPage } from './smtp-pages';

const KEEP = 200;

/**
 * A real SMTP server (smtp-server) that keeps what it receives in memory, parsed with mailparser, and shows it
 * at /mail/ on the stand-in HTTP server. No TLS and any (or no) login: it only ever listens on loopback or a
 * private container network, for `make dev` and the tests.
 */
export function createSmtpStandin() {
  const messages: ReceivedMail[] = [];
  const events = new EventEmitter();
  let nextId = 1;
  // Replies for the next messages instead of accepting them, so tests can watch a retry (e.g. 451 = try later).
  const refusals: { code: number; message: string }[] = [];
  // Messages to keep and then cut the connection on, without the reply that says they were accepted: what a
  // server or network that fails at the worst moment does (the client cannot know, and sends again).
  let drops = 0;

  const server = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    banner: 'Event Finder local SMTP stand-in',
    size: 10 * 1024 * 1024,
    logger: false,
    onAuth: (auth, _session, callback) => callback(null, { user: auth.username ?? 'anyone' }),
    onData: (stream, session, callback) => {
      simpleParser(stream)
        .then((parsed) => {
          const refusal = refusals.shift();
          if (refusal) {
            const err = new Error(refusal.message) as Error & { responseCode: number };
            err.responseCode = refusal.code;
            return callback(err);
          }
          const headers: Record<string, string> = {};
          for (const { key, line } of parsed.headerLines) {
            headers[key.toLowerCase()] = line
              .slice(line.indexOf(':') + 1)
              .replace(/\r?\n[ \t]+/g, ' ')
              .trim();
          }
          const mail: ReceivedMail = {
            id: nextId++,
            receivedAt: new Date().toISOString(),
            envelope: {
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              to: session.envelope.rcptTo.map((r) => r.address),
            },
            from: parsed.from?.text ?? '',
            to: [parsed.to ?? []]
              .flat()
              .map((a) => a.text)
              .join(', '),
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : '',
            headers,
          };
          messages.push(mail);
          if (messages.length > KEEP) messages.shift();
          events.emit('mail', mail);
          if (drops > 0) {
            drops--;
            for (const connection of server.connections) {
              const c = connection as unknown as { id: string; _socket?: { destroy: () => void } };
              if (c.id === session.id) c._socket?.destroy();
            }
            return;
          }
          callback();
        })
        .catch((err: Error) => callback(err));
    },
  });

  const app = new Hono();
  app.get('/mail', (c) => c.redirect('/mail/'));
  app.get('/mail/', (c) => c.html(mailboxPage([...messages].reverse())));
  app.get('/mail/messages', (c) => c.json(messages));
  app.delete('/mail/messages', (c) => {
    messages.length = 0;
    return c.body(null, 204);
  });
  app.get('/mail/messages/:id/html', (c) => {
    const mail = messages.find((m) => m.id === Number(c.req.param('id')));
    if (!mail) return c.text('No such message (the mailbox keeps the latest 200).', 404);
    // The message's own HTML, shown as a mail client would: no scripts, no access to this origin.
    c.header('Content-Security-Policy', "sandbox; default-src 'none'; img-src * data:; style-src 'unsafe-inline'");
    return c.html(mail.html || `<pre>${mail.text.replace(/[&<>]/g, (ch) => `&#${ch.charCodeAt(0)};`)}</pre>`);
  });

  let port = 0;
  return {
    app,
    messages,
    get port() {
      return port;
    },
    /** The next `count` messages are answered with this SMTP reply instead of being accepted. */
    refuseNext(count: number, code = 451, message = 'Try again later (stand-in told to refuse)') {
      for (let i = 0; i < count; i++) refusals.push({ code, message });
    },
    /** The next `count` messages are kept, and then the connection is cut before the reply that accepts them. */
    dropAfterAcceptNext(count: number) {
      drops += count;
    },
    /** Resolves with the first message (already received or arriving) that matches. */
    waitFor(match: (m: ReceivedMail) => boolean): Promise<ReceivedMail> {
      const found = messages.find(match);
      if (found) return Promise.resolve(found);
      return new Promise((resolve) => {
        const onMail = (m: ReceivedMail) => {
          if (!match(m)) return;
          events.off('mail', onMail);
          resolve(m);
        };
        events.on('mail', onMail);
      });
    },
    clear() {
      messages.length = 0;
    },
    listen: (listenPort: number, host: string) =>
      new Promise<number>((resolve, reject) => {
        server.once('error', (err: NodeJS.ErrnoException) =>
          reject(
            err.code === 'EADDRINUSE'
              ? new Error(
                  `The SMTP stand-in cannot listen on ${host}:${listenPort}: the port is in use. Stop what uses it, or set STANDIN_SMTP_PORT to another port.`,
                )
              : err,
          ),
        );
        server.listen(listenPort, host, () => {
          port = (server.server.address() as AddressInfo).port;
          resolve(port);
        });
      }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type SmtpStandin = ReturnType<typeof createSmtpStandin>;
