import { Fragment, type ReactNode } from 'react';
import { PROBLEMS } from '../../core/contract/problem';

/** The parts of an OpenAPI 3.1 document this page shows (api/openapi/document.ts makes it). */
export interface OpenApiDocument {
  info: { title: string; description: string };
  servers: { url: string }[];
  paths: Record<string, Record<string, OpenApiOperation>>;
  components?: { parameters?: Record<string, Parameter> };
}

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description: string;
}

interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  description?: string;
}

interface OpenApiOperation {
  operationId: string;
  summary: string;
  description: string;
  /** Inline, or a reference into components.parameters (shared headers such as Idempotency-Key). */
  parameters?: (Parameter | { $ref: string })[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: JsonSchema }> }>;
}

/** `code` spans written with backticks, as the document's descriptions write them. */
function Prose({ text }: { text: string }) {
  // Text split into paragraphs and code spans: the pieces are fixed text that never moves, so their place is their key.
  const paragraphs = text.split('\n\n').map((para, i) => ({
    key: `p${i}`,
    parts: para.split('`').map((part, j) => ({ key: `${i}.${j}`, code: j % 2 === 1, part })),
  }));
  return (
    <>
      {paragraphs.map((p) => (
        <p key={p.key}>{p.parts.map((x) => (x.code ? <code key={x.key}>{x.part}</code> : <Fragment key={x.key}>{x.part}</Fragment>))}</p>
      ))}
    </>
  );
}

/** A schema's type in a few words: `string`, `string or null`, `one of: daily, weekly`, `array of object`. */
function typeOf(s: JsonSchema): string {
  if (s.enum) return `one of: ${s.enum.map(String).join(', ')}`;
  if (s.anyOf) return s.anyOf.map(typeOf).join(' or ');
  // A field the contract leaves open (its rules are the server's, said in the call's description).
  const types = Array.isArray(s.type) ? s.type : s.type ? [s.type] : ['as described above'];
  return types.map((t) => (t === 'array' && s.items ? `array of ${typeOf(s.items)}` : t)).join(' or ');
}

