import fc from 'fast-check';
import type { z } from 'zod';
import {
  COMMAND_ID_MAX_LENGTH,
  CreateThread,
  ID_MAX_LENGTH,
  type Limits,
  PauseRun,
  PostMessage,
} from '../../src/core/index.js';
import { actor, arbitraryOf, validCommand } from './arbitraries.js';

// Inputs that break exactly one of the rules every input meets (docs/limits.md), each tagged
// with the rule it breaks: malformed Unicode, control characters and over-long ids, values that
// are not JSON, sizes over a limit, and inputs that are not objects at all. None may be recorded.

export interface PoisonedStep {
  /** The rule the input breaks. */
  poison: string;
  /** What `store.execute` is given; `workspace_id` is the caller's unless this names one. */
  input: { workspace_id?: unknown; actor?: unknown; command?: unknown; command_id?: unknown };
  /** Given instead of an input object: a whole input that is not one. */
  whole?: unknown;
}

/** Strings of arbitrary UTF-16 units, lone surrogates included. */
const units = fc.string({
  unit: fc.integer({ min: 0, max: 0xffff }).map((u) => String.fromCharCode(u)),
  maxLength: 12,
});
const loneSurrogate = fc
  .tuple(units, fc.integer({ min: 0xd800, max: 0xdfff }), units)
  // A low half right after a high one would pair up: break any pair with a space.
  .map(([before, half, after]) => `${before} ${String.fromCharCode(half)} ${after}`);
const control = fc
  .tuple(
    fc.string({ maxLength: 6 }),
    fc.oneof(fc.integer({ min: 0, max: 0x1f }), fc.integer({ min: 0x7f, max: 0x9f })),
  )
  .map(([text, code]) => `${text}${String.fromCharCode(code)}${text}`);
const overLong = fc
  .oneof(
    { weight: 9, arbitrary: fc.integer({ min: ID_MAX_LENGTH + 1, max: 600 }) },
    { weight: 1, arbitrary: fc.constant(300_000) },
  )
  .map((length) => 'i'.repeat(length));

/** An id the id rule refuses, named by what is wrong with it. */
const badId: fc.Arbitrary<[string, string]> = fc.oneof(
  loneSurrogate.map((id) => ['lone surrogate in an id', id] as [string, string]),
  control.map((id) => ['control character in an id', id] as [string, string]),
  overLong.map((id) => ['over-long id', id] as [string, string]),
  fc.constant(['empty id', ''] as [string, string]),
);

const ID_FIELDS = ['thread_id', 'run_id', 'message_id', 'artifact_id', 'trace_id', 'feedback_type'];
const TARGET_ID_FIELDS = ['artifact_id', 'thread_id', 'run_id', 'message_id'];

/** A valid command with one of its ids (or, when it has none, its command id) made bad. */
const badIdInCommand: fc.Arbitrary<PoisonedStep> = fc
  .tuple(actor, validCommand, badId, fc.nat())
  .map(([who, command, [poison, id], pick]) => {
    const paths: string[][] = ID_FIELDS.filter((key) => typeof command[key] === 'string').map(
      (key) => [key],
    );
    if (command.type === 'put_artifact') paths.push(['kind']);
    const target = command.target as Record<string, unknown> | undefined;
    if (target) {
      for (const key of TARGET_ID_FIELDS) {
        if (typeof target[key] === 'string') paths.push(['target', key]);
      }
    }
    const path = paths[pick % paths.length];
    if (path === undefined) {
      // No id but the command id, which takes longer ones.
      const long = id.length > ID_MAX_LENGTH ? id.padEnd(COMMAND_ID_MAX_LENGTH + 1, 'i') : id;
      return {
        poison: `${poison} (command_id)`,
        input: { actor: who, command: { ...command, command_id: long } },
      };
    }
    const [first, second] = path as [string, string | undefined];
    const damaged =
      second === undefined
        ? { ...command, [first]: id }
        : { ...command, [first]: { ...(command[first] as object), [second]: id } };
    return { poison: `${poison} (${path.join('.')})`, input: { actor: who, command: damaged } };
  });

/** An actor whose id or name the id rule refuses. */
const badActor: fc.Arbitrary<PoisonedStep> = fc
  .tuple(validCommand, badId, fc.nat(4))
  .map(([command, [poison, id], which]) => {
    const actors = [
      { kind: 'user', id },
      { kind: 'agent', thread_id: id },
      { kind: 'reviewer', id },
      { kind: 'system', name: id },
      { kind: 'user', id: 'u1', name: id },
    ];
    return { poison: `${poison} (actor)`, input: { actor: actors[which], command } };
  });

