import { Component, type ReactNode } from 'react';

interface Props {
  /** The event's title, to name what could not be shown. */
  title: string;
  children: ReactNode;
}

/**
 * Guards one event card: an event whose values this browser cannot format (a date it refuses, a value no
 * check foresaw) shows a short note in its place instead of unmounting the whole list and the page around it.
 */
export class EventCardBoundary extends Component<Props, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: Error): void {
    console.warn(`Could not show the event "${this.props.title}":`, error.message);
  }

  override render(): ReactNode {
    if (!this.state.failed) return this.props.children;
    return (
      <article className="event-card event-card--broken" data-status="unreadable">
        <p className="event-card__when">
          {this.props.title ? `“${this.props.title.slice(0, 120)}”: ` : ''}this event could not be shown (its date or link is not readable).
          The other events are not affected.
        </p>
      </article>
    );
  }
}
