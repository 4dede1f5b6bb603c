import type {
  MessageRole,
  Rejection,
  ReviewSlotState,
  RunStatus,
  StoredReviewQueue,
  Target,
} from '../../core/index.js';

// The review queues' part of the store: their definitions (a view of the log, like the rules) and
// their items, slots and leases (tables of their own, written often). Every method that depends
// on time takes `now`, the caller's clock: a lease is a row with its end, compared with `now` at
// the next claim, so it survives any restart and can never be held forever.

/** One target in one queue. */
export interface ReviewItem {
  item_id: string;
  queue_id: string;
  target: Target;
  target_key: string;
  /** Verdicts it needs (the queue's `reviewers_per_item` when it was queued). */
  slots: number;
  /** Verdicts recorded; the item is done when this reaches `slots`. */
  slots_done: number;
  /** Its place in the queue: lower is claimed first. */
  position: number;
  /** Who put it there: a participant, or `routing:{kind}` for a routing rule. */
  enqueued_by: string;
  enqueued_at: string;
}

/** One verdict's place on an item. */
export interface ReviewSlot {
  slot: number;
  state: ReviewSlotState;
  /** The reviewer (participant) leasing it or whose verdict it holds. */
  holder: string | null;
  /** A lease's end, or when its verdict was recorded; null while free. */
  at: string | null;
}

export interface ReviewItemWithSlots extends ReviewItem {
  slot_states: ReviewSlot[];
}

/** A claimed item: the slot its reviewer now holds, until `lease_expires_at`. */
export interface ClaimedItem {
  item: ReviewItem;
  slot: number;
  lease_expires_at: string;
}

/** A target given to `enqueue`, with its item: added now, or queued already. */
export interface EnqueuedItem {
  item_id: string;
  target: Target;
  added: boolean;
}

/** Which targets `enqueueMatching` puts in a queue: one kind, narrowed by each field given. */
export type ReviewTargetFilter =
  | {
      kind: 'turn';
      statuses?: readonly RunStatus[];
      thread_id?: string;
      /** Runs started at or after (ISO-8601, UTC). */
      started_from?: string;
      /** Runs started before. */
      started_to?: string;
    }
  | { kind: 'message'; roles?: readonly MessageRole[]; thread_id?: string; run_id?: string }
  | {
      kind: 'artifact';
      artifact_kinds?: readonly string[];
      /** Only each artifact's current version. */
      latest_only?: boolean;
      created_from?: string;
      created_to?: string;
    }
  | { kind: 'thread'; created_from?: string; created_to?: string };

/** What enqueueing did: targets added, and targets that were queued already. */
export interface EnqueueCounts {
  added: number;
  already_queued: number;
}

/**
 * A queue's progress, in slots (one per verdict an item needs): pending (free, or leased past its
 * end), leased (under a live lease), done; skips; verdicts in the last hour and day.
 */
export interface QueueCounts {
  items: number;
  items_done: number;
  pending: number;
  leased: number;
  done: number;
  skipped: number;
  done_last_hour: number;
  done_last_day: number;
}

/** One reviewer's part of a queue's progress. */
export interface ReviewerCounts {
  reviewer: string;
  leased: number;
  done: number;
  skipped: number;
  done_last_hour: number;
  done_last_day: number;
}

/** A slot a reviewer holds, to act on: the item and the reviewer (participant), at `now`. */
export interface HeldSlot {
  workspace_id: string;
  queue_id: string;
  item_id: string;
  reviewer: string;
  now: Date;
}

/** How completing a reviewer's slot went (see `complete`). */
export type Completion =
  | { state: 'done' | 'already'; slots: number; slots_done: number }
  /** The reviewer held no slot and the item had none left: a verdict beyond its slots. */
  | { state: 'over'; slots: number; slots_done: number }
  | null;

/** The queues a workspace defined (a view): what plans and followers of the log read. */
export interface ReviewQueueDefinitions {
  /** The workspace's own queues (the app's defaults are not stored), by queue id. */
  definitions(workspace_id: string): Promise<StoredReviewQueue[]>;
  /** The workspace's own queues as they stood right after `seq`, for a follower of the log. */
  definitionsAt(workspace_id: string, seq: number): Promise<StoredReviewQueue[]>;
}

