import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStandins, type Standins } from './server';

describe('SMTP stand-in', () => {
  let standins: Standins;
  beforeAll(async () => {
    standins = await startStandins({ port: 0, appUrl: 'http://127.0.0.1:1', googleClientId: 'x', stripeWebhookSecret: 'whsec_x' });
  });
  afterAll(async () => {
    await standins?.close();
  });

  it('receives over real SMTP (with or without a login) and shows the mailbox as a page and as JSON', async () => {
    const url = new URL(standins.smtpUrl);
    url.username = 'user';
    url.password = 'secret';
    const transport = nodemailer.createTransport(url.toString());
    await transport.sendMail({
      from: 'Event Finder <no-reply@localhost>',
      to: 'ada@example.com',
      subject: 'Hello <mailbox>',
      text: 'plain part',
      html: '<p>html <b>part</b></p><script>alert(1)</script>',
      headers: { 'List-Unsubscribe': '<http://127.0.0.1/unsubscribe/abc>' },
    });
    transport.close();

    const messages = (await (await fetch(`${standins.url}/mail/messages`)).json()) as {
      id: number;
      subject: string;
      envelope: { to: string[] };
      headers: Record<string, string>;
    }[];
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ subject: 'Hello <mailbox>', envelope: { to: ['ada@example.com'] } });
    expect(messages[0]!.headers['list-unsubscribe']).toBe('<http://127.0.0.1/unsubscribe/abc>');

    const page = await (await fetch(standins.mailboxUrl)).text();
    expect(page).toContain('Hello &lt;mailbox&gt;');
    expect(page).toContain('plain part');
    const html = await fetch(`${standins.url}/mail/messages/${messages[0]!.id}/html`);
    expect(html.headers.get('content-security-policy')).toContain('sandbox');
    expect(await html.text()).toContain('<b>part</b>');

    expect((await fetch(`${standins.url}/mail/messages`, { method: 'DELETE' })).status).toBe(204);
    expect(standins.smtp.messages).toHaveLength(0);
  });

  it('refuses the next message when told to, with the given SMTP reply', async () => {
    standins.smtp.refuseNext(1, 550, 'No such user');
    const transport = nodemailer.createTransport(standins.smtpUrl);
    await expect(transport.sendMail({ from: 'a@localhost', to: 'b@example.com', subject: 's', text: 't' })).rejects.toMatchObject({
      responseCode: 550,
    });
    await transport.sendMail({ from: 'a@localhost', to: 'b@example.com', subject: 'second', text: 't' });
    transport.close();
    expect(standins.smtp.messages.map((m) => m.subject)).toEqual(['second']);
  });
});
