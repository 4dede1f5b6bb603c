import { describe, expect, it } from 'vitest';
import { dataDiff, formatData } from '../../src/ui/data-diff.js';
import { type KeyPress, keyAction, steppedRow } from '../../src/ui/keyboard.js';
import {
  forgetToken,
  fragmentWithoutToken,
  refusedSignInWords,
  takeToken,
  tokenFromFragment,
} from '../../src/ui/sign-in.js';
import { formatDuration, runDuration, timelineRows } from '../../src/ui/timeline.js';

// The page's plain parts, apart from the DOM: its keys, its sign-in, a run's timeline and an
// artifact's diff. The page itself runs in Chromium in test/ui/*.temporal.test.ts.

const press = (key: string, more: Partial<KeyPress> = {}): KeyPress => ({
  key,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  focus: 'other',
  ...more,
});

describe('the keyboard', () => {
  it('picks options 1 to 9, skips with s, helps with ?, moves with the arrows', () => {
    expect(keyAction(press('1'))).toEqual({ type: 'pick', index: 0 });
    expect(keyAction(press('9'))).toEqual({ type: 'pick', index: 8 });
    expect(keyAction(press('0'))).toBeNull();
    expect(keyAction(press('s'))).toEqual({ type: 'skip' });
    expect(keyAction(press('?'))).toEqual({ type: 'help' });
    expect(keyAction(press('ArrowDown'))).toEqual({ type: 'next' });
    expect(keyAction(press('ArrowUp'))).toEqual({ type: 'previous' });
  });

  it('submits with Ctrl or Cmd + Enter from anywhere, a text field included', () => {
    const anywhere: Partial<KeyPress>[] = [
      { ctrlKey: true },
      { metaKey: true },
      { ctrlKey: true, focus: 'text' },
      { metaKey: true, focus: 'line' },
    ];
    for (const more of anywhere) {
      expect(keyAction(press('Enter', more))).toEqual({ type: 'submit' });
    }
    expect(keyAction(press('Enter'))).toBeNull();
  });

  it('leaves every other key in a text field to the text, and Ctrl or Alt chords to the browser', () => {
    for (const key of ['1', 's', '?', 'ArrowDown', 'ArrowUp']) {
      expect(keyAction(press(key, { focus: 'text' })), key).toBeNull();
      expect(keyAction(press(key, { ctrlKey: true })), key).toBeNull();
      expect(keyAction(press(key, { altKey: true })), key).toBeNull();
    }
    for (const key of ['1', 's', '?']) {
      expect(keyAction(press(key, { focus: 'line' })), key).toBeNull();
    }
    expect(keyAction(press('Escape', { focus: 'text' }))).toEqual({ type: 'escape' });
  });

  it('moves ↑ ↓ within a list: from no row to the first, never past either end', () => {
    expect(steppedRow(3, -1, 'next')).toBe(0);
    expect(steppedRow(3, -1, 'previous')).toBe(0);
    expect(steppedRow(3, 1, 'next')).toBe(2);
    expect(steppedRow(3, 2, 'next')).toBe(2);
    expect(steppedRow(3, 0, 'previous')).toBe(0);
  });

  it('moves between fields with the arrows from a one-line field, not from a text area', () => {
    expect(keyAction(press('ArrowDown', { focus: 'line' }))).toEqual({ type: 'next' });
    expect(keyAction(press('ArrowUp', { focus: 'line' }))).toEqual({ type: 'previous' });
    expect(keyAction(press('ArrowDown', { focus: 'text' }))).toBeNull();
  });
});

