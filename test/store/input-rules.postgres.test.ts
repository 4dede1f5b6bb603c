import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  COMMAND_ID_MAX_LENGTH,
  ID_MAX_LENGTH,
  InvalidLimitsError,
  type Limits,
  replay,
  targetKey,
} from '../../src/core/index.js';
import {
  commandIdOf,
  type ExecuteInput,
  type Outcome,
  openPostgresStore,
  openSqliteStore,
  type Store,
  type StoreOptions,
  staticScoreConfigs,
} from '../../src/store/index.js';
import { conformanceFeedbackTypes } from '../../src/testing/index.js';
import { databaseUrl, dropSchema, freshSchemaName } from '../support/postgres.js';

// The rules every input meets before the store keeps anything (docs/limits.md), on each backend:
// a typed outcome for anything at all, the id rule, size limits, and no workspace without an
// event.

const schema = freshSchemaName();
afterAll(() => dropSchema(databaseUrl(), schema));

const adapters: [string, (options: StoreOptions) => Promise<Store>][] = [
  ['SQLite', async (options) => openSqliteStore(':memory:', options)],
  ['Postgres', (options) => openPostgresStore({ databaseUrl: databaseUrl(), schema }, options)],
];

const system = { kind: 'system', name: 'system' };
const evaluator = { kind: 'evaluator', name: 'tone', version: '2' };

/** `length` units of three-byte characters that do not repeat, so nothing compresses them. */
const wide = (seed: number, length = ID_MAX_LENGTH) =>
  Array.from({ length }, (_, i) =>
    String.fromCharCode(0x4e00 + ((i * 7919 + seed * 104_729) % 20_000)),
  ).join('');
/** `length` units of the separators a composite key escapes, each to three bytes. */
const escaped = (seed: number, length = ID_MAX_LENGTH) =>
  Array.from({ length }, (_, i) => '/@:%'[(i * 31 + seed) % 4]).join('');

let counter = 0;
const freshWorkspace = () => `rules-${Date.now().toString(36)}-${++counter}`;

const small: Limits = {
  titleBytes: 16,
  messageContentBytes: 32,
  artifactDataBytes: 48,
  feedbackValueBytes: 40,
  pauseReasonBytes: 12,
  sourceLabelBytes: 8,
};
/** Exactly `bytes` bytes of UTF-8, two-byte characters first. */
const textOf = (bytes: number) => 'é'.repeat(Math.floor(bytes / 2)) + 'a'.repeat(bytes % 2);

