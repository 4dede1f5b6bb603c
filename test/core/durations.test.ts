import { describe, expect, it } from 'vitest';
import {
  Duration,
  durationMs,
  durationProblem,
  InvalidDurationError,
  MAX_DURATION_MS,
} from '../../src/core/index.js';

describe('durations', () => {
  it('read whole numbers with units, alone or together, as milliseconds', () => {
    expect(durationMs('500ms')).toBe(500);
    expect(durationMs('45s')).toBe(45_000);
    expect(durationMs('30m')).toBe(30 * 60_000);
    expect(durationMs('2h')).toBe(2 * 3_600_000);
    expect(durationMs('1d')).toBe(86_400_000);
    expect(durationMs('1h30m')).toBe(90 * 60_000);
    expect(durationMs('1d2h3m4s5ms')).toBe(86_400_000 + 2 * 3_600_000 + 3 * 60_000 + 4005);
    expect(durationMs('365d')).toBe(MAX_DURATION_MS);
  });

  it('refuse what is no duration with one message that says what one is', () => {
    for (const bad of [
      '',
      '30',
      'm',
      '30x',
      '30 m',
      ' 30m',
      '1.5h',
      '-5m',
      '30M',
      '1h 30m',
      '0x1s',
    ]) {
      expect(durationProblem(bad), bad).toBe(
        `a duration is whole numbers with units (ms, s, m, h, d), such as '30m' or '1h30m', not '${bad}'`,
      );
    }
    expect(durationProblem(30)).toMatch(/, not 30$/);
    expect(durationProblem(null)).toMatch(/, not null$/);
    // Only a string is read: a value that merely prints as a duration is none.
    const printsAsOne = { toString: () => '1h' };
    expect(durationProblem(printsAsOne)).toBe(
      "a duration is whole numbers with units (ms, s, m, h, d), such as '30m' or '1h30m', not 1h",
    );
    expect(durationProblem(['30m'])).toMatch(/, not 30m$/);
  });

  it('refuse nothing at all and more than a year', () => {
    expect(durationProblem('0s')).toBe("a duration is longer than 0, not '0s'");
    expect(durationProblem('0m0s')).toBe("a duration is longer than 0, not '0m0s'");
    expect(durationProblem('366d')).toBe("a duration is at most 365d, not '366d'");
    expect(durationProblem('8761h')).toBe("a duration is at most 365d, not '8761h'");
    expect(durationProblem('1ms')).toBeNull();
  });

  it('throw InvalidDurationError naming the problem when read directly', () => {
    expect(() => durationMs('soon')).toThrow(InvalidDurationError);
    expect(() => durationMs('soon')).toThrow(/not 'soon'/);
    expect(() => durationMs('0s')).toThrow("a duration is longer than 0, not '0s'");
  });

  it('parse as the schema the rules use, keeping the text as written', () => {
    expect(Duration.parse('1h30m')).toBe('1h30m');
    const refused = Duration.safeParse('ninety minutes');
    expect(refused.success).toBe(false);
    expect(refused.error?.issues).toEqual([
      expect.objectContaining({
        code: 'custom',
        message: durationProblem('ninety minutes'),
      }),
    ]);
  });
});
