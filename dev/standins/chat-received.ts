/** What a chat or push stand-in received and what it answered: the mailbox of the channel stand-ins. */
export interface ChannelPost {
  id: number;
  service: 'slack' | 'discord' | 'teams' | 'ntfy';
  path: string;
  headers: Record<string, string>;
  /** The body as sent: JSON parsed for Slack, Discord and Teams, the text for ntfy. */
  body: unknown;
  /** The status the stand-in answered with, and its reply body. */
  status: number;
  reply: string;
  receivedAt: string;
}

/**
 * The address part that picks a stand-in's documented refusal, so `make dev` and the tests can see each:
 * `…/gone` answers as the service does for a deleted address, `…/rate-limited` answers 429 once (with the
 * service's wait of 1 second), then posts.
 */
export const GONE = 'gone';
export const RATE_LIMITED = 'rate-limited';

/** Posts kept, newest last; only the latest 200. */
export class ChannelPosts {
  readonly posts: ChannelPost[] = [];
  private readonly limitedOnce = new Set<string>();
  private next = 1;

  add(p: Omit<ChannelPost, 'id' | 'receivedAt'>): void {
    this.posts.push({ ...p, id: this.next++, receivedAt: new Date().toISOString() });
    if (this.posts.length > 200) this.posts.shift();
  }

  /** True the first time an address asks to be rate-limited: that call gets the 429. */
  limitOnce(path: string): boolean {
    if (this.limitedOnce.has(path)) return false;
    this.limitedOnce.add(path);
    return true;
  }
}

/** Headers as a plain object (lower-case names). */
export const headersOf = (h: Headers): Record<string, string> => Object.fromEntries([...h.entries()]);

/** The body as JSON, or undefined when it is not JSON. */
export function jsonOf(raw: string): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return undefined;
  }
}

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
