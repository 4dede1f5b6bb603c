import { afterAll, describe, expect, it } from 'vitest';
import {
  type Envelope,
  inOrderSent,
  type Limits,
  rejectionTypes,
  replay,
} from '../../src/core/index.js';
import {
  type ExecuteInput,
  type Outcome,
  openPostgresStore,
  openSqliteStore,
  type Store,
  type StoreOptions,
  staticScoreConfigs,
} from '../../src/store/index.js';
import { conformanceFeedbackTypes } from '../../src/testing/index.js';
import { sampleSteps } from '../core/arbitraries.js';
import { type PoisonedStep, samplePoisoned } from '../core/poisoned-inputs.js';
import { databaseUrl, dropSchema, freshSchemaName } from '../support/postgres.js';

// 10,000 commands against each adapter: generated from the core's schemas, mutated, and one in
// four poisoned with exactly one broken input rule (malformed Unicode, control characters and
// over-long ids, values that are not JSON, sizes over a limit, inputs that are not objects).
// Every one is recorded or a typed rejection and none throws; no poisoned one is recorded, and
// the log holds nothing that breaks a rule; the log stays gap-free, every view equals a replay
// of the log, and a workspace that only ever refused is not one.

const STEPS = 10_000;
const POISONED_EVERY = 4;
const schema = freshSchemaName();
afterAll(() => dropSchema(databaseUrl(), schema));

// Small limits, so oversized inputs stay cheap to generate.
const limits: Limits = {
  titleBytes: 64,
  messageContentBytes: 256,
  artifactDataBytes: 512,
  feedbackValueBytes: 512,
  pauseReasonBytes: 64,
  sourceLabelBytes: 32,
};

const adapters: [string, (options: StoreOptions) => Promise<Store>][] = [
  ['SQLite', async (options) => openSqliteStore(':memory:', options)],
  ['Postgres', (options) => openPostgresStore({ databaseUrl: databaseUrl(), schema }, options)],
];

function problemsWith(outcome: Outcome, head: number): string | null {
  if (outcome.type === 'recorded') {
    const seqs = outcome.events.map((e) => e.seq);
    const expected = outcome.events.map((_, i) => head + 1 + i);
    return JSON.stringify(seqs) === JSON.stringify(expected)
      ? null
      : `seqs ${seqs} after head ${head}`;
  }
  if (!rejectionTypes.includes(outcome.type) || typeof outcome.message !== 'string') {
    return `not a typed rejection: ${JSON.stringify(outcome)}`;
  }
  if (
    outcome.type === 'not_found' &&
    (typeof outcome.entity !== 'string' || typeof outcome.id !== 'string')
  ) {
    return `not_found without entity and id: ${JSON.stringify(outcome)}`;
  }
  if (outcome.type === 'validation_failed' && !Array.isArray(outcome.errors)) {
    return `validation_failed without errors: ${JSON.stringify(outcome)}`;
  }
  return null;
}

// What the log may hold, checked by other means than the store's own (Node's UTF-8 encoder, a
// regex, Buffer.byteLength), so a rule the core forgot shows up here.
const ID_KEYS = new Set([
  'workspace_id',
  'thread_id',
  'run_id',
  'message_id',
  'artifact_id',
  'trace_id',
  'feedback_type',
  'id',
]);
const TEXT_LIMITS: Record<string, keyof Limits> = {
  title: 'titleBytes',
  content: 'messageContentBytes',
  reason: 'pauseReasonBytes',
  source_label: 'sourceLabelBytes',
};
// A feedback value is limited as sent; the log holds it with the type's defaults filled in.
const DEFAULTS_SLACK = 64;
const hasControlCharacter = (text: string) =>
  Array.from(text).some((c) => {
    const code = c.charCodeAt(0);
    return code < 0x20 || (code >= 0x7f && code <= 0x9f);
  });
const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