/** Filling queues and counting verdicts on them: the enqueue commands and the log's follower. */
export interface ReviewQueueFilling {
  /**
   * Puts each target in the queue once (by its target key); a missing target refuses them all.
   * Reviewers' verdicts of `feedback_type` (the queue's) already on a target count toward its
   * item, as `settle` counts them.
   */
  enqueue(input: {
    workspace_id: string;
    queue_id: string;
    feedback_type: string;
    slots: number;
    targets: readonly Target[];
    enqueued_by: string;
    now: Date;
  }): Promise<EnqueuedItem[] | Rejection>;
  /** Puts every target matching the filter in the queue (at most `limit`), in pages, as `enqueue`. */
  enqueueMatching(input: {
    workspace_id: string;
    queue_id: string;
    feedback_type: string;
    slots: number;
    filter: ReviewTargetFilter;
    enqueued_by: string;
    now: Date;
    limit?: number;
  }): Promise<EnqueueCounts>;
  /**
   * A reviewer's verdict of `feedback_type` was recorded on a target, however it was sent: it
   * counts toward that target's item in each of `queue_ids` (queues of that type). The slot the
   * reviewer leases is done; else, when they hold none, the first open one becomes theirs, done
   * (free, then a lease past its end, then another reviewer's live lease, which ends; never the
   * lease of a holder whose verdict is recorded). Idempotent. Returns how many items it counted on.
   */
  settle(input: {
    workspace_id: string;
    queue_ids: readonly string[];
    feedback_type: string;
    target_key: string;
    reviewer: string;
    now: Date;
  }): Promise<number>;
}

/** A reviewer's leased slots: claim, keep, give back, complete. */
/** Who claims the next slot of which queue, for how long, as of when. */
export interface ClaimInput {
  workspace_id: string;
  queue_id: string;
  reviewer: string;
  feedback_type: string;
  lease_ms: number;
  now: Date;
}

export interface ReviewerLeases {
  /**
   * Leases the next slot the reviewer may take: an expired lease first, else the free slot
   * nearest the front; never a slot of an item the reviewer holds or did, or whose target has
   * their verdict of `feedback_type`, and never an expired lease whose holder's verdict is
   * recorded (it is done, waiting to be settled). Null when there is none.
   */
  claim(input: ClaimInput): Promise<ClaimedItem | null>;
  /** Extends the reviewer's live lease to `now + lease_ms`; null when they hold none. */
  heartbeat(slot: HeldSlot & { lease_ms: number }): Promise<string | null>;
  /** Gives a live lease back, the item at its place; false when the reviewer holds none. */
  release(slot: HeldSlot): Promise<boolean>;
  /** Gives a live lease back, the item to the end of the queue; false when none is held. */
  skip(slot: HeldSlot): Promise<boolean>;
  /**
   * Marks the reviewer's slot done, after their verdict is recorded; idempotent. A lease that ran
   * out meanwhile still counts (the verdict is recorded); a slot another reviewer took meanwhile
   * leaves the reviewer any slot still open, else it answers `over`.
   */
  complete(slot: HeldSlot): Promise<Completion>;
}

/** Items, counts and figures of the queues, for pages and metrics. */
export interface ReviewQueueReads {
  item(
    workspace_id: string,
    queue_id: string,
    item_id: string,
  ): Promise<ReviewItemWithSlots | null>;
  counts(workspace_id: string, queue_id: string, now: Date): Promise<QueueCounts>;
  reviewerCounts(workspace_id: string, queue_id: string, now: Date): Promise<ReviewerCounts[]>;
  /**
   * Every queue id's slots waiting for a verdict (free or leased) and under a live lease, summed
   * over the workspaces: what the API's metrics show.
   */
  figures(now: Date): Promise<{ queue_id: string; depth: number; leased: number }[]>;
  /** The items whose slots the reviewer did, latest first. */
  reviewedBy(
    workspace_id: string,
    queue_id: string,
    reviewer: string,
    limit: number,
  ): Promise<{ item_id: string; target: Target; done_at: string }[]>;
}

/** Review queues: every role's port at once, for wiring. */
export interface ReviewQueueStore
  extends ReviewQueueDefinitions,
    ReviewQueueFilling,
    ReviewerLeases,
    ReviewQueueReads {}
