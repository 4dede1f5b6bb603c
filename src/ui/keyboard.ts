// The page is keyboard first: what each key does, by where the focus is. Text fields keep their
// keys (typing `s` or `1` into a note is typing), except Ctrl/Cmd+Enter, which submits from
// anywhere, and Escape, which leaves the field; a one-line field also gives up ↑ and ↓, which
// move between fields, while a text area keeps them for its lines.

export type KeyAction =
  | { type: 'pick'; index: number }
  | { type: 'submit' }
  | { type: 'skip' }
  | { type: 'help' }
  | { type: 'escape' }
  | { type: 'next' }
  | { type: 'previous' };

export interface KeyPress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  /** Where the focus is: a one-line text input, a text area, or anything else. */
  focus: 'line' | 'text' | 'other';
}

/** The page's action for a key press, or null when the key is left to the browser. */
export function keyAction(press: KeyPress): KeyAction | null {
  const command = press.ctrlKey || press.metaKey;
  if (command && press.key === 'Enter') return { type: 'submit' };
  if (press.key === 'Escape') return { type: 'escape' };
  if (command || press.altKey || press.focus === 'text') return null;
  if (press.key === 'ArrowDown') return { type: 'next' };
  if (press.key === 'ArrowUp') return { type: 'previous' };
  if (press.focus === 'line') return null;
  if (/^[1-9]$/.test(press.key)) return { type: 'pick', index: Number(press.key) - 1 };
  switch (press.key) {
    case 's':
      return { type: 'skip' };
    case '?':
      return { type: 'help' };
    default:
      return null;
  }
}

/** The row ↑ or ↓ moves to among `count` rows from row `at` (-1: none), kept within the list. */
export function steppedRow(count: number, at: number, direction: 'next' | 'previous'): number {
  return Math.max(0, Math.min(count - 1, at + (direction === 'next' ? 1 : -1)));
}

/** Every shortcut, as the `?` overlay lists them. */
export const SHORTCUTS: readonly { keys: string; does: string }[] = [
  {
    keys: '1 – 9',
    does: 'pick that option of the field in focus (or the first field with options)',
  },
  { keys: '← →', does: 'the previous or next option of a field' },
  {
    keys: '↑ ↓',
    does: 'the previous or next field; in a list (queues, reviews, disagreements), the previous or next row',
  },
  { keys: 'Enter', does: 'open the row in focus (a queue, a review, a disagreement)' },
  { keys: 'Ctrl/⌘ + Enter', does: 'submit the verdict (from any field)' },
  { keys: 's', does: 'skip the item: it goes back to the end of the queue' },
  {
    keys: 'Esc',
    does: 'leave a text field; close this list; back to the queues (from a disagreement, to the evaluators)',
  },
  { keys: '?', does: 'show or hide every shortcut' },
];
