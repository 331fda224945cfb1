import { type ReactNode, useId, useState } from 'react';
import type { FeedUrls } from '../../core/contract/event-replies';
import { renewFeedToken } from '../client/events';
import { ConfirmDialog } from './confirm-dialog';

export interface TimerFeedsProps {
  timerId: number;
  urls: FeedUrls;
  /** The new URLs after "New link", so the list shows them. */
  onRotated?: (urls: FeedUrls) => void;
}

const webcal = (url: string) => url.replace(/^https?:/, 'webcal:');

async function copy(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * A timer's calendar subscription (iCal, also as webcal://) and Atom feed, each with a copy button, and a
 * "New link" that retires the old URLs (someone who should no longer see the events loses them).
 */
export function TimerFeeds({ timerId, urls, onRotated }: TimerFeedsProps) {
  const id = useId();
  const [status, setStatus] = useState('');
  // Which address was just copied ("Copied" shows beside its button), or could not be.
  const [copied, setCopied] = useState<{ field: string; ok: boolean } | null>(null);
  const [busy, setBusy] = useState(false);
  const [asking, setAsking] = useState(false);
  if (!urls.ical_url || !urls.atom_url) return null;

  async function onCopy(field: string, url: string) {
    setCopied(null);
    setCopied({ field, ok: await copy(url) });
  }

  async function rotate() {
    setBusy(true);
    try {
      onRotated?.(await renewFeedToken(timerId));
      setStatus('New feed addresses made; the old ones no longer work.');
    } catch (err) {
      setStatus(`Could not make new addresses: ${(err as Error).message}`);
    } finally {
      setBusy(false);
      // Closed after the outcome, so focus goes back to "New link" with the status beside it.
      setAsking(false);
    }
  }

  // `field` names the input's id: an id holds no spaces (the label may).
  const row = (field: string, label: string, url: string, extra?: ReactNode) => (
    <div className="field timer-feeds__row">
      <label className="timer-feeds__label" htmlFor={`${id}-${field}`}>
        {label}
      </label>
      <div className="timer-feeds__field">
        <input id={`${id}-${field}`} type="text" readOnly value={url} onFocus={(e) => e.currentTarget.select()} />
        <button type="button" className="button button--secondary button--small" onClick={() => void onCopy(field, url)}>
          Copy<span className="visually-hidden"> {label} address</span>
        </button>
        <span className="timer-feeds__copied" role="status">
          {copied?.field !== field ? null : copied.ok ? 'Copied' : 'Could not copy. Select the address and copy it by hand.'}
        </span>
      </div>
      {extra}
    </div>
  );

  return (
    <details className="timer-feeds">
      <summary>Calendar and feed</summary>
      {row(
        'ical',
        'Calendar (iCal)',
        urls.ical_url,
        <a className="timer-feeds__webcal" href={webcal(urls.ical_url)}>
          Subscribe in your calendar app
        </a>,
      )}
      {row('atom', 'Atom feed', urls.atom_url)}
      <p className="timer-feeds__note">Anyone with these addresses can see this timer's events.</p>
      <button type="button" className="button button--secondary button--small" disabled={busy} onClick={() => setAsking(true)}>
        New link
      </button>
      <ConfirmDialog
        open={asking}
        title="Replace this timer’s feed addresses?"
        confirmLabel={busy ? 'Making new addresses…' : 'Make new addresses'}
        cancelLabel="Keep addresses"
        danger
        busy={busy}
        onConfirm={() => void rotate()}
        onCancel={() => setAsking(false)}
      >
        <p>
          The old feed addresses stop working at once; calendars subscribed to them stop updating. Share the new addresses with whoever
          should still see these events.
        </p>
      </ConfirmDialog>
      <p className="timer-feeds__status" role="status">
        {status}
      </p>
    </details>
  );
}
