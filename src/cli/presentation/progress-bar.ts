import { spendAndLimitText, usdText } from '../../core/index.js';

// The progress of a batch re-evaluation as a person watches it: one line redrawn in place on a
// terminal (a bar, versions done, in flight, failed, rate and time left), or, when the output is
// a file or a pipe, a plain line each time the numbers change.

/** What a progress line shows; `inFlight` is unknown to readers of the HTTP API's progress. */
export interface BatchProgress {
  total: number;
  done: number;
  failed: number;
  inFlight?: number;
  paused: boolean;
  /** Why it is paused: asked to, or its spend reached its budget. */
  pausedBy?: 'request' | 'budget' | null;
  /** A budgeted batch's spend and budget, shown beside done and failed. */
  spentUsd?: number;
  maxCostUsd?: number | null;
  cancelled: boolean;
}

/** Where the lines go: `process.stdout`, or a fake one in tests. */
export interface ProgressStream {
  isTTY?: boolean;
  columns?: number;
  write(chunk: string): unknown;
}

const BAR_WIDTH = 24;
/** A carriage return, then "erase the line": the next frame replaces the last. */
const REDRAW = '\r\x1b[2K';

export class ProgressReporter {
  private first: { done: number; at: number } | null = null;
  private lastKey: string | null = null;
  private drawn = false;

  constructor(
    private readonly stream: ProgressStream,
    /** What the batch is called on each line (its id). */
    private readonly label: string,
    private readonly now: () => number = Date.now,
    /** What the batch judges, in the plural (`turns`), named while it counts them. */
    private readonly what = 'targets',
  ) {}

  /** Draws the progress: a new frame on a terminal, a new line elsewhere only if it changed. */
  update(progress: BatchProgress, final = false): void {
    const at = this.now();
    if (this.first === null || progress.done < this.first.done) {
      this.first = { done: progress.done, at };
    }
    if (this.stream.isTTY) {
      this.stream.write(`${REDRAW}${this.fit(this.ttyLine(progress, at, final))}`);
      this.drawn = true;
      return;
    }
    // The rate and time left change with every poll; only the counts and the state make a new line.
    const { total, done, failed, inFlight, paused, pausedBy, cancelled, spentUsd, maxCostUsd } =
      progress;
    const key = JSON.stringify([
      [total, done, failed, inFlight],
      [paused, pausedBy, cancelled, final],
      [spentUsd, maxCostUsd],
    ]);
    if (key === this.lastKey) return;
    this.lastKey = key;
    this.stream.write(`${this.plainLine(progress, at, final)}\n`);
  }

  /**
   * Draws the last progress and ends the line, so what is printed next starts afresh: a batch
   * complete, or with `complete` false one left as it is (paused by its budget, say).
   */
  finish(progress: BatchProgress, complete = true): void {
    this.update(progress, complete);
    if (this.stream.isTTY && this.drawn) this.stream.write('\n');
  }

  private ttyLine(progress: BatchProgress, at: number, final: boolean): string {
    const share = progress.total === 0 ? 1 : Math.min(progress.done / progress.total, 1);
    const filled = Math.round(share * BAR_WIDTH);
    const bar = `${'█'.repeat(filled)}${'░'.repeat(BAR_WIDTH - filled)}`;
    return `${this.label} ${bar} ${this.parts(progress, at, final).join(' · ')}`;
  }

  private plainLine(progress: BatchProgress, at: number, final: boolean): string {
    return `${this.label}: ${this.parts(progress, at, final).join(', ')}`;
  }

  private parts(progress: BatchProgress, at: number, final: boolean): string[] {
    const parts = [`${progress.done}/${progress.total} done`];
    if (progress.inFlight !== undefined) parts.push(`${progress.inFlight} in flight`);
    parts.push(`${progress.failed} failed`);
    if (progress.spentUsd !== undefined) {
      if (progress.maxCostUsd == null) parts.push(`${usdText(progress.spentUsd)} spent`);
      else {
        const [spent, budget] = spendAndLimitText(progress.spentUsd, progress.maxCostUsd);
        parts.push(`${spent} spent of ${budget}`);
      }
    }
    const rate = this.rate(progress, at);
    parts.push(rate === null ? '–/s' : `${rate.toFixed(1)}/s`);
    const left = progress.total - progress.done;
    if (progress.cancelled) parts.push(final ? 'cancelled' : 'cancelling');
    else if (final) parts.push('complete');
    else if (progress.paused) {
      parts.push(progress.pausedBy === 'budget' ? 'paused: budget reached' : 'paused');
    }
    // The batch counts its targets first: until then there is nothing to measure against.
    else if (progress.total === 0) parts.push(`counting ${this.what}, no estimate yet`);
    else parts.push(rate ? `${duration(left / rate)} left` : 'time left unknown');
    return parts;
  }

  /** Versions settled per second since the first frame; null before any settled. */
  private rate(progress: BatchProgress, at: number): number | null {
    if (this.first === null) return null;
    const seconds = (at - this.first.at) / 1000;
    const settled = progress.done - this.first.done;
    return seconds > 0 && settled > 0 ? settled / seconds : null;
  }

  private fit(line: string): string {
    const columns = this.stream.columns;
    return columns && line.length > columns ? line.slice(0, Math.max(columns - 1, 0)) : line;
  }
}

/** `42s`, `3m05s`, `2h10m`. */
export function duration(seconds: number): string {
  const s = Math.max(Math.round(seconds), 0);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}