const badWorkspace: fc.Arbitrary<PoisonedStep> = fc
  .tuple(
    actor,
    validCommand,
    fc.oneof(badId, fc.constant(['not a string', 7] as [string, unknown])),
  )
  .map(([who, command, [poison, workspace_id]]) => ({
    poison: `${poison} (workspace_id)`,
    input: { workspace_id, actor: who, command },
  }));

/** A command id the rule refuses: as an id, except that it may be up to 512 units long. */
const badCommandIdValue: fc.Arbitrary<[string, string]> = fc.oneof(
  badId.filter(([poison]) => poison !== 'over-long id'),
  fc
    .integer({ min: COMMAND_ID_MAX_LENGTH + 1, max: 2000 })
    .map((length) => ['over-long id', 'c'.repeat(length)] as [string, string]),
);

const badCommandId: fc.Arbitrary<PoisonedStep> = fc
  .tuple(actor, validCommand, badCommandIdValue)
  .map(([who, command, [poison, command_id]]) => ({
    poison: `${poison} (command_id)`,
    input: { actor: who, command, command_id },
  }));

/** Commands with free text, each by the field that holds it. */
const withText: [z.ZodType, string][] = [
  [CreateThread, 'title'],
  [PauseRun, 'reason'],
  [PostMessage, 'content'],
];

const badText: fc.Arbitrary<PoisonedStep> = fc
  .tuple(fc.constantFrom(...withText), actor, loneSurrogate)
  .chain(([[schema, field], who, text]) =>
    arbitraryOf(schema).map((command) => ({
      poison: `lone surrogate in text (${field})`,
      input: { actor: who, command: { ...(command as object), [field]: text } },
    })),
  );

class Point {
  x = 1;
}

/** A value JSON cannot carry, named by what it is. */
const notJson: fc.Arbitrary<[string, unknown]> = fc.oneof(
  fc.bigInt().map((n) => ['a bigint', n] as [string, unknown]),
  fc.constant(null).map(() => {
    const circular: Record<string, unknown> = { a: 1 };
    circular.self = circular;
    return ['a circular reference', circular] as [string, unknown];
  }),
  fc
    .constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY)
    .map((n) => ['a number JSON has not', n] as [string, unknown]),
  fc.constant(['undefined in an array', [1, undefined]] as [string, unknown]),
  fc.constant(null).map(() => {
    const holes = [1];
    holes[3] = 4;
    return ['a sparse array', holes] as [string, unknown];
  }),
  fc.constant(['a function', () => 1] as [string, unknown]),
  fc.constant(['a symbol', Symbol('s')] as [string, unknown]),
  fc.date().map((d) => ['a Date', d] as [string, unknown]),
  fc.constant(null).map(() => ['a Map', new Map([['a', 1]])] as [string, unknown]),
  fc.constant(null).map(() => ['a class instance', new Point()] as [string, unknown]),
  loneSurrogate.map((s) => ['a malformed string', { text: s }] as [string, unknown]),
  loneSurrogate.map((s) => ['a malformed key', { [s]: 1 }] as [string, unknown]),
  fc.integer({ min: 65, max: 200 }).map((depth) => {
    let value: unknown = 1;
    for (let i = 0; i < depth; i++) value = [value];
    return ['nesting too deep', value] as [string, unknown];
  }),
);

/** The value put somewhere inside an otherwise valid JSON value. */
const buried = (value: unknown) =>
  fc.constantFrom(value, { inner: value }, [1, value], { a: [{ b: value }] });

const badJson: fc.Arbitrary<PoisonedStep> = fc
  .tuple(actor, notJson, fc.nat(3), fc.nat())
  .chain(([who, [poison, value], where, seed]) =>
    buried(value).map((placed) => {
      const run_id = `r${seed % 12}`;
      const commands = [
        { type: 'put_artifact', artifact_id: 'a1', kind: 'report', data: placed },
        {
          type: 'give_feedback',
          feedback_type: 'helpfulness',
          target: { kind: 'turn', run_id },
          value: { rating: 3, reason: placed },
        },
        {
          type: 'rate_message',
          thread_id: 't1',
          message_id: 'm1',
          feedback_type: 'helpfulness',
          value: { rating: 4, reason: placed },
        },
        { type: 'post_message', thread_id: 't1', role: 'user', content: '', feedback: placed },
      ];
      const command = commands[where] as { type: string };
      return { poison: `${poison} (${command.type})`, input: { actor: who, command } };
    }),
  );

