import type { Envelope } from '../core/index.js';
import type { EventLog, Subscription } from '../store/index.js';
import { drainPages, followPages, type LogPosition } from './log-pages.js';

/** What a log follower reads, where it keeps its place, and whom it warns. */
export interface LogFollowerOptions {
  store: EventLog;
  workspaceId: string;
  cursor?: string;
  onWarning?: (line: string) => void;
  /** Events read per page; the cursor is saved once per page (default 500). */
  pageSize?: number;
}

/**
 * Follows a workspace's log a page at a time from a store cursor: `handlePage` does what a page's
 * events mean, then saves the cursor past it, so a page is handled at least once.
 */
export abstract class LogFollower {
  protected readonly cursor: string;
  protected readonly warn: (line: string) => void;
  readonly #position: LogPosition;

  constructor(options: LogFollowerOptions, defaultCursor: string) {
    const { store, workspaceId, pageSize = 500 } = options;
    this.cursor = options.cursor ?? defaultCursor;
    this.warn = options.onWarning ?? ((line) => console.warn(line));
    this.#position = { store, workspaceId, cursor: this.cursor, pageSize };
  }

  /** Handles every event after the cursor up to the log's head; returns how many. */
  drain(): Promise<number> {
    return drainPages(this.#position, (page) => this.handlePage(page));
  }

  /** Handles the events from the cursor, then follows new events until closed. */
  follow(): Promise<Subscription> {
    return followPages(this.#position, (page) => this.handlePage(page));
  }

  /** Does what a page of consecutive events means, then saves the cursor past it. */
  protected abstract handlePage(page: readonly Envelope[]): Promise<void>;
}
