import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TurnToJudge } from '../../src/activities/load-subject.js';
import { sharedTurns } from '../../src/activities/shared-turns.js';

const turn = (run_id: string): TurnToJudge => ({
  subject: {
    kind: 'turn',
    run: { run_id, thread_id: 't1', status: 'completed', trace_ids: [] },
    messages: [{ message_id: 'm1', role: 'assistant', content: 'hi' } as never],
    steps: [],
  },
  settled: [],
});

describe("one workflow execution's turn snapshot", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is loaded once for the evaluators that start together or soon after', async () => {
    vi.useFakeTimers();
    const turns = sharedTurns();
    const load = vi.fn(async () => turn('r1'));
    const [a, b] = await Promise.all([turns('g|turn:r1', load), turns('g|turn:r1', load)]);
    const c = await turns('g|turn:r1', load);
    expect(load).toHaveBeenCalledTimes(1);
    expect(b).toEqual(a);
    expect(c).toEqual(a);
    // Each its own copy: an evaluator that sorts its messages in place changes no other's.
    if (a?.subject.kind === 'turn') a.subject.messages.length = 0;
    expect(c?.subject.kind === 'turn' && c.subject.messages).toHaveLength(1);
    const d = await turns('g|turn:r1', load);
    expect(d?.subject.kind === 'turn' && d.subject.messages).toHaveLength(1);

    // Another execution or target loads its own; after the window, the same key loads again.
    await turns('g2|turn:r1', load);
    await turns('g|turn:r2', load);
    expect(load).toHaveBeenCalledTimes(3);
    await vi.advanceTimersByTimeAsync(5_000);
    await turns('g|turn:r1', load);
    expect(load).toHaveBeenCalledTimes(4);
  });

  it('is not kept when its load fails', async () => {
    const turns = sharedTurns();
    const failing = vi.fn(async (): Promise<TurnToJudge | null> => {
      throw new Error('store unavailable');
    });
    await expect(turns('g|turn:r1', failing)).rejects.toThrow('store unavailable');
    const load = vi.fn(async () => turn('r1'));
    expect(await turns('g|turn:r1', load)).toEqual(turn('r1'));
    expect(load).toHaveBeenCalledTimes(1);
  });
});
