import { Hono } from 'hono';
import { ChannelPosts, type ChannelPost } from './chat-received';
import { routeDiscord } from './discord-webhook';
import { routeNtfy } from './ntfy-topic';
import { routeSlack } from './slack-webhook';
import { routeTeams } from './teams-workflow';

const esc = (s: unknown) =>
  String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function postHtml(p: ChannelPost): string {
  const body = typeof p.body === 'string' ? p.body : JSON.stringify(p.body, null, 2);
  return `<article><h2>${esc(p.service)} · HTTP ${p.status}</h2>
<p class="note">${esc(p.path)} · ${esc(p.receivedAt)}${p.headers.title ? ` · Title: ${esc(p.headers.title)}` : ''}</p>
${p.reply ? `<p class="note">Answered: ${esc(p.reply)}</p>` : ''}
<details><summary>Body as received</summary><pre>${esc(body)}</pre></details></article>`;
}

function channelsPage(posts: ChannelPost[], origin: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,"><title>Local chat channels</title>
<style>body{font-family:system-ui,sans-serif;background:#f6f9fc;color:#1a1f36;margin:0;padding:24px 16px}main{max-width:860px;margin:0 auto}
article{background:#fff;border-radius:12px;box-shadow:0 4px 20px rgb(0 0 0/6%);padding:20px;margin:16px 0}h2{font-size:1.1rem;margin:0 0 4px}
.note{color:#697386;font-size:.9rem;overflow-wrap:anywhere}pre{white-space:pre-wrap;overflow-wrap:anywhere}code{overflow-wrap:anywhere}</style></head><body><main>
<h1>Local chat channels</h1>
<p class="note">Stand-ins for Slack, Discord, Microsoft Teams and ntfy. Add one of these addresses to a timer as its channel:</p>
<ul class="note">
<li>Slack: <code>${esc(origin)}/slack/services/T000/B000/standin</code></li>
<li>Discord: <code>${esc(origin)}/discord/api/webhooks/1/standin</code></li>
<li>Teams: <code>${esc(origin)}/teams/workflows/standin/triggers/manual/paths/invoke?api-version=1&amp;sp=%2Ftriggers%2Fmanual%2Frun&amp;sv=1.0&amp;sig=standin</code></li>
<li>ntfy: <code>${esc(origin)}/ntfy/standin</code> (or <code>/ntfy/protected</code> with the token <code>tk_standin</code>)</li>
</ul>
<p class="note">End an address with <code>gone</code> to see the service say it no longer exists, or <code>rate-limited</code> for one 429. JSON: <a href="/channels/posts">/channels/posts</a>.</p>
${posts.length ? posts.map(postHtml).join('\n') : '<p>Nothing posted yet.</p>'}
</main></body></html>`;
}

/** The chat and push stand-ins (Slack, Discord, Teams, ntfy) and their page of what they received, newest first. */
export function createChatChannelsStandin() {
  const posts = new ChannelPosts();
  const app = new Hono();
  routeSlack(app, posts);
  routeDiscord(app, posts);
  routeTeams(app, posts);
  routeNtfy(app, posts);
  app.get('/channels', (c) => c.redirect('/channels/'));
  app.get('/channels/', (c) => c.html(channelsPage([...posts.posts].reverse(), new URL(c.req.url).origin)));
  app.get('/channels/posts', (c) => c.json(posts.posts));
  return { app, posts };
}