describe('sign-in', () => {
  const memory = () => {
    const items = new Map<string, string>();
    return {
      getItem: (key: string) => items.get(key) ?? null,
      setItem: (key: string, value: string) => void items.set(key, value),
      removeItem: (key: string) => void items.delete(key),
    };
  };

  it('reads the token from the fragment, among other parameters', () => {
    expect(tokenFromFragment('#token=eut_abc')).toBe('eut_abc');
    expect(tokenFromFragment('#queue=q1&token=eut_abc')).toBe('eut_abc');
    expect(tokenFromFragment('#token=')).toBeNull();
    expect(tokenFromFragment('')).toBeNull();
    expect(fragmentWithoutToken('#queue=q1&token=eut_abc')).toBe('#queue=q1');
    expect(fragmentWithoutToken('#token=eut_abc')).toBe('');
    expect(fragmentWithoutToken('#token=esi_abc&as=admin')).toBe('');
  });

  it('keeps a link’s token in the tab and removes it from the address', () => {
    const storage = memory();
    const replaced: string[] = [];
    const reviewer = { token: 'eut_abc', admin: false };
    expect(takeToken('#token=eut_abc', storage, (f) => replaced.push(f))).toEqual(reviewer);
    expect(replaced).toEqual(['']);
    // A reload has no fragment: the tab's token is still there, until it is forgotten.
    expect(takeToken('', storage, (f) => replaced.push(f))).toEqual(reviewer);
    expect(replaced).toEqual(['']);
    forgetToken(storage);
    expect(takeToken('', storage, () => {})).toBeNull();
  });

  it('takes a new link’s token over the one it kept', () => {
    const storage = memory();
    takeToken('#token=old', storage, () => {});
    expect(takeToken('#token=new', storage, () => {})).toEqual({ token: 'new', admin: false });
    expect(takeToken('', storage, () => {})).toEqual({ token: 'new', admin: false });
  });

  it('keeps that a link was an admin’s, until another link or signing out', () => {
    const storage = memory();
    expect(takeToken('#token=esi_a&as=admin', storage, () => {})).toEqual({
      token: 'esi_a',
      admin: true,
    });
    expect(takeToken('', storage, () => {})).toEqual({ token: 'esi_a', admin: true });
    // A reviewer's link in the same tab is a reviewer's page again.
    expect(takeToken('#token=esi_r', storage, () => {})).toEqual({ token: 'esi_r', admin: false });
    takeToken('#token=esi_a&as=admin', storage, () => {});
    forgetToken(storage);
    takeToken('#token=esi_r', storage, () => {});
    expect(takeToken('', storage, () => {})).toEqual({ token: 'esi_r', admin: false });
  });

  it("says why the API refused a sign-in in a reviewer's words, not the engine's", () => {
    expect(refusedSignInWords('the credential has expired')).toMatch(/link has expired/);
    expect(refusedSignInWords('the credential was revoked')).toMatch(/link has been withdrawn/);
    for (const reason of ['the credential is malformed', 'the credential is not known']) {
      expect(refusedSignInWords(reason)).toMatch(/^This sign-in link is not valid/);
    }
  });
});

describe("a run's timeline", () => {
  const events = [
    { event: 'started' as const, at: '2026-01-01T10:00:00.000Z' },
    { event: 'paused' as const, at: '2026-01-01T10:00:04.200Z', reason: 'waiting for the user' },
    { event: 'resumed' as const, at: '2026-01-01T12:05:04.200Z' },
    { event: 'ended' as const, at: '2026-01-01T12:05:05.000Z', status: 'completed' },
  ];

  it('gives each event the time since the one before, and the run its whole length', () => {
    expect(timelineRows(events).map((row) => row.sincePrevious)).toEqual([
      null,
      4200,
      7_500_000,
      800,
    ]);
    expect(runDuration(events)).toBe(7_505_000);
    expect(runDuration(events.slice(0, 1))).toBeNull();
  });

  it('writes a duration in its two largest units', () => {
    expect(formatDuration(850)).toBe('850 ms');
    expect(formatDuration(4200)).toBe('4.2 s');
    expect(formatDuration(42_000)).toBe('42 s');
    expect(formatDuration(185_000)).toBe('3 min 5 s');
    expect(formatDuration(7_500_000)).toBe('2 h 5 min');
    expect(formatDuration(2 * 86_400_000 + 4 * 3_600_000 + 59_000)).toBe('2 d 4 h');
    expect(formatDuration(3_600_000)).toBe('1 h');
    expect(formatDuration(-1)).toBe('–');
  });
});

describe("an artifact version's data", () => {
  it('is indented JSON, a string as written', () => {
    expect(formatData({ a: 1 })).toBe('{\n  "a": 1\n}');
    expect(formatData('plain <b>text</b>')).toBe('plain <b>text</b>');
  });

  it('shows its lines against the previous version’s', () => {
    expect(dataDiff({ total: 10, items: ['a'] }, { total: 12, items: ['a'] }, true)).toEqual([
      { kind: 'same', text: '{' },
      { kind: 'removed', text: '  "total": 10,' },
      { kind: 'added', text: '  "total": 12,' },
      { kind: 'same', text: '  "items": [' },
      { kind: 'same', text: '    "a"' },
      { kind: 'same', text: '  ]' },
      { kind: 'same', text: '}' },
    ]);
  });

  it('shows every line as it is for a first version', () => {
    expect(dataDiff(null, { a: 1 }, false)).toEqual([
      { kind: 'same', text: '{' },
      { kind: 'same', text: '  "a": 1' },
      { kind: 'same', text: '}' },
    ]);
  });
});
