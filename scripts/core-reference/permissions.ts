import { z } from 'zod';
import {
  Actor,
  applyChanges,
  Command,
  changesOf,
  createFeedbackTypeRegistry,
  type DecideContext,
  type Decision,
  decide,
  defineFeedbackType,
  type Envelope,
  emptyState,
  type Rejection,
  scopeOf,
  type WorkspaceState,
} from '../../src/core/index.js';

// Who may send what, found by asking `decide` itself: every command is decided, as each kind of
// actor, against one small workspace in which everything the command names exists. A refusal
// with `forbidden` means that actor may not send it; anything else but `recorded` means the
// workspace is wrong for the command, and the reference stops rather than guess.

const note = defineFeedbackType({
  name: 'note',
  targets: ['turn', 'message', 'artifact', 'thread'],
  configName: 'note',
  schema: z.object({}),
});
const context: DecideContext = {
  feedbackTypes: createFeedbackTypeRegistry([note]),
  evaluators: {
    targetsOf: (id) => (id === 'judge@1' ? ['turn', 'message', 'artifact'] : undefined),
    feedbackTypeOf: (id) => (id === 'judge@1' ? 'note' : undefined),
  },
  scoreConfigs: new Map([['note', { archived: false }]]),
};

export const columns: { heading: string; actor: Actor }[] = [
  { heading: 'user', actor: { kind: 'user', id: 'ada' } },
  { heading: 'agent of the thread', actor: { kind: 'agent', thread_id: 't1' } },
  { heading: 'agent of another thread', actor: { kind: 'agent', thread_id: 't2' } },
  { heading: 'reviewer', actor: { kind: 'reviewer', id: 'grace' } },
  { heading: 'system', actor: { kind: 'system', name: 'host' } },
  { heading: 'evaluator', actor: { kind: 'evaluator', name: 'judge', version: '1' } },
];

/** The workspace every command is decided against: thread t1 with run r1 running, and so on. */
function fixture(): WorkspaceState {
  let state = emptyState();
  let seq = 0;
  const agent: Actor = { kind: 'agent', thread_id: 't1' };
  const steps: [Actor, object][] = [
    [
      { kind: 'system', name: 'host' },
      { type: 'create_thread', thread_id: 't1' },
    ],
    [
      { kind: 'system', name: 'host' },
      { type: 'create_thread', thread_id: 't2' },
    ],
    [agent, { type: 'start_run', run_id: 'r1', thread_id: 't1' }],
    [
      agent,
      {
        type: 'post_message',
        thread_id: 't1',
        message_id: 'm1',
        role: 'assistant',
        content: 'Hello.',
        run_id: 'r1',
      },
    ],
    [agent, { type: 'put_artifact', artifact_id: 'a1', kind: 'report', run_id: 'r1' }],
  ];
  for (const [actor, command] of steps) {
    const decision = decide(state, actor, command, context);
    if (decision.type !== 'recorded')
      throw new Error(`the fixture is refused: ${decision.message}`);
    for (const event of decision.events) {
      seq += 1;
      const envelope: Envelope = {
        seq,
        id: `e${seq}`,
        ts: new Date(Date.UTC(2026, 0, 1, 0, 0, seq)).toISOString(),
        workspace_id: 'reference',
        ...scopeOf(event),
        actor,
        event,
      };
      state = applyChanges(state, changesOf(state, envelope));
    }
  }
  return state;
}

