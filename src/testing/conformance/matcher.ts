import type { Outcome } from '../../store/index.js';
import type { ExpectedOutcome } from './case-file.js';

// A case states only the fields it cares about: `expected` is read as a subset of `actual`.

/** Where `actual` differs from `expected`, read as a subset: objects key by key, lists whole. */
export function subsetMismatches(expected: unknown, actual: unknown, path = '$'): string[] {
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return [`${path}: expected a list, got ${JSON.stringify(actual)}`];
    if (expected.length !== actual.length) {
      return [`${path}: expected ${expected.length} items, got ${actual.length}`];
    }
    return expected.flatMap((item, i) => subsetMismatches(item, actual[i], `${path}[${i}]`));
  }
  if (typeof expected === 'object' && expected !== null) {
    if (typeof actual !== 'object' || actual === null || Array.isArray(actual)) {
      return [`${path}: expected an object, got ${JSON.stringify(actual)}`];
    }
    const record = actual as Record<string, unknown>;
    return Object.entries(expected).flatMap(([key, value]) =>
      subsetMismatches(value, record[key], `${path}.${key}`),
    );
  }
  return Object.is(expected, actual)
    ? []
    : [`${path}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`];
}

/** The ways a case's outcome misses its expectation (none: the case passes). */
export function expectationMismatches(expect: ExpectedOutcome, outcome: Outcome): string[] {
  if ('rejection' in expect) {
    if (outcome.type === 'recorded') return ['expected a rejection, got recorded'];
    return subsetMismatches(expect.rejection, outcome, '$rejection');
  }
  if (outcome.type !== 'recorded') return [`expected recorded, got ${JSON.stringify(outcome)}`];
  const { events, ...rest } = outcome;
  return [
    ...subsetMismatches(expect.outcome, rest, '$outcome'),
    ...(expect.events === undefined
      ? []
      : subsetMismatches(
          expect.events,
          events.map((envelope) => envelope.event),
          '$events',
        )),
    ...(expect.envelopes === undefined
      ? []
      : subsetMismatches(expect.envelopes, events, '$envelopes')),
  ];
}