/** `bytes` bytes of UTF-8 in characters of one to four bytes. */
const sized = (bytes: number, seed: number) => {
  const pieces = ['a', 'é', '€', '😀'];
  let text = '';
  let left = bytes;
  for (let i = seed; left > 0; i++) {
    const piece = pieces[i % 4] as string;
    const size = Buffer.byteLength(piece);
    text += size <= left ? piece : 'a';
    left -= size <= left ? size : 1;
  }
  return text;
};

/** Commands one field over its limit, by between one byte and three times the limit. */
const oversized = (limits: Limits): fc.Arbitrary<PoisonedStep> =>
  fc
    .tuple(fc.nat(6), fc.double({ min: 0, max: 2, noNaN: true }), fc.nat(), fc.nat(11))
    .map(([which, over, seed, run]) => {
      const bytesOver = (limit: number) => limit + 1 + Math.floor(over * limit);
      const text = (limit: number) => sized(bytesOver(limit), seed);
      // `{"s":""}` wraps the string of a JSON value: 8 bytes.
      const json = (limit: number) => ({ s: sized(bytesOver(limit) - 8, seed) });
      const run_id = `r${run}`;
      const commands: [string, Record<string, unknown>][] = [
        [
          'title',
          { type: 'create_thread', thread_id: `big-${seed}`, title: text(limits.titleBytes) },
        ],
        ['reason', { type: 'pause_run', run_id, reason: text(limits.pauseReasonBytes) }],
        [
          'content',
          {
            type: 'post_message',
            thread_id: 't1',
            role: 'user',
            content: text(limits.messageContentBytes),
          },
        ],
        [
          'data',
          {
            type: 'put_artifact',
            artifact_id: 'a1',
            kind: 'report',
            data: json(limits.artifactDataBytes),
          },
        ],
        [
          'value',
          {
            type: 'give_feedback',
            feedback_type: 'helpfulness',
            target: { kind: 'turn', run_id },
            value: { rating: 3, reason: sized(bytesOver(limits.feedbackValueBytes), seed) },
          },
        ],
        [
          'source_label',
          {
            type: 'give_feedback',
            feedback_type: 'helpfulness',
            target: { kind: 'turn', run_id },
            value: { rating: 3 },
            source_label: text(limits.sourceLabelBytes),
          },
        ],
        [
          'feedback',
          {
            type: 'post_message',
            thread_id: 't1',
            role: 'user',
            content: '',
            feedback: json(limits.feedbackValueBytes),
          },
        ],
      ];
      const [field, command] = commands[which] as [string, Record<string, unknown>];
      return { poison: `oversized ${field}`, input: { actor: { kind: 'system' }, command } };
    });

const notAnObject = fc.oneof(
  fc.constantFrom(null, undefined, 0, 'create_thread', true, [], 1n),
  fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 }),
);

const notObjects: fc.Arbitrary<PoisonedStep> = fc.oneof(
  notAnObject.map((whole) => ({ poison: 'input not an object', input: {}, whole })),
  fc
    .tuple(actor, notAnObject)
    .map(([who, command]) => ({ poison: 'command not an object', input: { actor: who, command } })),
  fc
    .tuple(validCommand, notAnObject)
    .map(([command, who]) => ({ poison: 'actor not an object', input: { actor: who, command } })),
);

export const poisonedStep = (limits: Limits): fc.Arbitrary<PoisonedStep> =>
  fc.oneof(
    { weight: 4, arbitrary: badIdInCommand },
    { weight: 1, arbitrary: badActor },
    { weight: 1, arbitrary: badWorkspace },
    { weight: 1, arbitrary: badCommandId },
    { weight: 1, arbitrary: badText },
    { weight: 3, arbitrary: badJson },
    { weight: 3, arbitrary: oversized(limits) },
    { weight: 1, arbitrary: notObjects },
  );

/** A fixed, reproducible sample of poisoned steps. */
export const samplePoisoned = (count: number, limits: Limits, seed = 1109) =>
  fc.sample(poisonedStep(limits), { numRuns: count, seed });