/** Each row: a command, in Markdown, in one or more forms (any recorded one allows the actor). */
export const rows: { label: string; forms: object[] }[] = [
  { label: '`create_thread`', forms: [{ type: 'create_thread', thread_id: 't3' }] },
  { label: '`end_thread`', forms: [{ type: 'end_thread', thread_id: 't1' }] },
  { label: '`start_run`', forms: [{ type: 'start_run', run_id: 'r2', thread_id: 't1' }] },
  { label: '`pause_run`', forms: [{ type: 'pause_run', run_id: 'r1' }] },
  { label: '`end_run`', forms: [{ type: 'end_run', run_id: 'r1', status: 'completed' }] },
  {
    label: '`post_message` (role `assistant`)',
    forms: [
      {
        type: 'post_message',
        thread_id: 't1',
        message_id: 'm2',
        role: 'assistant',
        content: 'Done.',
        run_id: 'r1',
      },
    ],
  },
  {
    label: '`post_message` (role `user`, `system` or `tool`)',
    forms: [
      { type: 'post_message', thread_id: 't1', message_id: 'm2', role: 'user', content: 'Thanks.' },
    ],
  },
  {
    label: '`put_artifact`',
    forms: [{ type: 'put_artifact', artifact_id: 'a1', kind: 'report', run_id: 'r1' }],
  },
  { label: '`archive_artifact`', forms: [{ type: 'archive_artifact', artifact_id: 'a1' }] },
  {
    label: '`give_feedback`',
    forms: [
      { type: 'give_feedback', feedback_type: 'note', target: { kind: 'turn', run_id: 'r1' } },
    ],
  },
  {
    label: '`withdraw_feedback`',
    forms: [
      { type: 'withdraw_feedback', feedback_type: 'note', target: { kind: 'turn', run_id: 'r1' } },
    ],
  },
  {
    label: '`rate_message`',
    forms: [{ type: 'rate_message', thread_id: 't1', message_id: 'm1', feedback_type: 'note' }],
  },
  {
    label: '`delete_rating`',
    forms: [{ type: 'delete_rating', thread_id: 't1', message_id: 'm1', feedback_type: 'note' }],
  },
  {
    label: '`set_evaluation_rule`',
    forms: [{ type: 'set_evaluation_rule', evaluator: 'judge@1', targets: ['turn'] }],
  },
  {
    label: '`promote_evaluator`',
    forms: [
      {
        type: 'promote_evaluator',
        evaluator: 'judge@1',
        rule: { targets: ['turn'] },
        min_kappa: 0.6,
        min_matched: 1,
        evidence: {
          compared: 'judge@1:ok',
          against: 'reviewers',
          matched: 1,
          kappa: 1,
          interval: null,
          raw_agreement: 1,
          as_of_seq: 1,
        },
      },
    ],
  },
  {
    label: '`set_review_queue`',
    forms: [
      { type: 'set_review_queue', queue_id: 'q1', feedback_type: 'note', target_kinds: ['turn'] },
    ],
  },
  {
    label: '`record_judge_version`',
    forms: [
      {
        type: 'record_judge_version',
        judge_version: {
          judge: 'judge',
          version: 'tuned-1',
          rubric: 'Is the answer right?',
          model: 'gpt-test',
          feedbackType: 'note',
          examples: [],
          tunedFrom: '1',
          heldOut: [],
        },
      },
    ],
  },
  {
    label: '`record_score`',
    forms: [
      {
        type: 'record_score',
        trace_id: 'ab'.repeat(16),
        name: 'accuracy',
        value: 1,
        source: 'HARNESS',
      },
      {
        type: 'record_score',
        trace_id: 'ab'.repeat(16),
        name: 'note',
        value: 1,
        source: 'HUMAN',
        config_id: 'note',
      },
    ],
  },
];

export interface Permission {
  label: string;
  /** Per column: null when allowed, else the forbidden rejection's message. */
  refusals: (string | null)[];
}

export function permissions(): Permission[] {
  // A command or an actor kind added to the core must get its row or column here first.
  const covered = new Set(
    rows.flatMap(({ forms }) => forms.map((form) => (form as { type: string }).type)),
  );
  const uncovered = Command.options
    .map((c) => c.shape.type.value)
    .filter((type) => !covered.has(type));
  const kinds = new Set(columns.map(({ actor }) => actor.kind));
  const missing = Actor.options.map((a) => a.shape.kind.value).filter((kind) => !kinds.has(kind));
  if (uncovered.length > 0 || missing.length > 0) {
    throw new Error(`who may send what lacks ${[...uncovered, ...missing].join(', ')}`);
  }
  const state = fixture();
  return rows.map(({ label, forms }) => ({
    label,
    refusals: columns.map(({ actor }) => {
      const decisions: Decision[] = forms.map((form) => decide(state, actor, form, context));
      if (decisions.some((decision) => decision.type === 'recorded')) return null;
      const wrong = decisions.find((decision) => decision.type !== 'forbidden');
      if (wrong !== undefined) {
        throw new Error(
          `${label} as ${actor.kind} is refused for another reason: ${(wrong as Rejection).message}`,
        );
      }
      return (decisions[0] as Rejection).message;
    }),
  }));
}

/** One real rejection of each type, decided against the same workspace. */
export function rejectionExamples(): Rejection[] {
  const state = fixture();
  const agent: Actor = { kind: 'agent', thread_id: 't1' };
  // In the order of `rejectionTypes`: not_found, invalid_state, validation_failed, forbidden, conflict.
  const examples: [Actor, object][] = [
    [
      { kind: 'system', name: 'host' },
      { type: 'start_run', run_id: 'r9', thread_id: 't9' },
    ],
    [agent, { type: 'start_run', run_id: 'r1', thread_id: 't1' }],
    [agent, { type: 'create_thread', thread_id: '' }],
    [
      { kind: 'user', id: 'ada' },
      { type: 'end_run', run_id: 'r1', status: 'completed' },
    ],
    [agent, { type: 'create_thread', thread_id: 't1' }],
  ];
  return examples.map(([actor, command]) => {
    const decision = decide(state, actor, command, context);
    if (decision.type === 'recorded') throw new Error(`${JSON.stringify(command)} was recorded`);
    return decision;
  });
}
