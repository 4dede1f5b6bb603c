import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { admit, JSON_MAX_DEPTH, jsonProblem } from '../../src/core/index.js';

const nested = (depth: number): unknown => {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = [value];
  return value;
};

describe('JSON values', () => {
  it('are what JSON.parse can give back, shared (but not circular) references included', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(jsonProblem(value)).toBeNull();
      }),
    );
    const shared = { a: 1 };
    expect(jsonProblem({ left: shared, right: [shared, shared] })).toBeNull();
    expect(jsonProblem(Object.assign(Object.create(null), { a: 1 }))).toBeNull();
    // As in JSON, a property holding undefined is absent.
    expect(jsonProblem({ a: 1, b: undefined })).toBeNull();
  });

  it('refuse what JSON cannot carry, saying what and where', () => {
    const circular: Record<string, unknown> = { a: [] };
    (circular.a as unknown[]).push(circular);
    class Point {
      x = 1;
    }
    const holes = [1];
    holes[2] = 3;
    const cases: [unknown, string][] = [
      [10n, '$: a bigint is not a JSON value'],
      [{ a: [1, 2n] }, '$.a[1]: a bigint is not a JSON value'],
      [circular, '$.a[0]: a circular reference'],
      [Number.NaN, '$: NaN is not a JSON number'],
      [{ x: Number.POSITIVE_INFINITY }, '$.x: Infinity is not a JSON number'],
      [[1, undefined], '$[1]: undefined is not a JSON value'],
      [holes, '$[1]: undefined is not a JSON value'],
      [undefined, '$: undefined is not a JSON value'],
      [() => 1, '$: a function is not a JSON value'],
      [{ s: Symbol('s') }, '$.s: a symbol is not a JSON value'],
      [new Date(0), '$: a Date is not a JSON object'],
      [{ m: new Map() }, '$.m: a Map is not a JSON object'],
      [new Point(), '$: a Point is not a JSON object'],
      [{ p: new (class {})() }, '$.p: a class instance is not a JSON object'],
      // A prototype without a constructor at all.
      [Object.create(Object.create(null)), '$: a class instance is not a JSON object'],
      [{ text: 'half \ud83d' }, '$.text: a string that is not well-formed Unicode'],
      [{ '\udc00': 1 }, '$: a key that is not well-formed Unicode'],
      [
        nested(JSON_MAX_DEPTH + 1),
        `$${'[0]'.repeat(JSON_MAX_DEPTH)}: nested deeper than 64 levels`,
      ],
    ];
    for (const [value, problem] of cases) expect(jsonProblem(value)).toBe(problem);
    expect(jsonProblem(nested(JSON_MAX_DEPTH))).toBeNull();
  });

  it('count the depth through objects as through arrays', () => {
    const inObjects = (depth: number): unknown => {
      let value: unknown = 1;
      for (let i = 0; i < depth; i++) value = { a: value };
      return value;
    };
    expect(jsonProblem(inObjects(JSON_MAX_DEPTH))).toBeNull();
    expect(jsonProblem(inObjects(JSON_MAX_DEPTH + 1))).toBe(
      `$${'.a'.repeat(JSON_MAX_DEPTH)}: nested deeper than 64 levels`,
    );
  });

  it('are checked in every free-form field, so no command reaches the fingerprint holding one', () => {
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    const system = { kind: 'system' };
    const commands = [
      { type: 'put_artifact', artifact_id: 'a', kind: 'k', data: { n: 1n } },
      { type: 'put_artifact', artifact_id: 'a', kind: 'k', data: circular },
      {
        type: 'give_feedback',
        feedback_type: 'helpfulness',
        target: { kind: 'turn', run_id: 'r' },
        value: { rating: 1n },
      },
      {
        type: 'rate_message',
        thread_id: 't',
        message_id: 'm',
        feedback_type: 'f',
        value: circular,
      },
      { type: 'post_message', thread_id: 't', role: 'user', content: '', feedback: [Number.NaN] },
    ];
    for (const command of commands) {
      const admitted = admit(system, command);
      expect(admitted.ok).toBe(false);
      if (!admitted.ok)
        expect(admitted.rejection.message).toMatch(/^invalid command: \w+: not JSON: \$/);
    }
  });
});
