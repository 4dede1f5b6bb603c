import { z } from 'zod';
import { InvalidDurationError } from './errors.js';

// Durations as people write them in rules (`idleFor: '30m'`): the one parser, shared by the
// config file, the API, the CLI and the command that records a rule, so each refuses a bad value
// with the same words. A duration is kept as written; its milliseconds are read from it here.

const UNITS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
const WHOLE = /^(?:\d+(?:ms|s|m|h|d))+$/;
const PART = /(\d+)(ms|s|m|h|d)/g;

/** The longest duration: a year. Anything longer is taken for a mistake in the units. */
export const MAX_DURATION_MS = 365 * UNITS.d;

const written = (value: unknown) => (typeof value === 'string' ? `'${value}'` : String(value));

/** What is wrong with a would-be duration, or null when it is one. */
export function durationProblem(value: unknown): string | null {
  if (typeof value !== 'string' || !WHOLE.test(value)) {
    return (
      'a duration is whole numbers with units (ms, s, m, h, d), such as ' +
      `'30m' or '1h30m', not ${written(value)}`
    );
  }
  const ms = millisecondsOf(value);
  if (ms < 1) return `a duration is longer than 0, not ${written(value)}`;
  if (ms > MAX_DURATION_MS) return `a duration is at most 365d, not ${written(value)}`;
  return null;
}

const millisecondsOf = (text: string): number => {
  let ms = 0;
  for (const [, amount, unit] of text.matchAll(PART)) {
    ms += Number(amount) * UNITS[unit as keyof typeof UNITS];
  }
  return ms;
};

/**
 * A duration's milliseconds.
 *
 * @throws InvalidDurationError naming what is wrong, for anything `durationProblem` refuses.
 */
export function durationMs(text: string): number {
  const problem = durationProblem(text);
  if (problem !== null) throw new InvalidDurationError(problem);
  return millisecondsOf(text);
}

/** A duration, kept as written: `'30m'`, `'1h30m'`, `'45s'`, `'2d'`, `'500ms'`. */
export const Duration = z.string().check((ctx) => {
  const problem = durationProblem(ctx.value);
  if (problem !== null) ctx.issues.push({ code: 'custom', message: problem, input: ctx.value });
});
