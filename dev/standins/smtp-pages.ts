import type { ReceivedMail } from './received-mail';

/** The SMTP stand-in's mailbox page: newest first, each message's headers, text, and its HTML in a sandbox. */

const esc = (s: unknown) =>
  String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const SHOWN_HEADERS = ['list-unsubscribe', 'list-unsubscribe-post', 'message-id', 'date'];

function message(m: ReceivedMail): string {
  const headers = SHOWN_HEADERS.filter((h) => m.headers[h])
    .map((h) => `<dt>${esc(h)}</dt><dd>${esc(m.headers[h])}</dd>`)
    .join('');
  return `<article>
<h2>${esc(m.subject || '(no subject)')}</h2>
<p class="note">To ${esc(m.envelope.to.join(', '))} · from ${esc(m.from)} · ${esc(m.receivedAt)}</p>
<dl>${headers}</dl>
<details><summary>HTML part</summary><iframe title="HTML part of message ${m.id}" sandbox src="/mail/messages/${m.id}/html"></iframe></details>
<details><summary>Plain-text part</summary><pre>${esc(m.text)}</pre></details>
</article>`;
}

export function mailboxPage(messages: ReceivedMail[]): string {
  const body = messages.length
    ? messages.map(message).join('\n')
    : '<p>No messages yet. Emails the app sends (timer digests, alerts) appear here.</p>';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,"><title>Local mailbox</title>
<style>
body{font-family:system-ui,sans-serif;background:#f6f9fc;color:#1a1f36;margin:0;padding:24px 16px}
main{max-width:860px;margin:0 auto}article{background:#fff;border-radius:12px;box-shadow:0 4px 20px rgb(0 0 0/6%);padding:20px;margin:16px 0}
h2{font-size:1.1rem;margin:0 0 4px;overflow-wrap:anywhere}.note{color:#697386;font-size:.9rem;overflow-wrap:anywhere}
dl{display:grid;grid-template-columns:auto 1fr;gap:4px 12px;font-size:.85rem}dt{color:#697386}dd{margin:0;overflow-wrap:anywhere}
iframe{width:100%;height:480px;border:1px solid #d5dbe1;border-radius:8px}pre{white-space:pre-wrap;overflow-wrap:anywhere}
</style></head><body><main>
<h1>Local mailbox</h1>
<p class="note">Messages received by the local SMTP stand-in, newest first (the latest 200, kept in memory). JSON: <a href="/mail/messages">/mail/messages</a>.</p>
${body}
</main></body></html>`;
}
