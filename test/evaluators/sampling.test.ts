import { describe, expect, it } from 'vitest';
import { isSampled } from '../../src/evaluators/index.js';

const targets = Array.from({ length: 10_000 }, (_, i) => `message:t/m-${i}`);
const sampledAt = (rate: number, participant = 'evaluator:judge@1') =>
  new Set(targets.filter((t) => isSampled(participant, t, rate)));

describe('deterministic sampling', () => {
  it('samples about the rate of targets', () => {
    expect(sampledAt(0.1).size).toBeGreaterThan(900);
    expect(sampledAt(0.1).size).toBeLessThan(1100);
    expect(sampledAt(0).size).toBe(0);
    expect(sampledAt(1).size).toBe(targets.length);
  });

  it('nests lower rates inside higher ones', () => {
    const low = sampledAt(0.05);
    const high = sampledAt(0.3);
    for (const target of low) expect(high.has(target)).toBe(true);
  });

  it('decides the same way every time, and independently per participant', () => {
    expect(sampledAt(0.2)).toEqual(sampledAt(0.2));
    const mine = sampledAt(0.2);
    const other = sampledAt(0.2, 'evaluator:judge@2');
    const overlap = [...other].filter((t) => mine.has(t)).length;
    expect(overlap).toBeLessThan(other.size * 0.4);
  });
});