function ruleBreaks(envelope: Envelope): string[] {
  const found: string[] = [];
  const visit = (value: unknown, path: string) => {
    if (typeof value === 'string') {
      if (Buffer.from(value, 'utf8').toString('utf8') !== value) found.push(`${path}: malformed`);
      return;
    }
    if (typeof value !== 'object' || value === null) return;
    for (const [key, item] of Object.entries(value)) visit(item, `${path}.${key}`);
  };
  visit(envelope, '$');
  const ids: [string, unknown][] = [
    ['workspace_id', envelope.workspace_id],
    ...Object.entries(envelope.event).filter(([key]) => ID_KEYS.has(key)),
    ...Object.entries(envelope.actor),
  ];
  const target = (envelope.event as { target?: Record<string, unknown> }).target;
  if (target) ids.push(...Object.entries(target).filter(([key]) => key !== 'kind'));
  if (envelope.event.type === 'artifact_put') ids.push(['kind', envelope.event.kind]);
  for (const [key, id] of ids) {
    if (typeof id !== 'string') continue;
    if (id.length === 0 || id.length > 128 || hasControlCharacter(id)) {
      found.push(`${key}: not an id (${id.length} units)`);
    }
  }
  const event = envelope.event as unknown as Record<string, unknown>;
  for (const [key, limit] of Object.entries(TEXT_LIMITS)) {
    const text = event[key];
    if (typeof text === 'string' && bytes(text) > limits[limit]) found.push(`${key}: oversized`);
  }
  if ('data' in event && bytes(JSON.stringify(event.data)) > limits.artifactDataBytes) {
    found.push('data: oversized');
  }
  if (
    'value' in event &&
    bytes(JSON.stringify(event.value)) > limits.feedbackValueBytes + DEFAULTS_SLACK
  ) {
    found.push('value: oversized');
  }
  return found;
}

interface Step {
  input: unknown;
  poison: string | null;
}

/** Generated and mutated steps, every fourth one poisoned; poisoned ones alternate workspaces. */
function fuzzSteps(workspace_id: string, refusedOnly: string): Step[] {
  const poisoned = samplePoisoned(Math.ceil(STEPS / POISONED_EVERY), limits);
  const healthy = sampleSteps(STEPS - poisoned.length);
  const steps: Step[] = [];
  for (let i = 0, p = 0, h = 0; i < STEPS; i++) {
    if (i % POISONED_EVERY === POISONED_EVERY - 1 && p < poisoned.length) {
      const step = poisoned[p++] as PoisonedStep;
      const workspace = p % 2 ? workspace_id : refusedOnly;
      const input = 'whole' in step ? step.whole : { workspace_id: workspace, ...step.input };
      steps.push({ input, poison: step.poison });
    } else {
      const step = healthy[h++] as { actor: unknown; command: unknown };
      // Every tenth healthy command gets a command id of its own, so many replays are checked.
      const command = step.command as { command_id?: unknown } | null;
      const named =
        h % 10 === 0 &&
        typeof command === 'object' &&
        command !== null &&
        !('command_id' in command);
      steps.push({
        input: { workspace_id, ...step, ...(named ? { command_id: `fuzz-${i}` } : {}) },
        poison: null,
      });
    }
  }
  return steps;
}

