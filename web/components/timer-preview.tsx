import { useId, useState } from 'react';
import { CHANNEL_LABELS } from '../../core/contract/channel-kinds';
import type { MessagePreview } from '../../core/contract/test-delivery';
import { type DestinationName, fetchTimerPreview, sendTest, type TestDeliveryReply, type TimerPreviewReply } from '../client/test-delivery';
import { Alert } from './alert';
import { ChannelPreview } from './channel-preview';

export interface TimerPreviewProps {
  timerId: number;
}

type DestinationKind = TimerPreviewReply['destinations'][number]['kind'];

const sendLabel = (kind: DestinationKind) =>
  kind === 'email' ? 'Send a test email' : kind === 'webhook' ? 'Send a test to the webhook' : `Send a test to ${CHANNEL_LABELS[kind]}`;

const NEW_TAB = '<base target="_blank">';

/**
 * The email's HTML with its links opening in a new tab rather than inside the preview's frame: a `<base>` at the
 * top of its head (a link with the `_blank` target also opens without a reference back to this page). The preview
 * alone; the email as sent is unchanged.
 */
export function linksInNewTab(html: string): string {
  const head = /<head\b[^>]*>/i.exec(html) ?? /^\s*<!doctype[^>]*>/i.exec(html);
  const at = head ? head.index + head[0].length : 0;
  return `${html.slice(0, at)}${NEW_TAB}${html.slice(at)}`;
}

function EmailPreview({ preview }: { preview: Extract<MessagePreview, { format: 'email' }> }) {
  return (
    <>
      <dl className="timer-preview__fields">
        <dt>To</dt>
        <dd>{preview.to}</dd>
        <dt>Subject</dt>
        <dd>{preview.subject}</dd>
      </dl>
      {/* The email's own HTML, shown as a mail client would: no scripts, no forms, no access to this page; its links
          open in a new tab, outside the sandbox, as a mail client opens them. */}
      <iframe
        className="timer-preview__email"
        sandbox="allow-popups allow-popups-to-escape-sandbox"
        srcDoc={linksInNewTab(preview.html)}
        title={`Email preview: ${preview.subject}`}
      />
      <details className="timer-preview__more">
        <summary>Plain-text part</summary>
        <pre className="timer-preview__code">{preview.text}</pre>
      </details>
    </>
  );
}

function JsonPreview({ preview }: { preview: Extract<MessagePreview, { format: 'json' }> }) {
  return (
    <>
      {preview.url ? (
        <p className="timer-preview__to">
          Posted to <span className="timer-preview__url">{preview.url}</span>, signed (Standard Webhooks).
        </p>
      ) : null}
      <p className="timer-preview__label">What chat services show (Slack and ntfy read its “text”, Discord its “content”):</p>
      <pre className="timer-preview__code">{preview.body.content}</pre>
      <details className="timer-preview__more">
        <summary>The JSON body</summary>
        <pre className="timer-preview__code">{JSON.stringify(preview.body, null, 2)}</pre>
      </details>
    </>
  );
}

/**
 * "Preview and test" under a timer in Manage Timers: how its next digest looks on each destination, built by
 * the server from the last run with the code that sends real messages, and a test send per destination with
 * its result in words. Destinations come from the server's list, so a new kind shows here without a change.
 */
export function TimerPreview({ timerId }: TimerPreviewProps) {
  const id = useId();
  const [preview, setPreview] = useState<TimerPreviewReply | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [sending, setSending] = useState<DestinationName | null>(null);
  const [results, setResults] = useState<Partial<Record<DestinationName, TestDeliveryReply>>>({});

  async function load() {
    setFailure(null);
    try {
      setPreview(await fetchTimerPreview(timerId));
    } catch (err) {
      setFailure((err as Error).message);
    }
  }

  async function test(destination: DestinationName) {
    setSending(destination);
    setResults((r) => ({ ...r, [destination]: undefined }));
    const reply = await sendTest(timerId, destination);
    setSending(null);
    setResults((r) => ({ ...r, [destination]: reply }));
  }

  return (
    <details
      className="timer-row__result timer-preview"
      onToggle={(e) => {
        // Read again on every opening: a run may have ended, or a webhook been saved, since the last.
        if (e.currentTarget.open) void load();
      }}
    >
      <summary>Preview and test</summary>
      <div className="timer-preview__body">
        {failure ? <Alert tone="error">{failure}</Alert> : null}
        {!preview && !failure ? <p className="timer-row__meta">Loading the preview…</p> : null}
        {preview ? <p className="timer-preview__note">{preview.note}</p> : null}
        {preview?.destinations.map((d) => {
          const result = results[d.destination];
          const headingId = `${id}-${d.destination}`;
          return (
            <section key={d.destination} className="timer-preview__destination" aria-labelledby={headingId}>
              <h4 id={headingId}>{d.label}</h4>
              {d.preview?.format === 'email' ? <EmailPreview preview={d.preview} /> : null}
              {d.preview?.format === 'json' ? <JsonPreview preview={d.preview} /> : null}
              {d.preview && d.preview.format !== 'email' && d.preview.format !== 'json' ? <ChannelPreview preview={d.preview} /> : null}
              {d.unavailable ? (
                <p className="timer-row__meta">{d.unavailable}</p>
              ) : (
                <button
                  type="button"
                  className="button button--secondary button--small"
                  disabled={sending !== null}
                  onClick={() => void test(d.destination)}
                >
                  {sending === d.destination ? 'Sending…' : sendLabel(d.kind)}
                </button>
              )}
              {result ? <Alert tone={result.delivered ? 'success' : 'error'}>{result.message}</Alert> : null}
            </section>
          );
        })}
      </div>
    </details>
  );
}
