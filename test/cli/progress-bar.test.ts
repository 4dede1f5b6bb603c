import { describe, expect, it } from 'vitest';
import { duration, ProgressReporter } from '../../src/cli/presentation/progress-bar.js';

/** A stream that records what was written, a terminal or not. */
function stream(isTTY: boolean, columns = 120) {
  const chunks: string[] = [];
  return { isTTY, columns, chunks, write: (chunk: string) => chunks.push(chunk) };
}

/** A clock the test moves. */
function clock() {
  let now = 1_000_000;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

const progress = (
  done: number,
  extra: Partial<Parameters<ProgressReporter['update']>[0]> = {},
) => ({
  total: 100,
  done,
  failed: 0,
  inFlight: 8,
  paused: false,
  cancelled: false,
  ...extra,
});

describe('the progress bar on a terminal', () => {
  it('redraws one line in place with the bar, done, in flight, failed, rate and time left', () => {
    const out = stream(true);
    const time = clock();
    const bar = new ProgressReporter(out, 'b1', time.now);
    bar.update(progress(0));
    time.advance(2000);
    bar.update(progress(50, { failed: 2 }));
    expect(out.chunks).toHaveLength(2);
    for (const chunk of out.chunks) {
      expect(chunk.startsWith('\r\x1b[2K')).toBe(true);
      expect(chunk).not.toContain('\n');
    }
    expect(out.chunks[0]).toBe(
      `\r\x1b[2Kb1 ${'░'.repeat(24)} 0/100 done · 8 in flight · 0 failed · –/s · time left unknown`,
    );
    // 50 settled in 2 s: 25/s, and 50 left take 2 s more.
    expect(out.chunks[1]).toBe(
      `\r\x1b[2Kb1 ${'█'.repeat(12)}${'░'.repeat(12)} 50/100 done · 8 in flight · 2 failed · 25.0/s · 2s left`,
    );
  });

  it('ends the line when the batch finishes, and says paused or cancelled', () => {
    const out = stream(true);
    const time = clock();
    const bar = new ProgressReporter(out, 'b1', time.now);
    bar.update(progress(10, { paused: true }));
    expect(out.chunks.at(-1)).toMatch(/ · paused$/);
    time.advance(1000);
    bar.finish(progress(40, { cancelled: true, inFlight: 0 }));
    expect(out.chunks.at(-2)).toMatch(
      /40\/100 done · 0 in flight · 0 failed · 30\.0\/s · cancelled$/,
    );
    expect(out.chunks.at(-1)).toBe('\n');
  });

  it('fits the line to the terminal width', () => {
    const out = stream(true, 30);
    new ProgressReporter(out, 'b1').update(progress(5));
    expect(out.chunks[0]?.replace('\r\x1b[2K', '')).toHaveLength(29);
  });
});

describe('the progress bar elsewhere (a pipe, a file)', () => {
  it('prints a plain line each time the numbers change, and nothing when they do not', () => {
    const out = stream(false);
    const time = clock();
    const bar = new ProgressReporter(out, 'b1', time.now);
    bar.update(progress(0, { total: 0, inFlight: 0 }));
    bar.update(progress(0));
    time.advance(1000);
    bar.update(progress(0));
    time.advance(1000);
    bar.update(progress(20));
    bar.finish(progress(100, { inFlight: 0 }));
    expect(out.chunks).toEqual([
      'b1: 0/0 done, 0 in flight, 0 failed, –/s, counting targets, no estimate yet\n',
      'b1: 0/100 done, 8 in flight, 0 failed, –/s, time left unknown\n',
      'b1: 20/100 done, 8 in flight, 0 failed, 10.0/s, 8s left\n',
      'b1: 100/100 done, 0 in flight, 0 failed, 50.0/s, complete\n',
    ]);
    for (const control of ['\r', '\x1b']) expect(out.chunks.join('')).not.toContain(control);
  });

  it('names what a batch counts before it has a total: its turns, messages or threads', () => {
    for (const what of ['turns', 'messages', 'threads']) {
      const out = stream(false);
      new ProgressReporter(out, 'b1', clock().now, what).update(
        progress(0, { total: 0, inFlight: 0 }),
      );
      expect(out.chunks).toEqual([
        `b1: 0/0 done, 0 in flight, 0 failed, –/s, counting ${what}, no estimate yet\n`,
      ]);
    }
  });

  it('leaves out in flight when the progress does not say (the HTTP API’s)', () => {
    const out = stream(false);
    const { inFlight: _, ...withoutInFlight } = progress(3);
    new ProgressReporter(out, 'b1').update(withoutInFlight);
    expect(out.chunks).toEqual(['b1: 3/100 done, 0 failed, –/s, time left unknown\n']);
  });
});

it('writes durations as seconds, minutes and hours', () => {
  expect([duration(4.4), duration(65), duration(7_800)]).toEqual(['4s', '1m05s', '2h10m']);
});

describe('a budgeted batch', () => {
  it("shows a budgeted batch's spend beside done and failed, and a pause by its budget", () => {
    const out = stream(false);
    const line = new ProgressReporter(out, 'b1', clock().now);
    const budgeted = { spentUsd: 0.0123, maxCostUsd: 0.02 };
    line.update(progress(3, budgeted));
    line.update(progress(3, budgeted));
    line.update(progress(4, { ...budgeted, spentUsd: 0.02, paused: true, pausedBy: 'budget' }));
    expect(out.chunks).toEqual([
      'b1: 3/100 done, 8 in flight, 0 failed, $0.0123 spent of $0.0200, –/s, time left unknown\n',
      'b1: 4/100 done, 8 in flight, 0 failed, $0.0200 spent of $0.0200, –/s, paused: budget reached\n',
    ]);
  });

  it('prints the budget as it was set, never rounded to $0.00 (issue 34)', () => {
    const out = stream(false);
    const line = new ProgressReporter(out, 'b1', clock().now);
    const paused = { paused: true, pausedBy: 'budget' as const, inFlight: 0 };
    line.update(progress(3, { spentUsd: 0.0011, maxCostUsd: 0.001, ...paused }));
    line.update(progress(3, { spentUsd: 0.00111, maxCostUsd: 0.00125, ...paused }));
    line.update(progress(3, { spentUsd: 12.3, maxCostUsd: 40 }));
    expect(out.chunks).toEqual([
      'b1: 3/100 done, 0 in flight, 0 failed, $0.0011 spent of $0.0010, –/s, paused: budget reached\n',
      // A new budget is a new line, though nothing else changed.
      'b1: 3/100 done, 0 in flight, 0 failed, $0.00111 spent of $0.00125, –/s, paused: budget reached\n',
      'b1: 3/100 done, 8 in flight, 0 failed, $12.30 spent of $40.00, –/s, time left unknown\n',
    ]);
  });

  it('ends its line on a batch left paused by its budget without calling it complete', () => {
    const out = stream(true, 200);
    const bar = new ProgressReporter(out, 'b1', clock().now);
    const waiting = progress(3, {
      inFlight: 0,
      paused: true,
      pausedBy: 'budget',
      spentUsd: 0.0011,
      maxCostUsd: 0.001,
    });
    bar.update(waiting);
    bar.finish(waiting, false);
    expect(out.chunks.at(-2)).toMatch(
      /\$0\.0011 spent of \$0\.0010 · –\/s · paused: budget reached$/,
    );
    expect(out.chunks.at(-1)).toBe('\n');
  });
});
