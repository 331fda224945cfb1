import { type FormEvent, useId, useState } from 'react';
import { formatMoment } from '../client/format-time';
import type { ListedTimer, TimerSettingsPatch, UpdateOutcome } from '../client/timers';
import { Alert } from './alert';
import { TimerChannels } from './timer-channels';

const DELIVERY_LABEL: Record<string, string> = {
  sent: 'Sent',
  failed: 'Failed',
  pending: 'Waiting to send',
  sending: 'Sending',
  skipped: 'Not sent',
};

type DeliveryState = ListedTimer['last_delivery']['email'];

function lastDelivery(name: string, state: DeliveryState) {
  if (!state) return null;
  return (
    <li>
      Last {name}: {DELIVERY_LABEL[state.status] ?? state.status}, <time dateTime={state.at}>{formatMoment(state.at)}</time>
      {state.error && state.status !== 'sent' ? ` (${state.error})` : ''}
    </li>
  );
}

export interface TimerDeliveryProps {
  timer: ListedTimer;
  onUpdate: (timerId: number, patch: TimerSettingsPatch) => Promise<UpdateOutcome>;
  /** A channel was added or removed: the timer is read again. */
  onChannelsChanged: () => void;
}

/**
 * Where a timer's news goes: email on or off (or why there is none on this server), a webhook address (or why the
 * server removed it: it answered 410 Gone), and how the last email and webhook went. Pause and Resume sit with Run now (./timer-pause-button.tsx).
 */
export function TimerDelivery({ timer, onUpdate, onChannelsChanged }: TimerDeliveryProps) {
  const id = useId();
  const [busy, setBusy] = useState(false);
  // Said beside the control that was changed: the check boxes, or the webhook form.
  const [message, setMessage] = useState<{ tone: 'error' | 'success'; text: string; at: 'checks' | 'webhook' } | null>(null);
  const [webhook, setWebhook] = useState(timer.webhook_url ?? '');

  async function change(patch: TimerSettingsPatch, done: string, at: 'checks' | 'webhook') {
    setBusy(true);
    setMessage(null);
    const outcome = await onUpdate(timer.id, patch);
    setBusy(false);
    if (outcome.ok) {
      setWebhook(outcome.timer.webhook_url ?? '');
      // Shown this once: receivers check the webhook-signature header with it (Standard Webhooks).
      const secret = outcome.webhookSecret
        ? ` Its signing secret, shown only now (keep it to verify the webhook-signature header): ${outcome.webhookSecret}`
        : '';
      setMessage({ tone: 'success', text: `${done}${secret}`, at });
    } else if (!outcome.gone) {
      setMessage({ tone: 'error', text: outcome.message, at });
    }
  }

  function saveWebhook(e: FormEvent) {
    e.preventDefault();
    const url = webhook.trim();
    void change({ webhook_url: url || null }, url ? 'Webhook saved.' : 'Webhook removed.', 'webhook');
  }

  const chats = timer.channels?.length ?? 0;
  const channels = [
    timer.email && timer.email_available ? 'Email on' : 'Email off',
    timer.webhook_url ? 'webhook set' : null,
    chats > 0 ? `${chats} channel${chats === 1 ? '' : 's'}` : null,
  ]
    .filter(Boolean)
    .join(' · ');
  const stopped = (timer.channels ?? []).filter((c) => c.stopped);

  return (
    <div className="timer-delivery">
      {/* Outside the folded panel: the server removed the webhook, and the user learns it without opening anything.
          It goes once a new address is saved (the server clears it then). */}
      {timer.webhook_notice ? <Alert tone="notice">{timer.webhook_notice}</Alert> : null}
      {stopped.map((c) => (
        <Alert key={c.id} tone="notice">
          {c.stopped}
        </Alert>
      ))}
      <details className="timer-row__result">
        <summary>Notifications: {channels}</summary>
        <div className="timer-delivery__body">
          <label className="timer-delivery__check">
            <input
              type="checkbox"
              checked={timer.email && timer.email_available}
              disabled={busy || !timer.email_available}
              onChange={(e) =>
                void change({ email: e.target.checked }, e.target.checked ? 'Emails turned on.' : 'Emails turned off.', 'checks')
              }
            />
            Email me when this timer finds new or changed events
          </label>
          {timer.email_available ? null : (
            <p className="timer-row__meta">Email is off on this server, so no emails are sent. Webhooks still work.</p>
          )}
          <label className="timer-delivery__check">
            <input
              type="checkbox"
              checked={timer.checked_only ?? false}
              disabled={busy}
              onChange={(e) =>
                void change(
                  { checked_only: e.target.checked },
                  e.target.checked ? 'Saved: only checked events will be delivered.' : 'Saved: all events will be delivered, each marked.',
                  'checks',
                )
              }
            />
            Deliver only events checked on their page (to the calendar feed, emails and webhook)
          </label>
          {message?.at === 'checks' ? <Alert tone={message.tone}>{message.text}</Alert> : null}
          <form className="timer-delivery__webhook" onSubmit={saveWebhook}>
            <div className="field">
              <label htmlFor={`${id}-webhook`}>Webhook URL</label>
              <input
                id={`${id}-webhook`}
                type="url"
                inputMode="url"
                placeholder="https://example.com/hook"
                value={webhook}
                disabled={busy}
                aria-describedby={`${id}-webhook-hint`}
                onChange={(e) => {
                  setWebhook(e.target.value);
                  // A refusal was about the address as it was; once it is edited, the sentence no longer applies.
                  if (message?.tone === 'error') setMessage(null);
                }}
              />
              <p className="field__hint" id={`${id}-webhook-hint`}>
                Your own receiver gets signed JSON when something is new. For Slack, Discord, Teams or ntfy, add a channel below: its
                message is laid out for the service.
              </p>
            </div>
            <div className="timer-delivery__buttons">
              <button type="submit" className="button button--secondary button--small" disabled={busy}>
                Save webhook
              </button>
              {timer.webhook_url ? (
                <button
                  type="button"
                  className="button button--secondary button--small"
                  disabled={busy}
                  onClick={() => void change({ webhook_url: null }, 'Webhook removed.', 'webhook')}
                >
                  Remove webhook
                </button>
              ) : null}
            </div>
          </form>
          {message?.at === 'webhook' ? <Alert tone={message.tone}>{message.text}</Alert> : null}
          <TimerChannels timer={timer} onChanged={onChannelsChanged} />
          {timer.last_delivery.email || timer.last_delivery.webhook ? (
            <ul className="timer-row__meta timer-delivery__last">
              {lastDelivery('email', timer.last_delivery.email)}
              {lastDelivery('webhook', timer.last_delivery.webhook)}
            </ul>
          ) : null}
        </div>
      </details>
    </div>
  );
}
