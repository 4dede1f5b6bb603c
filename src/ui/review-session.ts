import type { ClaimedItem, Feedback, ItemView, SubmitAnswer } from './queue-types.js';

// A reviewer's turn at one queue: the item on screen and the next ones, claimed and read ahead
// of time. A submit shows the next item at once and records the verdict meanwhile: the item's
// lease is kept until the API answers, and a refused verdict puts its item back on screen
// (`reopen`), so nothing is dropped. Every lease the page holds is kept alive by heartbeats;
// leaving gives back those with no verdict on the way. The server enforces every lease: this
// only holds what it was given, and says so when a lease is lost.

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
  ): Promise<SubmitAnswer>;
}

export interface SessionEvents {
  /** A lease the page held is gone (expired, or refused on a heartbeat). */
  onLeaseLost(itemId: string, error: unknown): void;
}

/**
 * A submit: the item now on screen, and the verdict's recording (rejects when refused), which
 * brings the other reviewers' verdicts on the item the server reveals now.
 */
export interface Submitted {
  next: ItemView | null;
  recorded: Promise<Feedback[]>;
}

export class ReviewSession {
  private current: ItemView | null = null;
  /** Claimed and read, not yet on screen, front first. */
  private readonly waiting: ItemView[] = [];
  private reading: Promise<void> | null = null;
  private readonly sending = new Set<string>();
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

  /** Verdicts sent and not yet answered. */
  get unsent(): number {
    return this.sending.size;
  }

  /** Claims and shows the first item (null when the queue has none for this reviewer). */
  async start(): Promise<ItemView | null> {
    return this.show(await this.fetchNext());
  }

  /**
   * Sends the verdict on the item on screen and shows the next at once when one was read
   * ahead; with none, it waits for the answer (a refusal throws, the item stays) and claims.
   */
  async submit(value: Record<string, unknown>, configId: string): Promise<Submitted> {
    const item = this.requireItem();
    const { itemId } = item.item;
    this.sending.add(itemId);
    const recorded = this.api.submit(this.queueId, itemId, { value, configId }).then(
      (answer) => {
        this.sending.delete(itemId);
        this.stopBeating(itemId);
        return answer.otherReviews;
      },
      (error: unknown) => {
        this.sending.delete(itemId);
        // Refused after the reviewer left: nobody will reopen it, so its lease goes back.
        if (this.stopped) {
          this.stopBeating(itemId);
          void this.api.release(this.queueId, itemId).catch(() => {});
        }
        throw error;
      },
    );
    if (this.waiting.length === 0 && this.reading) await this.reading;
    if (this.waiting.length === 0) {
      await recorded;
      return { next: this.show(await this.fetchNext()), recorded };
    }
    // The caller handles a refusal through `recorded`.
    recorded.catch(() => {});
    return { next: this.advance(), recorded };
  }

  /** Puts an item whose verdict was refused back on screen; the one shown waits, first. */
  reopen(item: ItemView): void {
    if (this.current !== null && this.current !== item) this.waiting.unshift(this.current);
    this.current = item;
  }

  /** Puts the item on screen back at the end of the queue, then shows the next. */
  async skip(): Promise<ItemView | null> {
    const item = this.requireItem();
    await this.api.skip(this.queueId, item.item.itemId);
    this.stopBeating(item.item.itemId);
    if (this.waiting.length === 0 && this.reading) await this.reading;
    return this.waiting.length > 0 ? this.advance() : this.show(await this.fetchNext());
  }

  /** Gives back every lease the page holds but those whose verdict is on its way. */
  async close(): Promise<void> {
    this.stopped = true;
    const held = [...this.beating.keys()].filter((itemId) => !this.sending.has(itemId));
    for (const itemId of held) this.stopBeating(itemId);
    this.current = null;
    this.waiting.length = 0;
    await Promise.allSettled(held.map((itemId) => this.api.release(this.queueId, itemId)));
  }

  private advance(): ItemView | null {
    return this.show(this.waiting.shift() ?? null);
  }

  private show(item: ItemView | null): ItemView | null {
    this.current = item;
    if (item !== null) this.readAhead();
    return item;
  }

  /** Claims and reads the next item while this one is on screen, unless one is waiting. */
  private readAhead(): void {
    if (this.stopped || this.reading || this.waiting.length > 0) return;
    this.reading = this.fetchNext()
      .then(
        (view) => {
          if (view !== null) this.waiting.push(view);
        },
        () => {},
      )
      .finally(() => {
        this.reading = null;
      });
  }

  private async fetchNext(): Promise<ItemView | null> {
    if (this.stopped) return null;
    const claimed = await this.api.claim(this.queueId);
    if (claimed === null) return null;
    // Left while the claim was on its way (a read ahead, say): its lease goes back at once,
    // or the item would stay leased to nobody until it expired.
    if (this.stopped) {
      await this.api.release(this.queueId, claimed.itemId).catch(() => {});
      return null;
    }
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
        // One read ahead is no longer the reviewer's to show.
        const waiting = this.waiting.findIndex((view) => view.item.itemId === itemId);
        if (waiting >= 0) this.waiting.splice(waiting, 1);
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