describe.each(adapters)('the %s store', (_name, open) => {
  let store: Store;
  let limited: Store;
  beforeAll(async () => {
    const options = {
      feedbackTypes: conformanceFeedbackTypes(),
      scoreConfigs: staticScoreConfigs({ review: { archived: false } }),
    };
    store = await open(options);
    limited = await open({ ...options, limits: small });
  });
  afterAll(async () => {
    await store?.close();
    await limited?.close();
  });

  const run = (workspace_id: string, actor: unknown, command: unknown, on = store) =>
    on.executeUnchecked({ workspace_id, actor, command });
  const recorded = (outcome: Outcome) => {
    if (outcome.type !== 'recorded') throw new Error(`refused: ${outcome.message}`);
    return outcome;
  };

  async function liveRun(ws: string, on = store) {
    recorded(await run(ws, system, { type: 'create_thread', thread_id: 't' }, on));
    recorded(await run(ws, system, { type: 'start_run', run_id: 'r', thread_id: 't' }, on));
  }

  it('answers anything at all with a typed outcome, never a throw', async () => {
    const ws = freshWorkspace();
    await liveRun(ws);
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    const hostile = {
      type: 'create_thread',
      get thread_id(): string {
        throw new Error('no reading me');
      },
    };
    const inputs: unknown[] = [
      null,
      undefined,
      42,
      'create_thread',
      [],
      {},
      { workspace_id: ws },
      { workspace_id: ws, actor: null, command: { type: 'create_thread', thread_id: 'x' } },
      { workspace_id: ws, actor: 'system', command: { type: 'create_thread', thread_id: 'x' } },
      { workspace_id: ws, actor: system, command: null },
      { workspace_id: ws, actor: system, command: ['create_thread'] },
      { workspace_id: ws, actor: system, command: 7n },
      { workspace_id: ws, actor: system, command: hostile },
      {
        workspace_id: ws,
        actor: system,
        command: { type: 'put_artifact', artifact_id: 'a', kind: 'k', data: { n: 1n } },
      },
      {
        workspace_id: ws,
        actor: system,
        command: { type: 'put_artifact', artifact_id: 'a', kind: 'k', data: circular },
      },
      {
        workspace_id: ws,
        actor: evaluator,
        command: {
          type: 'give_feedback',
          feedback_type: 'helpfulness',
          target: { kind: 'turn', run_id: 'r' },
          value: { rating: 3, reason: () => 'a function' },
        },
      },
      {
        workspace_id: ws,
        actor: system,
        command: {
          type: 'post_message',
          thread_id: 't',
          role: 'user',
          content: '',
          feedback: { at: new Date(0) },
        },
      },
      {
        workspace_id: ws,
        actor: system,
        command: { type: 'create_thread', thread_id: 'x' },
        command_id: 5,
      },
    ];
    for (const [index, input] of inputs.entries()) {
      const outcome = await store.execute(input as ExecuteInput);
      expect(outcome.type, `input ${index}`).toBe('validation_failed');
    }
    expect(await store.head(ws)).toBe(2);
  });

  it('creates a workspace with its first event only: a refused command leaves none behind', async () => {
    const ws = freshWorkspace();
    const refused = [
      await run(ws, system, { type: 'start_run', run_id: 'r', thread_id: 'nowhere' }),
      await run(ws, evaluator, { type: 'create_thread', thread_id: 't' }),
      await run(
        ws,
        { kind: 'user', id: 'u1' },
        { type: 'delete_rating', thread_id: 't', message_id: 'm', feedback_type: 'helpfulness' },
      ),
      await run(ws, system, { type: 'create_thread' }),
    ];
    expect(refused.map((o) => o.type)).toEqual([
      'not_found',
      'forbidden',
      'not_found',
      'validation_failed',
    ]);
    expect(await store.workspaces()).not.toContain(ws);
    expect(await store.head(ws)).toBe(0);
    recorded(await run(ws, system, { type: 'create_thread', thread_id: 't' }));
    expect(await store.workspaces()).toContain(ws);
  });

  it('keeps seq gap-free when refusals race the first event of a workspace', async () => {
    const ws = freshWorkspace();
    const outcomes = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        i % 2
          ? run(ws, system, { type: 'start_run', run_id: `r${i}`, thread_id: 'missing' })
          : run(ws, system, { type: 'create_thread', thread_id: `t${i}` }),
      ),
    );
    expect(outcomes.filter((o) => o.type === 'recorded')).toHaveLength(15);
    expect(outcomes.filter((o) => o.type === 'not_found')).toHaveLength(15);
    expect((await store.events({ workspace_id: ws })).map((e) => e.seq)).toEqual(
      Array.from({ length: 15 }, (_, i) => i + 1),
    );
  });

  it('refuses ids the rule refuses, naming the field, so no two ids collapse into one', async () => {
    const ws = freshWorkspace();
    for (const thread_id of ['\ud800', '\ud801', 'nul\u0000', 'x'.repeat(ID_MAX_LENGTH + 1), '']) {
      expect(await run(ws, system, { type: 'create_thread', thread_id })).toMatchObject({
        type: 'validation_failed',
        message: expect.stringMatching(/^invalid command: thread_id: an id /),
      });
    }
    for (const workspace_id of ['\udfff', 'w\u0000', 'w'.repeat(ID_MAX_LENGTH + 1), '']) {
      const outcome = await store.executeUnchecked({
        workspace_id,
        actor: system,
        command: { type: 'create_thread', thread_id: 't' },
      });
      expect(outcome).toMatchObject({
        type: 'validation_failed',
        message: expect.stringMatching(/^workspace_id: an id /),
      });
    }
    const outcome = await store.executeUnchecked({
      workspace_id: ws,
      actor: system,
      command: { type: 'create_thread', thread_id: 't' },
      command_id: 'c\u0000',
    });
    expect(outcome).toMatchObject({
      type: 'validation_failed',
      message: 'command_id: an id cannot hold a control character (U+0000–U+001F, U+007F–U+009F)',
    });
    expect(await store.head(ws)).toBe(0);
    expect(await store.workspaces()).not.toContain(ws);
  });

  it('keeps the longest ids whole in every key, however wide their characters', async () => {
    const ws = wide(1);
    const thread_id = escaped(2);
    const run_id = wide(3);
    const message_id = wide(4);
    const artifact_id = escaped(5);
    const kind = wide(6);
    const longest = {
      kind: 'evaluator',
      name: 'n'.repeat(ID_MAX_LENGTH),
      version: 'v'.repeat(ID_MAX_LENGTH),
    };
    const reviewer = { kind: 'reviewer', id: wide(7) };
    recorded(await run(ws, system, { type: 'create_thread', thread_id }));
    recorded(
      await run(
        ws,
        { kind: 'agent', thread_id },
        { type: 'start_run', run_id, thread_id, trace_id: wide(8) },
      ),
    );
    recorded(
      await store.execute({
        workspace_id: ws,
        actor: { kind: 'agent', thread_id },
        command: {
          type: 'post_message',
          thread_id,
          message_id,
          run_id,
          role: 'assistant',
          content: 'hi',
        },
        command_id: wide(9, COMMAND_ID_MAX_LENGTH),
      }),
    );
    recorded(
      await run(
        ws,
        { kind: 'agent', thread_id },
        { type: 'put_artifact', artifact_id, kind, run_id },
      ),
    );
    const target = { kind: 'message', message_id, thread_id, run_id } as const;
    recorded(
      await run(ws, longest, {
        type: 'give_feedback',
        feedback_type: 'helpfulness',
        target,
        value: { rating: 4 },
      }),
    );
    recorded(
      await run(ws, reviewer, {
        type: 'give_feedback',
        feedback_type: 'review',
        target,
        value: { approved: true },
      }),
    );
    await store.ledger.settleEvaluation({
      workspace_id: ws,
      generation: wide(10),
      participant: `evaluator:${longest.name}@${longest.version}`,
      target_key: targetKey(target),
      target,
      state: 'recorded',
      reason: null,
      envelope_id: null,
    });

    expect(await store.thread(ws, thread_id)).toMatchObject({ thread_id });
    expect(await store.message(ws, thread_id, message_id)).toMatchObject({ message_id, run_id });
    expect(await store.artifact(ws, artifact_id)).toMatchObject({ artifact_id, kind });
    expect(await store.feedback(ws, { target })).toHaveLength(2);
    expect(await store.ledger.evaluations(ws)).toHaveLength(1);
    expect(await store.views(ws)).toEqual(replay(await store.events({ workspace_id: ws })));
    expect(await store.workspaces()).toContain(ws);
  });

  it('takes a derived command id of any length through commandIdOf, the same every time', async () => {
    const ws = freshWorkspace();
    recorded(await run(ws, system, { type: 'create_thread', thread_id: 't' }));
    const composite = `run:${wide(11)}:${wide(12)}|evaluator:tone@2|message:${escaped(13)}/${wide(14)}|run`;
    expect(commandIdOf('run:ws:r|evaluator:tone@2|turn:r|run')).toBe(
      'run:ws:r|evaluator:tone@2|turn:r|run',
    );
    expect(commandIdOf(composite)).toMatch(/^[0-9a-f-]{36}$/);
    const command = { type: 'create_thread', thread_id: 't2' };
    const first = recorded(
      await store.executeUnchecked({
        workspace_id: ws,
        actor: system,
        command,
        command_id: commandIdOf(composite),
      }),
    );
    const again = await store.executeUnchecked({
      workspace_id: ws,
      actor: system,
      command,
      command_id: commandIdOf(composite),
    });
    expect(again).toEqual(first);
    expect(await store.head(ws)).toBe(2);
  });

  it('answers reads of ids the rule refuses as absent, without asking the database', async () => {
    const ws = freshWorkspace();
    await liveRun(ws);
    for (const bad of ['t\u0000', '\ud800', 'x'.repeat(ID_MAX_LENGTH + 1)]) {
      expect(await store.thread(ws, bad)).toBeNull();
      expect(await store.run(ws, bad)).toBeNull();
      expect(await store.message(ws, 't', bad)).toBeNull();
      expect(await store.artifact(ws, bad)).toBeNull();
      expect(await store.conversation(ws, bad)).toBeNull();
      expect(await store.events({ workspace_id: ws, thread_id: bad })).toEqual([]);
      expect(await store.head(bad)).toBe(0);
      expect(await store.feedback(bad)).toEqual([]);
      expect((await store.views(bad)).threads.size).toBe(0);
    }
  });

  it('refuses a message that names an ended run, which would never be evaluated', async () => {
    const ws = freshWorkspace();
    await liveRun(ws);
    recorded(await run(ws, system, { type: 'end_run', run_id: 'r', status: 'completed' }));
    expect(
      await run(ws, system, {
        type: 'post_message',
        thread_id: 't',
        role: 'assistant',
        content: 'late',
        run_id: 'r',
      }),
    ).toEqual({
      type: 'invalid_state',
      message: "run r is completed; a run's messages are posted while it is running or paused",
    });
    expect(await store.head(ws)).toBe(3);
  });

  const sized: {
    field: keyof Limits;
    name: string;
    command: (bytes: number) => Record<string, unknown>;
  }[] = [
    {
      field: 'titleBytes',
      name: 'title',
      command: (n) => ({ type: 'create_thread', thread_id: `t${n}`, title: textOf(n) }),
    },
    {
      field: 'pauseReasonBytes',
      name: 'reason',
      command: (n) => ({ type: 'pause_run', run_id: 'r', reason: textOf(n) }),
    },
    {
      field: 'messageContentBytes',
      name: 'content',
      command: (n) => ({ type: 'post_message', thread_id: 't', role: 'user', content: textOf(n) }),
    },
    {
      field: 'artifactDataBytes',
      name: 'data',
      command: (n) => ({
        type: 'put_artifact',
        artifact_id: `a${n}`,
        kind: 'k',
        data: textOf(n - 2),
      }),
    },
    {
      field: 'feedbackValueBytes',
      name: 'value',
      command: (n) => ({
        type: 'give_feedback',
        feedback_type: 'helpfulness',
        target: { kind: 'thread', thread_id: 't' },
        value: { rating: 3, reason: textOf(n - '{"rating":3,"reason":""}'.length) },
      }),
    },
    {
      field: 'sourceLabelBytes',
      name: 'source_label',
      command: (n) => ({
        type: 'give_feedback',
        feedback_type: 'helpfulness',
        target: { kind: 'thread', thread_id: 't' },
        value: { rating: 3 },
        source_label: textOf(n),
      }),
    },
  ];
  for (const { field, name, command } of sized) {
    it(`takes a ${name} of exactly its configured ${field} and refuses one byte more`, async () => {
      const ws = freshWorkspace();
      await liveRun(ws, limited);
      const max = small[field];
      recorded(await run(ws, system, command(max), limited));
      const head = await limited.head(ws);
      expect(await run(ws, system, command(max + 1), limited)).toEqual({
        type: 'validation_failed',
        message: `${name} is ${max + 1} bytes of UTF-8, over the limit of ${max} (${field})`,
        errors: [{ path: [name], size: max + 1, limit: max, name: field }],
      });
      expect(await limited.head(ws)).toBe(head);
    });
  }

  it('holds a message to the default content limit of 1 MiB', async () => {
    const ws = freshWorkspace();
    await liveRun(ws);
    const post = (bytes: number) => ({
      type: 'post_message',
      thread_id: 't',
      role: 'user',
      content: textOf(bytes),
    });
    recorded(await run(ws, system, post(1_048_576)));
    expect(await run(ws, system, post(1_048_577))).toMatchObject({
      type: 'validation_failed',
      message: 'content is 1048577 bytes of UTF-8, over the limit of 1048576 (messageContentBytes)',
    });
  });

  it('refuses limits that cannot work when it opens', async () => {
    await expect(
      open({ feedbackTypes: conformanceFeedbackTypes(), limits: { titleBytes: -1 } }),
    ).rejects.toThrow(InvalidLimitsError);
  });
});
