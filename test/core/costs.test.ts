import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  costNanos,
  nanosOf,
  type Pricing,
  spendAndLimitText,
  usdOf,
  usdPlaces,
  usdText,
} from '../../src/core/index.js';

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

describe('money as text', () => {
  it('prints cents from a dollar and hundredths of a cent below one', () => {
    expect([usdText(20), usdText(1234.5), usdText(1), usdText(0.999995)]).toEqual([
      '$20.00',
      '$1234.50',
      '$1.00',
      '$1.0000',
    ]);
    expect([usdText(0.0123), usdText(0.001), usdText(0), usdText(0.00004)]).toEqual([
      '$0.0123',
      '$0.0010',
      '$0.0000',
      '$0.0000',
    ]);
  });

  it('prints more places when asked for, to the nano-dollar and no further', () => {
    expect([usdText(0.00125, 5), usdText(0.012345, 6), usdText(2.5, 3)]).toEqual([
      '$0.00125',
      '$0.012345',
      '$2.500',
    ]);
    expect(usdText(usdOf(1), 12)).toBe('$0.000000001');
    // Fewer than the least is the least.
    expect(usdText(0.5, 1)).toBe('$0.5000');
  });

  it('counts the places an amount was set with', () => {
    expect([usdPlaces(20), usdPlaces(0.5), usdPlaces(0.001), usdPlaces(0.00125)]).toEqual([
      0, 1, 3, 5,
    ]);
    expect([usdPlaces(usdOf(1)), usdPlaces(12.000000001), usdPlaces(0)]).toEqual([9, 9, 0]);
  });

  it('prints a budget as it was set and its spend at least as finely (issue 34: not `$0.00`)', () => {
    expect(spendAndLimitText(0.0011, 0.001)).toEqual(['$0.0011', '$0.0010']);
    expect(spendAndLimitText(0.00111, 0.00125)).toEqual(['$0.00111', '$0.00125']);
    expect(spendAndLimitText(0.0123, 0.02)).toEqual(['$0.0123', '$0.0200']);
    expect(spendAndLimitText(3.456, 20)).toEqual(['$3.46', '$20.00']);
    expect(spendAndLimitText(19.99, 20.005)).toEqual(['$19.990', '$20.005']);
  });

  it('reads back any budget as set, to the nano-dollar', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10 ** 15 }), (nanos) => {
        const [, limit] = spendAndLimitText(0, usdOf(nanos));
        expect(nanosOf(Number(limit.slice(1)))).toBe(nanos);
      }),
    );
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
