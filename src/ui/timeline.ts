// A run's timeline as the item view shows it: each event with the time since the one before,
// so a pause reads as its length (paused → resumed) and the run as its whole (started → ended).

export interface TimelineEvent {
  event: 'started' | 'paused' | 'resumed' | 'ended';
  at: string;
  reason?: string | null | undefined;
  status?: string | null | undefined;
}

export interface TimelineRow extends TimelineEvent {
  /** Milliseconds since the event before; null for the first. */
  sincePrevious: number | null;
}

export function timelineRows(events: readonly TimelineEvent[]): TimelineRow[] {
  return events.map((event, i) => {
    const before = events[i - 1];
    return {
      ...event,
      sincePrevious: before === undefined ? null : Date.parse(event.at) - Date.parse(before.at),
    };
  });
}

/** How long the run took from its first event to its last (null before it has two). */
export function runDuration(events: readonly TimelineEvent[]): number | null {
  const first = events[0];
  const last = events.at(-1);
  return first && last && events.length > 1 ? Date.parse(last.at) - Date.parse(first.at) : null;
}

/** A duration in the two largest units that matter: `850 ms`, `4.2 s`, `3 min 5 s`, `2 d 4 h`. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '–';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const seconds = ms / 1000;
  if (seconds < 60) return `${seconds < 10 ? seconds.toFixed(1) : Math.round(seconds)} s`;
  const units: [string, number][] = [
    ['d', 86_400],
    ['h', 3_600],
    ['min', 60],
    ['s', 1],
  ];
  let rest = Math.floor(seconds);
  const parts: string[] = [];
  for (const [name, size] of units) {
    const count = Math.floor(rest / size);
    rest -= count * size;
    if (count > 0 || parts.length > 0) parts.push(`${count} ${name}`);
    if (parts.length === 2) break;
  }
  return parts.filter((part) => !part.startsWith('0 ')).join(' ');
}
