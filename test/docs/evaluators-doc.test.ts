import { rmSync } from 'node:fs';
import { afterAll, expect, it } from 'vitest';
import { evaluatedKinds } from '../../src/core/index.js';
import type { Evaluator, Subject } from '../../src/evaluators/index.js';
import { writeModule } from './doc-blocks.js';

// docs/evaluators.md shows, for each target kind, the subject an evaluator receives and an
// evaluator of that kind: its blocks, as one module, give one evaluator per kind, and each
// judges a subject of its kind into a value its feedback type accepts.

const { file } = writeModule('docs/evaluators.md', '');
afterAll(() => rmSync(file, { force: true }));

const message = {
  message_id: 'm1',
  thread_id: 't1',
  run_id: 'r1',
  role: 'assistant' as const,
  content: 'Anything else?',
};
const subjects: Record<Subject['kind'], Subject> = {
  message: { kind: 'message', message },
  turn: {
    kind: 'turn',
    run: { run_id: 'r1', thread_id: 't1', status: 'completed', trace_ids: [] },
    messages: [message],
    steps: [],
  },
  artifact: {
    kind: 'artifact',
    artifact: { artifact_id: 'invoice-1', kind: 'invoice', version: 1, data: { total: 42 } },
  },
  thread: {
    kind: 'thread',
    thread: { thread_id: 't1', title: null, created_at: '2026-01-01T00:00:00Z', ended_at: null },
    through_seq: 3,
    runs: [],
    async *pages() {
      yield [{ kind: 'message' as const, seq: 1, message: { ...message, role: 'user' as const } }];
    },
  },
};

it('shows an evaluator for each target kind, judging the subject the page describes', async () => {
  const examples = Object.values((await import(file)) as Record<string, Evaluator>);
  expect(examples.map((evaluator) => evaluator.targets).sort()).toEqual(
    evaluatedKinds.map((kind) => [kind]).sort(),
  );
  for (const evaluator of examples) {
    const kind = evaluator.targets[0] as Subject['kind'];
    const value = await evaluator.evaluate(subjects[kind], {
      participant: evaluator.participant,
      attempt: 1,
      signal: new AbortController().signal,
      reportUsage: async () => {},
    });
    expect(evaluator.feedbackType.schema.safeParse(value).success, evaluator.id).toBe(true);
  }
});
