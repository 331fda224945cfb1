import type { DeliveryChannel, DeliveryState } from '../../db/deliveries';
import type { Timer } from '../../db/timers';

function stateJson(s: DeliveryState | undefined) {
  return s ? { status: s.status, at: s.at.toISOString(), error: s.error } : null;
}

/**
 * A timer's delivery fields in GET /api/timers and PATCH /api/timers/:id replies. `email_available` is false
 * when the server sends no email at all (production without SMTP_URL), so the page can say so.
 */
export function timerDeliveryJson(t: Timer, latest: Partial<Record<DeliveryChannel, DeliveryState>> | undefined, emailAvailable: boolean) {
  return {
    paused: t.paused,
    paused_reason: t.pausedReason,
    email: t.email,
    email_available: emailAvailable,
    webhook_url: t.webhookUrl,
    webhook_notice: t.webhookGoneNotice,
    consecutive_failures: t.consecutiveFailures,
    checked_only: t.checkedOnly,
    last_delivery: { email: stateJson(latest?.email), webhook: stateJson(latest?.webhook) },
  };
}
