import { describe, expect, it } from 'vitest';
import { costNanos, nanosOf, type Pricing, usdOf } from '../../src/core/index.js';

// Money is whole nano-dollars, so spend sums exactly; these pin the conversion and the order in
// which a report's cost is decided: its own figure, else its tokens at the price, else unknown.

const pricing: Pricing = {
  'judge-small': { inputPerMillionUsd: 3, outputPerMillionUsd: 15 },
};
const usage = { model: 'judge-small', inputTokens: 1000, outputTokens: 500 };

describe('money', () => {
  it('counts dollars as whole nano-dollars, rounding to the nearest', () => {
    expect(nanosOf(1.5)).toBe(1_500_000_000);
    expect(nanosOf(0.01)).toBe(10_000_000);
    expect(nanosOf(2.6e-9)).toBe(3);
    expect(nanosOf(0)).toBe(0);
  });

  it('turns nano-dollars back into dollars', () => {
    expect(usdOf(2_500_000_000)).toBe(2.5);
    expect(usdOf(10_000_000)).toBe(0.01);
    expect(usdOf(nanosOf(0.37))).toBe(0.37);
  });
});

describe('costNanos', () => {
  it('prices tokens at the model’s price per million, input and output each at its own', () => {
    // 1,000 × $3/M = $0.003 and 500 × $15/M = $0.0075.
    expect(costNanos(usage, pricing)).toBe(3_000_000 + 7_500_000);
    expect(costNanos({ ...usage, outputTokens: 0 }, pricing)).toBe(3_000_000);
    expect(costNanos({ ...usage, inputTokens: 0 }, pricing)).toBe(7_500_000);
  });

  it('rounds a priced call to whole nano-dollars', () => {
    const cheap: Pricing = { tiny: { inputPerMillionUsd: 0.0007, outputPerMillionUsd: 0 } };
    // 1 token × $0.0007/M = 0.7 nano-dollars.
    expect(costNanos({ model: 'tiny', inputTokens: 1, outputTokens: 0 }, cheap)).toBe(1);
  });

  it('takes the evaluator’s own figure over the price table, even a zero one', () => {
    expect(costNanos({ ...usage, costUsd: 0.002 }, pricing)).toBe(2_000_000);
    expect(costNanos({ ...usage, costUsd: 0 }, pricing)).toBe(0);
    expect(costNanos({ ...usage, model: 'unpriced', costUsd: 0.25 }, pricing)).toBe(250_000_000);
  });

  it('is unknown, not zero, for a model the table does not price', () => {
    expect(costNanos({ ...usage, model: 'unpriced' }, pricing)).toBeNull();
    expect(costNanos(usage, {})).toBeNull();
  });
});
