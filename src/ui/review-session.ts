import type { ClaimedItem, ItemView } from './queue-types.js';

// A reviewer's turn at one queue: the item on screen and the next one, claimed and read ahead
// of time so that a submit or a skip shows it at once. Both leases are kept alive by heartbeats
// while the page has them; leaving gives both back. The server enforces every lease: this only
// holds what it was given, and says so when a lease is lost.

/** What the session asks of the API (the HTTP client's review-queue methods). */
export interface QueueApi {
  claim(queueId: string): Promise<ClaimedItem | null>;
  item(queueId: string, itemId: string): Promise<ItemView>;
  heartbeat(queueId: string, itemId: string): Promise<unknown>;
  release(queueId: string, itemId: string): Promise<unknown>;
  skip(queueId: string, itemId: string): Promise<unknown>;
  submit(
    queueId: string,
    itemId: string,
    verdict: { value: Record<string, unknown>; configId: string },
  ): Promise<unknown>;
}

export interface SessionEvents {
  /** A lease the page held is gone (expired, or refused on a heartbeat). */
  onLeaseLost(itemId: string, error: unknown): void;
}

export class ReviewSession {
  private current: ItemView | null = null;
  private ahead: Promise<ItemView | null> | null = null;
  private readonly beating = new Map<string, ReturnType<typeof setInterval>>();
  private stopped = false;

  constructor(
    private readonly api: QueueApi,
    readonly queueId: string,
    private readonly events: SessionEvents,
  ) {}

  /** The item on screen, if any. */
  get item(): ItemView | null {
    return this.current;
  }

  /** Claims and shows the first item (null when the queue has none for this reviewer). */
  async start(): Promise<ItemView | null> {
    return this.show(await this.fetchNext());
  }

  /** Records the verdict on the item on screen, then shows the next. */
  async submit(value: Record<string, unknown>, configId: string): Promise<ItemView | null> {
    const item = this.requireItem();
    await this.api.submit(this.queueId, item.item.itemId, { value, configId });
    this.stopBeating(item.item.itemId);
    return this.advance();
  }

  /** Puts the item on screen back at the end of the queue, then shows the next. */
  async skip(): Promise<ItemView | null> {
    const item = this.requireItem();
    await this.api.skip(this.queueId, item.item.itemId);
    this.stopBeating(item.item.itemId);
    return this.advance();
  }

  /** Gives back every lease the page holds (leaving the queue). */
  async close(): Promise<void> {
    this.stopped = true;
    const held = [...this.beating.keys()];
    for (const itemId of held) this.stopBeating(itemId);
    this.current = null;
    this.ahead = null;
    await Promise.allSettled(held.map((itemId) => this.api.release(this.queueId, itemId)));
  }

  private async advance(): Promise<ItemView | null> {
    const next = this.ahead ? await this.ahead : null;
    this.ahead = null;
    // Nothing was read ahead (the queue looked empty then): ask again, items may have come.
    return this.show(next ?? (await this.fetchNext()));
  }

  private show(item: ItemView | null): ItemView | null {
    this.current = item;
    if (item !== null && !this.stopped) this.ahead = this.fetchNext().catch(() => null);
    return item;
  }

  private async fetchNext(): Promise<ItemView | null> {
    if (this.stopped) return null;
    const claimed = await this.api.claim(this.queueId);
    if (claimed === null) return null;
    this.startBeating(claimed);
    try {
      return await this.api.item(this.queueId, claimed.itemId);
    } catch (error) {
      this.stopBeating(claimed.itemId);
      await this.api.release(this.queueId, claimed.itemId).catch(() => {});
      throw error;
    }
  }

  private startBeating({ itemId, leaseExpiresAt }: ClaimedItem): void {
    // A third of the lease between beats: two may be lost before it runs out.
    const every = Math.max(1000, (Date.parse(leaseExpiresAt) - Date.now()) / 3 || 10_000);
    const timer = setInterval(() => {
      this.api.heartbeat(this.queueId, itemId).catch((error: unknown) => {
        this.stopBeating(itemId);
        this.events.onLeaseLost(itemId, error);
      });
    }, every);
    this.beating.set(itemId, timer);
  }

  private stopBeating(itemId: string): void {
    clearInterval(this.beating.get(itemId));
    this.beating.delete(itemId);
  }

  private requireItem(): ItemView {
    if (this.current === null) throw new Error('no item on screen');
    return this.current;
  }
}
