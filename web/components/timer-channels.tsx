import { type FormEvent, useId, useState } from 'react';
import { CHANNEL_ADDRESS_HELP, CHANNEL_KIND_WIRE, CHANNEL_LABELS, type ChannelKindWire } from '../../core/contract/channel-kinds';
import { formatMoment } from '../client/format-time';
import { addTimerChannel, removeTimerChannel } from '../client/timer-channels';
import type { ListedTimer } from '../client/timers';
import { Alert } from './alert';

const DELIVERY_LABEL: Record<string, string> = {
  sent: 'Sent',
  failed: 'Failed',
  pending: 'Waiting to send',
  sending: 'Sending',
  skipped: 'Not sent',
};

// Short enough for the field on a 320 px phone; the hint under it gives each address's whole shape.
const PLACEHOLDER: Record<ChannelKindWire, string> = {
  slack: 'https://hooks.slack.com/…',
  discord: 'https://discord.com/api/…',
  teams: 'https://…/workflows/…',
  ntfy: 'https://ntfy.sh/topic',
};

export interface TimerChannelsProps {
  timer: ListedTimer;
  /** After a channel was added or removed: the timer is read again. */
  onChanged: () => void;
}

/**
 * A timer's Slack, Discord, Teams and ntfy channels: each listed with its address masked (the server never sends
 * it whole) and how its last message went, a Remove button each, and a form to add one.
 */
export function TimerChannels({ timer, onChanged }: TimerChannelsProps) {
  const id = useId();
  const channels = timer.channels ?? [];
  const [kind, setKind] = useState<ChannelKindWire>('slack');
  const [url, setUrl] = useState('');
  const [token, setToken] = useState('');
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ tone: 'error' | 'success'; text: string } | null>(null);

  async function add(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setMessage(null);
    const outcome = await addTimerChannel(timer.id, {
      kind,
      url: url.trim(),
      ...(kind === 'ntfy' && token.trim() ? { token: token.trim() } : {}),
    });
    setBusy(false);
    if (!outcome.ok) {
      setMessage({ tone: 'error', text: outcome.message });
      return;
    }
    setUrl('');
    setToken('');
    setMessage({ tone: 'success', text: `${CHANNEL_LABELS[kind]} channel added: new and changed events will be posted there.` });
    onChanged();
  }

  async function remove(channelId: number, label: string) {
    setBusy(true);
    setMessage(null);
    const outcome = await removeTimerChannel(timer.id, channelId);
    setBusy(false);
    setMessage(outcome.ok ? { tone: 'success', text: `${label} channel removed.` } : { tone: 'error', text: outcome.message });
    if (outcome.ok) onChanged();
  }

  return (
    <fieldset className="timer-channels">
      <legend>Slack, Discord, Teams and ntfy</legend>
      {channels.length > 0 ? (
        <ul className="timer-channels__list" aria-label="Channels of this timer">
          {channels.map((c) => {
            const label = CHANNEL_LABELS[c.kind];
            const last = c.last_delivery;
            return (
              <li key={c.id} className="timer-channels__item">
                <div className="timer-channels__what">
                  <strong>{label}</strong> <span className="timer-channels__address">{c.address ?? 'address hidden'}</span>
                  {c.has_token ? <span className="timer-row__meta"> · with access token</span> : null}
                  {c.stopped ? (
                    <p className="timer-row__meta">Stopped: {c.stopped}</p>
                  ) : last ? (
                    <p className="timer-row__meta">
                      Last message: {DELIVERY_LABEL[last.status] ?? last.status}, <time dateTime={last.at}>{formatMoment(last.at)}</time>
                      {last.error && last.status !== 'sent' ? ` (${last.error})` : ''}
                    </p>
                  ) : null}
                </div>
                <button
                  type="button"
                  className="button button--secondary button--small"
                  disabled={busy}
                  aria-label={`Remove ${label} channel ${c.address ?? ''}`.trim()}
                  onClick={() => void remove(c.id, label)}
                >
                  Remove
                </button>
              </li>
            );
          })}
        </ul>
      ) : (
        <p className="timer-row__meta">Post new and changed events to a chat channel or your phone, laid out for each service.</p>
      )}
      <form className="timer-channels__form" onSubmit={add}>
        <div className="field">
          <label htmlFor={`${id}-kind`}>Service</label>
          <select
            id={`${id}-kind`}
            value={kind}
            disabled={busy}
            onChange={(e) => {
              setKind(e.target.value as ChannelKindWire);
              setMessage(null);
            }}
          >
            {CHANNEL_KIND_WIRE.map((k) => (
              <option key={k} value={k}>
                {CHANNEL_LABELS[k]}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-url`}>Address</label>
          <input
            id={`${id}-url`}
            type="url"
            inputMode="url"
            required
            autoComplete="off"
            placeholder={PLACEHOLDER[kind]}
            value={url}
            disabled={busy}
            aria-describedby={`${id}-url-hint`}
            onChange={(e) => {
              setUrl(e.target.value);
              if (message?.tone === 'error') setMessage(null);
            }}
          />
          <p className="field__hint" id={`${id}-url-hint`}>
            Paste {CHANNEL_ADDRESS_HELP[kind]}. It is kept secret: only its end is shown here.
          </p>
        </div>
        {kind === 'ntfy' ? (
          <div className="field">
            <label htmlFor={`${id}-token`}>Access token (only for a protected topic)</label>
            <input
              id={`${id}-token`}
              type="password"
              autoComplete="off"
              placeholder="tk_…"
              value={token}
              disabled={busy}
              onChange={(e) => setToken(e.target.value)}
            />
          </div>
        ) : null}
        <button type="submit" className="button button--secondary button--small" disabled={busy}>
          Add {CHANNEL_LABELS[kind]} channel
        </button>
      </form>
      {message ? <Alert tone={message.tone}>{message.text}</Alert> : null}
    </fieldset>
  );
}
