/** Addresses the messages link to, built in one place so emails, webhooks and the page agree. */

/** The page with the timer's run history (the page opens the timer named in the fragment). */
export function timerRunsUrl(appUrl: string, timerId: number): string {
  return `${appUrl}/#timer-${timerId}`;
}

/** The page at one run of the timer: its runs opened at that run, its answer shown (a digest's own run). */
export function timerRunUrl(appUrl: string, timerId: number, runId: number): string {
  return `${appUrl}/#timer-${timerId}-run-${runId}`;
}

export function unsubscribeUrl(appUrl: string, token: string): string {
  return `${appUrl}/unsubscribe/${token}`;
}

/** A question shortened for a subject line or a chat message. */
export function shortQuestion(question: string, max = 80): string {
  const q = question.replace(/\s+/g, ' ').trim();
  return q.length > max ? `${q.slice(0, max - 1)}…` : q;
}
