/** What one link's fetch promises the other links that lead to the same address: the page's reading, or null. */
export interface LandingClaim<T = unknown> {
  settle(result: T | null): void;
}

/**
 * Thrown into a fetch that reached an address another link of the same check is already fetching: that fetch
 * stops, and its link takes the other's reading once it is there.
 */
export class ReadByAnotherLink<T = unknown> extends Error {
  constructor(readonly page: Promise<T | null>) {
    super('the page is read through another link');
  }
}

/**
 * The addresses one check's fetches have reached, so two links that lead to one page (an event's own link and a
 * grounding redirect to it, or two redirects) fetch and read it once. A fetch claims every address it reaches and
 * settles its claims when it ends, before it waits for anyone: two fetches whose redirects cross each other's
 * addresses never wait on each other.
 */
export class LandingPages<T = unknown> {
  private readonly reached = new Map<string, Promise<T | null>>();

  /** Claims `address` for the caller's fetch; throws ReadByAnotherLink when another fetch has reached it. */
  claim(address: string): LandingClaim<T> {
    const other = this.reached.get(address);
    if (other) throw new ReadByAnotherLink(other);
    let settle!: (result: T | null) => void;
    this.reached.set(address, new Promise<T | null>((resolve) => (settle = resolve)));
    return { settle };
  }
}
