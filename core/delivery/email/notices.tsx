import { shortQuestion } from '../links';
import { AUTO_PAUSE_AFTER_FAILURES } from '../../timers/auto-pause';
import type { RenderedEmail } from './digest';
import { EmailLayout, link, renderEmailHtml } from './layout';

export interface NoticeInput {
  question: string;
  /** Why: the failed run's error, or the skipped run's sentence. */
  reason: string | null;
  /** Manage Timers, where the timer can be resumed. */
  manageUrl: string;
  /** The app itself (plans). */
  appUrl: string;
  unsubscribeUrl: string;
}

function Footer(props: NoticeInput) {
  return (
    <>
      About your Event Finder timer “{shortQuestion(props.question)}”.{' '}
      <a href={props.unsubscribeUrl} style={link}>
        Unsubscribe from this timer’s emails
      </a>
      .
    </>
  );
}

function render(subject: string, paragraphs: { text: string; href?: string; linkText?: string }[], input: NoticeInput): RenderedEmail {
  const html = renderEmailHtml(
    <EmailLayout title={subject} footer={<Footer {...input} />}>
      <h1 style={{ fontSize: '20px', margin: '0 0 12px' }}>{subject}</h1>
      {paragraphs.map((p) => (
        <p key={p.text}>
          {p.text}
          {p.href ? (
            <>
              {' '}
              <a href={p.href} style={link}>
                {p.linkText}
              </a>
            </>
          ) : null}
        </p>
      ))}
    </EmailLayout>,
  );
  const text = [
    subject,
    '',
    ...paragraphs.map((p) => (p.href ? `${p.text} ${p.linkText}: ${p.href}` : p.text)),
    '',
    `Unsubscribe from this timer's emails: ${input.unsubscribeUrl}`,
  ].join('\n');
  return { subject, html, text };
}

/** The one alert sent when a timer paused itself after failed runs: why, and how to resume. */
export function renderPausedAlert(input: NoticeInput, failures = AUTO_PAUSE_AFTER_FAILURES): RenderedEmail {
  return render(
    `Your timer paused itself: ${shortQuestion(input.question, 60)}`,
    [
      { text: `Your timer “${input.question}” failed ${failures} times in a row, so it is paused and will not run until you resume it.` },
      ...(input.reason ? [{ text: `The last run failed with: ${input.reason}` }] : []),
      {
        text: 'Failed runs cost no searches. Check the question and the website address, then resume the timer in Manage Timers.',
        href: input.manageUrl,
        linkText: 'Open Manage Timers',
      },
    ],
    input,
  );
}

/** Told once per allowance period: runs are skipped (and not charged) while no searches are left. */
export function renderOutOfSearches(input: NoticeInput): RenderedEmail {
  return render(
    'Your timers are skipping runs: no searches left',
    [
      {
        text: `Your timer “${input.question}” was due to run, but no searches are left in your plan for this period, so the run was skipped and nothing was charged.`,
      },
      ...(input.reason ? [{ text: input.reason }] : []),
      {
        text: 'Timers run again once your allowance renews. We tell you this once per period, not at every skipped run.',
        href: input.appUrl,
        linkText: 'See plans',
      },
    ],
    input,
  );
}
