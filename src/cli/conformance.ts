import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import {
  Actor,
  type CommandInput,
  createFeedbackTypeRegistry,
  defineFeedbackType,
  type FeedbackTypeRegistry,
  type ScoreConfigStatus,
  systemActor,
  Target,
} from '../core/index.js';
import {
  type Outcome,
  openSqliteStore,
  type ScoreConfigDirectory,
  type Store,
} from '../store/index.js';

// `evalflow conformance FILE...`: the core's rules as data. Each case builds its `given` through
// commands as the system, runs its command as its actor, and checks the expectation as a subset.

/** The feedback types every case file is written against. */
export function conformanceFeedbackTypes(): FeedbackTypeRegistry {
  return createFeedbackTypeRegistry([
    defineFeedbackType({
      name: 'helpfulness',
      targets: ['turn', 'thread', 'message'],
      schema: z.object({
        rating: z.int().min(1).max(5),
        reason: z.string().nullable().default(null),
      }),
    }),
    defineFeedbackType({
      name: 'accuracy',
      targets: ['artifact'],
      schema: z.object({
        correct: z.boolean(),
        verdict: z.enum(['right', 'wrong']).default('right'),
        tone: z.enum(['formal', 'casual']).default('formal'),
        confidence: z.number().min(0).max(1).default(1.0),
      }),
    }),
    // A reviewers' type, for the HUMAN source rules: its config is named by `given.score_configs`.
    defineFeedbackType({
      name: 'review',
      targets: ['artifact', 'turn', 'message'],
      source: 'HUMAN',
      configName: 'review',
      schema: z.object({ approved: z.boolean(), note: z.string().nullable().default(null) }),
    }),
    // A second reviewers' type: a reviewer's feedback is their own per type and target.
    defineFeedbackType({
      name: 'escalation',
      targets: ['thread', 'turn'],
      source: 'HUMAN',
      configName: 'escalation',
      schema: z.object({ needed: z.boolean() }),
    }),
  ]);
}

const Given = z.object({
  threads: z.array(z.looseObject({ id: z.string(), title: z.string().optional() })).default([]),
  runs: z
    .array(
      z.looseObject({
        id: z.string(),
        thread_id: z.string(),
        status: z.enum(['running', 'paused', 'completed', 'stopped', 'failed']).default('running'),
      }),
    )
    .default([]),
  artifacts: z
    .array(
      z.looseObject({
        id: z.string(),
        kind: z.string(),
        version: z.int().min(1).default(1),
        data: z.json().optional(),
        archived: z.boolean().default(false),
        /** Put by this thread's agent, which makes it the thread's; by the system when absent. */
        thread_id: z.string().optional(),
      }),
    )
    .default([]),
  messages: z
    .array(
      z.looseObject({
        id: z.string(),
        thread_id: z.string(),
        run_id: z.string().nullable().optional(),
        role: z.enum(['user', 'assistant', 'system', 'tool']),
      }),
    )
    .default([]),
  /**
   * evalflow's additions: earlier ratings by users, earlier feedback by any actor (given, then
   * withdrawn when `withdrawn`), and the provider's score configs.
   */
  ratings: z
    .array(
      z.object({
        rater: z.string(),
        thread_id: z.string(),
        message_id: z.string(),
        feedback_type: z.string(),
        value: z.record(z.string(), z.unknown()),
      }),
    )
    .default([]),
  feedback: z
    .array(
      z.object({
        actor: Actor,
        feedback_type: z.string(),
        target: Target,
        value: z.record(z.string(), z.unknown()).default({}),
        withdrawn: z.boolean().default(false),
      }),
    )
    .default([]),
  score_configs: z
    .array(z.object({ name: z.string(), archived: z.boolean().default(false) }))
    .default([]),
});
export type Given = z.output<typeof Given>;

const Expect = z.union([
  z.strictObject({ rejection: z.record(z.string(), z.unknown()) }),
  z.strictObject({
    outcome: z.record(z.string(), z.unknown()),
    /** The appended events' bodies, and (evalflow's addition) their whole envelopes. */
    events: z.array(z.unknown()).optional(),
    envelopes: z.array(z.unknown()).optional(),
  }),
]);

export const ConformanceCase = z.object({
  name: z.string(),
  actor: z.unknown(),
  given: Given.default(Given.parse({})),
  command: z.unknown(),
  expect: Expect,
});
export type ConformanceCase = z.output<typeof ConformanceCase>;

export const CaseFile = z.object({
  description: z.string(),
  cases: z.array(ConformanceCase).min(1),
});

