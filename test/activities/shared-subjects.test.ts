import { afterEach, describe, expect, it, vi } from 'vitest';
import { sharedSubjects } from '../../src/activities/shared-subjects.js';
import type { Subject } from '../../src/evaluators/index.js';

const turn = (run_id: string): Subject => ({
  kind: 'turn',
  run: { run_id, thread_id: 't1', status: 'completed', trace_ids: [] },
  messages: [{ message_id: 'm1', role: 'assistant', content: 'hi' } as never],
  steps: [],
});

describe("one generation's turn snapshot", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is loaded once for the evaluators that start together or soon after', async () => {
    vi.useFakeTimers();
    const subjects = sharedSubjects();
    const load = vi.fn(async () => turn('r1'));
    const [a, b] = await Promise.all([subjects('g|turn:r1', load), subjects('g|turn:r1', load)]);
    const c = await subjects('g|turn:r1', load);
    expect(load).toHaveBeenCalledTimes(1);
    expect(b).toEqual(a);
    expect(c).toEqual(a);
    // Each its own copy: an evaluator that sorts its messages in place changes no other's.
    if (a?.kind === 'turn') a.messages.length = 0;
    expect(c?.kind === 'turn' && c.messages).toHaveLength(1);
    const d = await subjects('g|turn:r1', load);
    expect(d?.kind === 'turn' && d.messages).toHaveLength(1);

    // Another generation or target loads its own; after the window, the same key loads again.
    await subjects('g2|turn:r1', load);
    await subjects('g|turn:r2', load);
    expect(load).toHaveBeenCalledTimes(3);
    await vi.advanceTimersByTimeAsync(5_000);
    await subjects('g|turn:r1', load);
    expect(load).toHaveBeenCalledTimes(4);
  });

  it('is not kept when its load fails, and other targets are never shared', async () => {
    const subjects = sharedSubjects();
    const failing = vi.fn(async (): Promise<Subject | null> => {
      throw new Error('store unavailable');
    });
    await expect(subjects('g|turn:r1', failing)).rejects.toThrow('store unavailable');
    const load = vi.fn(async () => turn('r1'));
    expect(await subjects('g|turn:r1', load)).toEqual(turn('r1'));
    await subjects(null, load);
    await subjects(null, load);
    expect(load).toHaveBeenCalledTimes(3);
  });
});