describe.each(adapters)('the %s store given bad input', (name, open) => {
  it(`records or rejects each of ${STEPS.toLocaleString('en')} generated, mutated and poisoned commands, and its views equal a replay`, async () => {
    const store = await open({
      feedbackTypes: conformanceFeedbackTypes(),
      scoreConfigs: staticScoreConfigs({
        review: { archived: false },
        escalation: { archived: false },
      }),
      limits,
    });
    const workspace_id = `fuzz-${name}`;
    const refusedOnly = `fuzz-${name}-refused`;
    try {
      const heads = new Map<unknown, number>();
      const withIds: { input: ExecuteInput; outcome: Outcome }[] = [];
      const counts = { recorded: 0, rejected: 0, thrown: 0, poisoned: 0 };
      const acceptedPoisoned: string[] = [];
      const poisons = new Map<string, number>();
      for (const { input, poison } of fuzzSteps(workspace_id, refusedOnly)) {
        const name = poison ?? 'a generated command';
        let outcome: Outcome;
        try {
          outcome = await store.execute(input as ExecuteInput);
        } catch (error) {
          counts.thrown += 1;
          expect.fail(`${name} threw: ${String(error)}`);
        }
        const workspace = (input as { workspace_id?: unknown } | null)?.workspace_id;
        const head = heads.get(workspace) ?? 0;
        const problem = problemsWith(outcome, head);
        if (problem) expect.fail(`${name} → ${problem}`);
        if (poison !== null) {
          counts.poisoned += 1;
          const kind = poison.replace(/ \(.*\)$/, '');
          poisons.set(kind, (poisons.get(kind) ?? 0) + 1);
          if (outcome.type === 'recorded') acceptedPoisoned.push(poison);
          else expect(['validation_failed', 'forbidden'], poison).toContain(outcome.type);
        }
        if (outcome.type === 'recorded') {
          counts.recorded += 1;
          heads.set(workspace, head + outcome.events.length);
          const { command, command_id } = input as ExecuteInput;
          const id = command_id ?? (command as { command_id?: unknown }).command_id;
          if (typeof id === 'string') withIds.push({ input: input as ExecuteInput, outcome });
        } else {
          counts.rejected += 1;
        }
      }
      const head = heads.get(workspace_id) ?? 0;
      expect(counts.thrown).toBe(0);
      expect(acceptedPoisoned).toEqual([]);
      expect(counts.poisoned).toBe(STEPS / POISONED_EVERY);
      expect(counts.recorded).toBeGreaterThan(400);
      expect(counts.rejected).toBeGreaterThan(500);
      // Every kind of poison was tried, each many times.
      expect([...poisons.keys()].sort()).toEqual([
        'a Date',
        'a Map',
        'a bigint',
        'a circular reference',
        'a class instance',
        'a function',
        'a malformed key',
        'a malformed string',
        'a number JSON has not',
        'a sparse array',
        'a symbol',
        'actor not an object',
        'command not an object',
        'control character in an id',
        'empty id',
        'input not an object',
        'lone surrogate in an id',
        'lone surrogate in text',
        'nesting too deep',
        'not a string',
        'over-long id',
        'oversized content',
        'oversized data',
        'oversized feedback',
        'oversized reason',
        'oversized source_label',
        'oversized title',
        'oversized value',
        'undefined in an array',
      ]);

      // Idempotent commands replayed: the first outcome, and nothing appended.
      expect(withIds.length).toBeGreaterThan(20);
      for (const { input, outcome } of withIds) expect(await store.execute(input)).toEqual(outcome);
      expect(await store.head(workspace_id)).toBe(head);

      const log: Envelope[] = [];
      for (let page = await store.events({ workspace_id }); page.length > 0; ) {
        log.push(...page);
        page = await store.events({ workspace_id, after: page.at(-1)?.seq ?? 0 });
      }
      expect(log.map((e) => e.seq)).toEqual(Array.from({ length: head }, (_, i) => i + 1));
      expect(
        log.flatMap((envelope) => ruleBreaks(envelope).map((b) => `${envelope.seq} ${b}`)),
      ).toEqual([]);
      const replayed = replay(log);
      expect(await store.views(workspace_id)).toEqual(replayed);
      // Deep enough to mean something: entities of every kind, and feedback on them.
      for (const view of ['threads', 'runs', 'artifacts', 'messages', 'feedback'] as const) {
        expect(replayed[view].size, view).toBeGreaterThan(0);
      }
      for (const [thread_id, thread] of replayed.threads) {
        expect(await store.thread(workspace_id, thread_id)).toEqual(thread);
        const conversation = await store.conversation(workspace_id, thread_id);
        expect(conversation?.map((m) => m.message_id)).toEqual(
          [...replayed.messages.values()]
            .filter((m) => m.thread_id === thread_id)
            .sort(inOrderSent)
            .map((m) => m.message_id),
        );
      }
      for (const [run_id, run] of replayed.runs)
        expect(await store.run(workspace_id, run_id)).toEqual(run);
      for (const record of replayed.feedback.values()) {
        const byTarget = await store.feedback(workspace_id, {
          target: record.target,
          participant: record.participant,
        });
        expect(byTarget).toContainEqual(record);
      }
      // The workspace that only ever refused does not exist; nor does any malformed one.
      expect(await store.workspaces()).toEqual([workspace_id]);
    } finally {
      await store.close();
    }
  }, 180_000);
});