/** The commands, as the system (or the rater, agent or giver), that build a case's `given`. */
export function givenCommands(given: Given): { actor: Actor; command: CommandInput }[] {
  const steps: { actor: Actor; command: CommandInput }[] = [];
  const system = (command: CommandInput) => steps.push({ actor: systemActor, command });
  const threads = new Set<string>();
  const thread = (thread_id: string, title?: string) => {
    if (threads.has(thread_id)) return;
    threads.add(thread_id);
    system({ type: 'create_thread', thread_id, title });
  };
  for (const t of given.threads) thread(t.id, t.title);
  for (const run of given.runs) {
    thread(run.thread_id);
    system({
      type: 'start_run',
      run_id: run.id,
      thread_id: run.thread_id,
      trace_id: `trace-${run.id}`,
    });
    if (run.status === 'paused') system({ type: 'pause_run', run_id: run.id });
    if (run.status !== 'running' && run.status !== 'paused') {
      system({ type: 'end_run', run_id: run.id, status: run.status });
    }
  }
  for (const artifact of given.artifacts) {
    const owner = artifact.thread_id;
    if (owner !== undefined) thread(owner);
    for (let version = 1; version <= artifact.version; version++) {
      steps.push({
        actor: owner === undefined ? systemActor : { kind: 'agent', thread_id: owner },
        command: {
          type: 'put_artifact',
          artifact_id: artifact.id,
          kind: artifact.kind,
          data: artifact.data ?? null,
          trace_id: `trace-${artifact.id}-v${version}`,
        },
      });
    }
    if (artifact.archived) system({ type: 'archive_artifact', artifact_id: artifact.id });
  }
  for (const message of given.messages) {
    thread(message.thread_id);
    system({
      type: 'post_message',
      thread_id: message.thread_id,
      message_id: message.id,
      run_id: message.run_id ?? null,
      role: message.role,
      content: '',
    });
  }
  for (const rating of given.ratings) {
    const { rater, thread_id, message_id, feedback_type, value } = rating;
    steps.push({
      actor: { kind: 'user', id: rater },
      command: { type: 'rate_message', thread_id, message_id, feedback_type, value },
    });
  }
  for (const { actor, feedback_type, target, value, withdrawn } of given.feedback) {
    steps.push({ actor, command: { type: 'give_feedback', feedback_type, target, value } });
    if (withdrawn) {
      steps.push({ actor, command: { type: 'withdraw_feedback', feedback_type, target } });
    }
  }
  return steps;
}

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
export function expectationMismatches(
  expect: ConformanceCase['expect'],
  outcome: Outcome,
): string[] {
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

export interface CaseRunner {
  /** Runs one case in its own workspace; returns its mismatches. */
  run(testCase: ConformanceCase, workspace_id: string): Promise<string[]>;
  close(): Promise<void>;
}

type OpenCaseStore = (options: {
  feedbackTypes: FeedbackTypeRegistry;
  scoreConfigs: ScoreConfigDirectory;
}) => Store | Promise<Store>;

/**
 * Runs cases on one store, each in its own workspace; the score configs are those of the case
 * running, so cases run one at a time.
 */
export function caseRunner(open: OpenCaseStore): CaseRunner {
  let configs = new Map<string, ScoreConfigStatus>();
  const opened = Promise.resolve(
    open({
      feedbackTypes: conformanceFeedbackTypes(),
      scoreConfigs: { statusOf: async () => configs },
    }),
  );
  return {
    async run(testCase, workspace_id) {
      const store = await opened;
      configs = new Map(
        testCase.given.score_configs.map((c) => [c.name, { archived: c.archived }]),
      );
      for (const step of givenCommands(testCase.given)) {
        const built = await store.execute({ workspace_id, ...step });
        if (built.type !== 'recorded') {
          return [`given: ${JSON.stringify(step.command)} was refused: ${built.message}`];
        }
      }
      const outcome = await store.execute({
        workspace_id,
        actor: testCase.actor,
        command: testCase.command,
      });
      return expectationMismatches(testCase.expect, outcome);
    },
    close: async () => (await opened).close(),
  };
}

export async function runConformance(
  files: string[],
  write: (line: string) => void,
): Promise<number> {
  const runner = caseRunner((options) => openSqliteStore(':memory:', options));
  let failed = 0;
  let passed = 0;
  try {
    for (const file of files) {
      let cases: ConformanceCase[];
      try {
        cases = CaseFile.parse(JSON.parse(await readFile(file, 'utf8'))).cases;
      } catch (error) {
        failed += 1;
        write(
          `FAIL ${file}: not a case file: ${error instanceof Error ? error.message : String(error)}`,
        );
        continue;
      }
      for (const [index, testCase] of cases.entries()) {
        const mismatches = await runner.run(testCase, `${file}#${index}`);
        if (mismatches.length === 0) {
          passed += 1;
          write(`ok   ${file} › ${testCase.name}`);
        } else {
          failed += 1;
          write(`FAIL ${file} › ${testCase.name}: ${mismatches.join('; ')}`);
        }
      }
    }
    write(`${passed} passed, ${failed} failed`);
  } finally {
    await runner.close();
  }
  return failed;
}
