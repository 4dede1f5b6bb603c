import { diffLines } from 'diff';

// An artifact version's data, formatted as indented JSON (a string shown as it is), and its
// lines against the previous version's: added, removed or the same.

export interface DiffLine {
  kind: 'added' | 'removed' | 'same';
  text: string;
}

/** Data as the page shows it: a string as written, anything else as indented JSON. */
export function formatData(data: unknown): string {
  if (typeof data === 'string') return data;
  return JSON.stringify(data, null, 2) ?? String(data);
}

/** The current version's lines against the previous one's (every line `same` without one). */
export function dataDiff(previous: unknown, current: unknown, hasPrevious: boolean): DiffLine[] {
  const now = formatData(current);
  if (!hasPrevious) return lines(now).map((text) => ({ kind: 'same', text }));
  return diffLines(formatData(previous), now).flatMap((change) =>
    lines(change.value).map((text) => ({
      kind: change.added
        ? ('added' as const)
        : change.removed
          ? ('removed' as const)
          : ('same' as const),
      text,
    })),
  );
}

const lines = (text: string): string[] => {
  const split = text.split('\n');
  return split.at(-1) === '' ? split.slice(0, -1) : split;
};