/** The fields of an object schema, one row each; an array of objects lists its items' fields. */
function Fields({ schema }: { schema: JsonSchema }) {
  const object = schema.type === 'array' && schema.items ? schema.items : schema;
  if (!object.properties) return <p>{typeOf(schema)}</p>;
  return (
    <>
      {object !== schema ? <p>An array; each item:</p> : null}
      <table className="api-docs__fields">
        <thead>
          <tr>
            <th scope="col">Field</th>
            <th scope="col">Type</th>
            <th scope="col">Required</th>
          </tr>
        </thead>
        <tbody>
          {Object.entries(object.properties).map(([name, field]) => (
            <tr key={name}>
              <td>
                <code>{name}</code>
              </td>
              <td>{typeOf(field)}</td>
              <td>{object.required?.includes(name) ? 'yes' : 'no'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

function Body({ title, content }: { title: string; content: Record<string, { schema: JsonSchema }> }) {
  return (
    <>
      {Object.entries(content).map(([media, { schema }]) => (
        <div key={media}>
          <h4>
            {title} <code>{media}</code>
          </h4>
          {schema.description ? <Prose text={schema.description} /> : <Fields schema={schema} />}
        </div>
      ))}
    </>
  );
}

/** A parameter as written, or the shared one its `$ref` names. */
function parameterOf(p: Parameter | { $ref: string }, shared: Record<string, Parameter>): Parameter | undefined {
  return '$ref' in p ? shared[p.$ref.replace('#/components/parameters/', '')] : p;
}

function Operation({
  method,
  path,
  op,
  shared,
}: {
  method: string;
  path: string;
  op: OpenApiOperation;
  shared: Record<string, Parameter>;
}) {
  const id = `op-${op.operationId}`;
  const parameters = (op.parameters ?? []).flatMap((p) => parameterOf(p, shared) ?? []);
  return (
    <section className="panel api-docs__op" aria-labelledby={id}>
      <h3 id={id}>
        <span className={`api-docs__method api-docs__method--${method}`}>{method.toUpperCase()}</span> <code>{path}</code>
      </h3>
      <p className="api-docs__summary">{op.summary}</p>
      {/* Folded: the page lists every call at a glance (and stays short on a phone); each opens in place. */}
      <details className="api-docs__more">
        <summary>Details: parameters, body and replies</summary>
        <Prose text={op.description} />
        {parameters.length ? (
          <>
            <h4>Parameters</h4>
            <ul>
              {parameters.map((p) => (
                <li key={p.name}>
                  <code>{p.name}</code> ({p.in}
                  {p.required ? ', required' : ''}): {p.description}
                </li>
              ))}
            </ul>
          </>
        ) : null}
        {op.requestBody ? <Body title="Request body" content={op.requestBody.content} /> : null}
        <h4>Replies</h4>
        <dl className="api-docs__replies">
          {Object.entries(op.responses).map(([status, reply]) => (
            <div key={status}>
              <dt>{status}</dt>
              <dd>
                {reply.description}
                {reply.content && status.startsWith('2') ? <Body title="Body" content={reply.content} /> : null}
              </dd>
            </div>
          ))}
        </dl>
      </details>
    </section>
  );
}

function Section({ title, id, children }: { title: string; id: string; children: ReactNode }) {
  return (
    <section className="panel" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}

/** GET /api/docs: the OpenAPI document as a page to read; no script, so it works under the strict CSP. */
export function ApiDocsPage({ document }: { document: OpenApiDocument }) {
  const origin = document.servers[0]?.url ?? '';
  const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ path, method, op })),
  );
  return (
    <div className="app api-docs">
      <main id="main">
        <header className="api-docs__head">
          <h1>{document.info.title}</h1>
          <Prose text={document.info.description} />
          <p>
            Machine-readable: <a href="/api/openapi.json">/api/openapi.json</a> (OpenAPI 3.1). <a href="/">Back to Event Finder</a>
          </p>
        </header>
        <Section title="Try it" id="try-it">
          <pre className="api-docs__code">
            <code>{`curl -H "Authorization: Bearer $EVENT_FINDER_TOKEN" \\\n  -H 'content-type: application/json' \\\n  -d '{"ques": "AI conferences in Berlin next month"}' \\\n  ${origin}/v1/search`}</code>
          </pre>
          <details className="api-docs__more">
            <summary>Problem details, rate limits, Idempotency-Key and CORS</summary>
            <p>
              Every error is RFC 9457 problem details (<code>application/problem+json</code>): <code>type</code>, <code>title</code>,{' '}
              <code>status</code>, <code>detail</code> (a sentence for a person), a stable <code>code</code> to branch on, and{' '}
              <code>field</code> when one request field is at fault. Every reply carries <code>RateLimit-Policy</code> and{' '}
              <code>RateLimit</code> (the per-user budget and what is left of it); every 429 and 503 carries <code>Retry-After</code>.
            </p>
            <p>
              Send <code>Idempotency-Key: &lt;a UUID&gt;</code> with a POST so a retry after a lost reply creates and charges nothing twice:
              a successful reply is kept 24 hours and replayed for the same key and body; another body with the key gets 422, and a retry
              while the first is still being answered gets 409. A reply that is not 2xx is not kept, so the retry runs again.
            </p>
            <p>
              Web pages on other origins may call <code>/v1</code> with a token (CORS; cookies are never sent or accepted, the token is the
              only credential). The server's operator may limit which origins with <code>API_CORS_ORIGINS</code>.
            </p>
          </details>
          <details className="api-docs__more">
            <summary id="errors">Every error code</summary>
            <dl className="api-docs__replies">
              {Object.entries(PROBLEMS).map(([code, p]) => (
                <div key={code} id={`problem-${code}`}>
                  <dt>
                    <code>{code}</code>
                  </dt>
                  <dd>
                    {p.status}: {p.title}
                  </dd>
                </div>
              ))}
            </dl>
          </details>
        </Section>
        <Section title="MCP server" id="mcp">
          <p>
            AI agents can use the same abilities through MCP (Streamable HTTP) at <code>{`${origin}/mcp`}</code>, with the token in the{' '}
            <code>Authorization</code> header. Tools: <code>find_events</code>, <code>get_search</code>, <code>list_timers</code>,{' '}
            <code>list_timer_runs</code>, <code>create_timer</code>, <code>edit_timer</code>, <code>timer_events</code>,{' '}
            <code>send_test_delivery</code>.
          </p>
          <details className="api-docs__more">
            <summary>A client's configuration</summary>
            <pre className="api-docs__code">
              <code>
                {JSON.stringify(
                  { mcpServers: { 'event-finder': { type: 'http', url: `${origin}/mcp`, headers: { Authorization: 'Bearer ef_…' } } } },
                  null,
                  2,
                )}
              </code>
            </pre>
          </details>
        </Section>
        <Section title="Webhooks" id="webhooks">
          <p>
            A timer with a <code>webhook_url</code> POSTs JSON there after a run: <code>kind</code> is <code>digest</code> (new or changed
            events), <code>paused</code> (the timer paused itself) or <code>out-of-searches</code> (a run was skipped). The body's fields
            are in <a href="/api/openapi.json">/api/openapi.json</a> under <code>webhooks</code>. To try your receiver,{' '}
            <code>POST /v1/timers/{'{id}'}/test-delivery</code> with <code>{'{"destination": "webhook"}'}</code> (or Send a test in Manage
            Timers) posts the next digest now, signed as any delivery, with <code>"test": true</code>.
          </p>
          <details className="api-docs__more">
            <summary>Verifying a delivery; retries, 410 and turning it off</summary>
            <p>
              Each delivery is signed as <a href="https://www.standardwebhooks.com">Standard Webhooks</a> describes: headers{' '}
              <code>webhook-id</code>, <code>webhook-timestamp</code> and <code>webhook-signature</code>, keyed with the{' '}
              <code>whsec_…</code> secret that <code>PATCH /v1/timers/{'{id}'}</code> returned as <code>webhook_secret</code> when you set
              the webhook. Verify the raw body, before parsing it, with an official library (npm <code>standardwebhooks</code>, PyPI{' '}
              <code>standardwebhooks</code>, and others for Go, Rust, Java, Ruby, PHP and C#); it also refuses a timestamp more than five
              minutes off. A retry keeps its <code>webhook-id</code>: drop one you have already handled.
            </p>
            <p>
              Answer 2xx within 10 seconds to acknowledge. A 408, 429 or 5xx, or no answer in time, is tried again with the same{' '}
              <code>webhook-id</code>: 10 attempts in all, 30 seconds apart at first and twice as long each time (about 4 hours). Any other
              4xx fails that delivery only. Answer <code>410 Gone</code> when the address will never work again: it is not retried and the
              webhook is removed from the timer (the timer says why) until you set a new <code>webhook_url</code>. To stop deliveries
              yourself, set <code>webhook_url</code> to <code>null</code> with <code>PATCH /v1/timers/{'{id}'}</code>.
            </p>
            <pre className="api-docs__code">
              <code>{`import { Webhook } from 'standardwebhooks';

const wh = new Webhook(process.env.EVENT_FINDER_WEBHOOK_SECRET); // whsec_…
// rawBody: the request body exactly as received (a string), headers: the request's headers
const delivery = wh.verify(rawBody, headers); // throws when the signature or timestamp is wrong
if (delivery.kind === 'digest') console.log(delivery.run.new_count, 'new events');`}</code>
            </pre>
          </details>
        </Section>
        <Section title="Slack, Discord, Teams and ntfy" id="channels">
          <p>
            Beside email and a webhook, a timer posts to any number of channels: <code>POST /v1/timers/{'{id}'}/channels</code> with{' '}
            <code>kind</code> and <code>url</code>. Each run with new or changed events posts one message, laid out for the service and cut
            to its limits with “and N more” linking the run. The address is a secret (whoever has it can post there): replies show it
            masked, a <code>read</code> token not at all.
          </p>
          <ul>
            <li>
              <strong>Slack</strong> (<code>slack</code>): in Slack, add the Incoming Webhooks app to the channel and copy its Webhook URL (
              <code>https://hooks.slack.com/services/…</code>).
            </li>
            <li>
              <strong>Discord</strong> (<code>discord</code>): the channel's settings → Integrations → Webhooks → New Webhook → Copy Webhook
              URL (<code>https://discord.com/api/webhooks/…</code>).
            </li>
            <li>
              <strong>Microsoft Teams</strong> (<code>teams</code>): the channel's … menu → Workflows → “Post to a channel when a webhook
              request is received”; copy the address the workflow shows.
            </li>
            <li>
              <strong>ntfy</strong> (<code>ntfy</code>): a topic address such as <code>https://ntfy.sh/a-hard-to-guess-topic</code> (or your
              own server's); for a protected topic, send its access token as <code>token</code>.
            </li>
          </ul>
          <p>
            A service that says the address is gone (Slack <code>no_service</code> or <code>channel_not_found</code>, Discord “Unknown
            Webhook”, a 404 or 410) stops the channel: the timer lists why in its <code>channels</code>, and its next digest email says so
            once. A 429 is tried again after the wait the service asks for; a 5xx later, as webhooks are.
          </p>
        </Section>
        <nav className="panel" aria-labelledby="calls">
          <h2 id="calls">Calls</h2>
          <ul className="api-docs__toc">
            {operations.map(({ path, method, op }) => (
              <li key={op.operationId}>
                <a href={`#op-${op.operationId}`}>
                  <code>
                    {method.toUpperCase()} {path}
                  </code>
                </a>{' '}
                {op.summary}
              </li>
            ))}
          </ul>
        </nav>
        {operations.map(({ path, method, op }) => (
          <Operation key={op.operationId} path={path} method={method} op={op} shared={document.components?.parameters ?? {}} />
        ))}
      </main>
    </div>
  );
}
