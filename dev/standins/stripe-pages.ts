/** The stand-in's hosted pages (checkout and billing portal): plain HTML forms, usable without JavaScript. */

const escapeHtml = (s: unknown) =>
  String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const money = (cents: number, currency: string) => `${(cents / 100).toFixed(2)} ${currency.toUpperCase()}`;
const day = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);

function layout(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,"><title>${escapeHtml(title)}</title>
<style>
body{font-family:system-ui,sans-serif;background:#f6f9fc;color:#1a1f36;margin:0;display:flex;justify-content:center;padding:40px 16px}
main{background:#fff;border-radius:12px;box-shadow:0 8px 30px rgb(0 0 0/8%);padding:32px;max-width:440px;width:100%}
.note{color:#697386;font-size:.9rem}.price{font-size:2rem;font-weight:700;margin:8px 0}
button{font:inherit;font-weight:600;width:100%;padding:12px;border-radius:8px;border:0;background:#635bff;color:#fff;cursor:pointer;margin-top:12px}
button.secondary{background:#fff;color:#1a1f36;border:1px solid #d5dbe1}
button:focus-visible,a:focus-visible{outline:3px solid #a5a0ff;outline-offset:2px}
h1{overflow-wrap:anywhere}.email{color:#697386;overflow-wrap:anywhere}
dl{display:grid;grid-template-columns:auto 1fr;gap:6px 16px}dt{color:#697386}dd{margin:0}
</style></head><body><main>${body}</main></body></html>`;
}

export function checkoutPage(p: {
  sessionId: string;
  productName: string;
  amount: number;
  currency: string;
  email: string;
  cancelUrl: string;
  open: boolean;
}): string {
  return layout(
    `Pay ${p.productName}`,
    `<p class="note">Local Stripe stand-in: no real payment is taken.</p>
<h1>Subscribe to ${escapeHtml(p.productName)}</h1>
<p class="price">${escapeHtml(money(p.amount, p.currency))} <span class="note">per month</span></p>
<p>Billed to ${escapeHtml(p.email)}</p>
${
  p.open
    ? `<form method="post" action="/checkout/${escapeHtml(p.sessionId)}/pay"><button type="submit">Pay</button></form>`
    : '<p role="status">This checkout session is already complete.</p>'
}
<p><a href="${escapeHtml(p.cancelUrl)}">Cancel and go back</a></p>`,
  );
}

export function portalPage(p: {
  portalId: string;
  email: string;
  returnUrl: string;
  subscriptions: { id: string; product: string; amount: number; currency: string; status: string; periodEnd: number }[];
}): string {
  const subs = p.subscriptions
    .map(
      (s) => `<section aria-label="Subscription ${escapeHtml(s.id)}"><h2>${escapeHtml(s.product)}</h2>
<dl><dt>Price</dt><dd>${escapeHtml(money(s.amount, s.currency))} per month</dd><dt>Status</dt><dd>${escapeHtml(s.status)}</dd>
<dt>Renews</dt><dd>${escapeHtml(day(s.periodEnd))}</dd></dl>
<form method="post" action="/portal/${escapeHtml(p.portalId)}/renew-fail"><input type="hidden" name="subscription" value="${escapeHtml(s.id)}">
<button type="submit" class="secondary">Simulate failed renewal</button></form>
<form method="post" action="/portal/${escapeHtml(p.portalId)}/renew"><input type="hidden" name="subscription" value="${escapeHtml(s.id)}">
<button type="submit" class="secondary">Simulate successful renewal</button></form>
<form method="post" action="/portal/${escapeHtml(p.portalId)}/cancel"><input type="hidden" name="subscription" value="${escapeHtml(s.id)}">
<button type="submit" class="secondary">Cancel subscription</button></form></section>`,
    )
    .join('');
  return layout(
    'Billing portal',
    `<p class="note">Local Stripe stand-in billing portal.</p><h1>Billing</h1><p class="email">${escapeHtml(p.email)}</p>
${subs || '<p>No active subscription.</p>'}
<p><a href="${escapeHtml(p.returnUrl)}">Return to Event Finder</a></p>`,
  );
}
