import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createFeedbackTypeRegistry,
  defineFeedbackType,
  type FeedbackType,
  isReviewersType,
  queuesInForce,
  type ReviewQueue,
  type ReviewQueueContext,
  ReviewQueueSchema,
  reviewQueueProblem,
} from '../../src/core/index.js';

// The rules a review queue is checked by, each branch on its own: which types reviewers give,
// the kinds a queue takes, and every routing rule against the deployed evaluator versions.

const schema = z.object({ pass: z.boolean() });
/** A reviewers' type given on every kind, so a queue may take any of them. */
const review = defineFeedbackType({
  name: 'review',
  targets: ['turn', 'message', 'thread', 'artifact'],
  source: 'HUMAN',
  configName: 'review',
  schema,
});
/** A reviewers' type given on two kinds only. */
const panel = defineFeedbackType({
  name: 'panel',
  targets: ['turn', 'message'],
  source: 'HUMAN',
  configName: 'panel',
  schema,
});
const stars = defineFeedbackType({
  name: 'stars',
  targets: ['turn', 'message'],
  schema: z.object({ stars: z.int(), helpful: z.boolean() }),
});
const tone = defineFeedbackType({
  name: 'tone',
  targets: ['turn', 'message'],
  schema: z.object({ polite: z.boolean(), confidence: z.number() }),
});
const mood = defineFeedbackType({
  name: 'mood',
  targets: ['turn'],
  schema: z.object({ calm: z.boolean() }),
});
const feedbackTypes = createFeedbackTypeRegistry([review, panel, stars, tone, mood]);

// The deployed versions: what each judges, and the feedback type its verdicts are of.
const deployed: Record<
  string,
  { kinds: ('turn' | 'message' | 'thread' | 'artifact')[]; type?: string }
> = {
  'tone@1': { kinds: ['turn', 'message'], type: 'tone' },
  'tone@2': { kinds: ['turn', 'message'], type: 'tone' },
  'doc@1': { kinds: ['artifact', 'thread'], type: 'tone' },
  'mood@1': { kinds: ['turn'], type: 'mood' },
  // A version whose feedback type the catalog does not say.
  'bare@1': { kinds: ['turn'] },
  // A version whose feedback type is not registered in the app.
  'ghost@1': { kinds: ['turn'], type: 'unregistered' },
};
const targetsOf = (id: string) => deployed[id]?.kinds;
const context: ReviewQueueContext = {
  feedbackTypes,
  evaluators: { targetsOf, feedbackTypeOf: (id) => deployed[id]?.type },
};
/** An app that deploys no evaluator versions at all. */
const withoutCatalog: ReviewQueueContext = { feedbackTypes };
/** A catalog that knows what each version judges, but not its feedback type. */
const withoutTypes: ReviewQueueContext = { feedbackTypes, evaluators: { targetsOf } };

const queue = (settings: object = {}): ReviewQueue =>
  ReviewQueueSchema.parse({
    queue_id: 'triage',
    feedback_type: 'review',
    target_kinds: ['turn'],
    ...settings,
  });
const routed = (
  rules: object[],
  settings: object = {},
  checkedWith: ReviewQueueContext = context,
) => reviewQueueProblem(queue({ routing: rules, ...settings }), checkedWith);
const refused = (message: string) => ({ type: 'validation_failed', message, errors: [] });
const missing = (entity: string, id: string, index = 0) => ({
  type: 'not_found',
  entity,
  id,
  message: `routing[${index}]: ${entity} ${id} does not exist`,
});

describe('the queues in force', () => {
  const stored = (queue_id: string) => ({
    ...queue({ queue_id }),
    set_by: 'x',
    set_at: 't',
    seq: 1,
  });

  it('are sorted by queue id, not in the order the defaults and the workspace give them', () => {
    const defaults = [queue({ queue_id: 'c' }), queue({ queue_id: 'a' }), queue({ queue_id: 'e' })];
    const own = [stored('d'), stored('b'), stored('a')];
    const inForce = queuesInForce(defaults, own);
    expect(inForce.map((q) => q.queue_id)).toEqual(['a', 'b', 'c', 'd', 'e']);
    // The workspace's `a` replaced the default one, in the default's place in the order.
    expect(inForce.map((q) => 'set_by' in q)).toEqual([true, true, false, true, false]);
  });

  it('are sorted whether given in reverse, already sorted, or from the workspace alone', () => {
    const ids = ['q1', 'q2', 'q3', 'q4', 'q5', 'q6'];
    const sorted = (defaults: string[], own: string[] = []) =>
      queuesInForce(
        defaults.map((queue_id) => queue({ queue_id })),
        own.map(stored),
      ).map((q) => q.queue_id);
    expect(sorted([...ids].reverse())).toEqual(ids);
    expect(sorted(ids)).toEqual(ids);
    expect(sorted([], ['q4', 'q1', 'q6', 'q2', 'q5', 'q3'])).toEqual(ids);
    expect(sorted(['b', 'a'])).toEqual(['a', 'b']);
    // By the ids' characters, not their numbers or their lengths.
    expect(sorted(['q10', 'q9', 'Q2', 'q1'])).toEqual(['Q2', 'q1', 'q10', 'q9']);
    expect(sorted([])).toEqual([]);
  });
});

describe('whether reviewers give a feedback type', () => {
  const withConfig = (source?: 'USER' | 'HUMAN' | 'JUDGE' | 'HARNESS' | 'EVAL') =>
    defineFeedbackType({
      name: 'graded',
      targets: ['turn'],
      schema,
      configName: 'graded',
      ...(source === undefined ? {} : { source }),
    });

  it('is so for HUMAN feedback with its score config', () => {
    expect(isReviewersType(withConfig('HUMAN'))).toBe(true);
  });

  it('is so for feedback with a score config and no source of its own', () => {
    expect(withConfig().source).toBeNull();
    expect(isReviewersType(withConfig())).toBe(true);
  });

  it('is not so for feedback of any other source, even with a score config', () => {
    for (const source of ['USER', 'JUDGE', 'HARNESS', 'EVAL'] as const) {
      expect(isReviewersType(withConfig(source)), source).toBe(false);
    }
  });

  it('is not so without a score config, whatever the source', () => {
    expect(isReviewersType(stars)).toBe(false);
    // defineFeedbackType refuses HUMAN without a config, but a type can still be written whole.
    const unconfigured: FeedbackType = { ...withConfig('HUMAN'), configName: null };
    expect(isReviewersType(unconfigured)).toBe(false);
  });

  it('decides which types a queue may name', () => {
    const types = createFeedbackTypeRegistry([withConfig(), stars]);
    expect(
      reviewQueueProblem(queue({ feedback_type: 'graded' }), { feedbackTypes: types }),
    ).toBeNull();
    const judged = createFeedbackTypeRegistry([withConfig('JUDGE')]);
    expect(
      reviewQueueProblem(queue({ feedback_type: 'graded' }), { feedbackTypes: judged }),
    ).toEqual(
      refused(
        "graded feedback is not given by reviewers: a review queue's type is HUMAN, with a score config (configName)",
      ),
    );
  });
});

describe('a review queue’s feedback type and kinds', () => {
  it('is refused by the type’s name when the type is not registered', () => {
    expect(reviewQueueProblem(queue({ feedback_type: 'nope' }), context)).toEqual({
      type: 'not_found',
      entity: 'feedback type',
      id: 'nope',
      message: 'feedback type nope does not exist',
    });
  });

  it('lists every kind the type is given on and every kind it is not, in their orders', () => {
    expect(
      reviewQueueProblem(
        queue({ feedback_type: 'panel', target_kinds: ['thread', 'turn', 'artifact'] }),
        context,
      ),
    ).toEqual(refused('panel feedback is given on message, turn, not on thread, artifact'));
    expect(
      reviewQueueProblem(
        queue({ feedback_type: 'panel', target_kinds: ['message', 'turn'] }),
        context,
      ),
    ).toBeNull();
  });
});

describe('a completed_runs rule', () => {
  it('puts turns in the queue, so the queue must take turns', () => {
    expect(routed([{ kind: 'completed_runs', sample_rate: 0.5 }])).toBeNull();
    expect(
      routed([{ kind: 'completed_runs', sample_rate: 0.5 }], {
        target_kinds: ['thread', 'artifact'],
      }),
    ).toEqual(
      refused(
        'routing[0]: completed_runs puts turn targets in the queue, which takes only thread, artifact',
      ),
    );
  });

  it('needs no evaluator catalog', () => {
    expect(routed([{ kind: 'completed_runs', sample_rate: 1 }], {}, withoutCatalog)).toBeNull();
  });
});

describe('a rating_at_most rule', () => {
  const rating = (feedback_type: string, field: string) => ({
    kind: 'rating_at_most',
    feedback_type,
    field,
    at_most: 2,
  });

  it('is refused by the type’s name when its feedback type is not registered', () => {
    expect(routed([rating('nope', 'stars')])).toEqual(missing('feedback type', 'nope'));
  });

  it('names a field of its type, once its type is given on a kind the queue takes', () => {
    expect(routed([rating('stars', 'stars')])).toBeNull();
    expect(routed([rating('stars', 'helpful')], {}, withoutCatalog)).toBeNull();
    expect(routed([rating('stars', 'rude')])).toEqual(
      refused("routing[0]: stars's feedback type stars has no field rude"),
    );
  });

  it('puts its type’s kinds in the queue, refused before its field is looked at', () => {
    const elsewhere = { target_kinds: ['thread', 'artifact'] };
    const message =
      'routing[0]: rating stars puts message, turn targets in the queue, which takes only thread, artifact';
    expect(routed([rating('stars', 'stars')], elsewhere)).toEqual(refused(message));
    expect(routed([rating('stars', 'rude')], elsewhere)).toEqual(refused(message));
  });

  it('is taken when the queue takes any one of its type’s kinds', () => {
    expect(
      routed([rating('stars', 'stars')], { target_kinds: ['artifact', 'message'] }),
    ).toBeNull();
  });
});

describe.each([
  ['verdict_equals', { equals: true }],
  ['verdict_at_most', { at_most: 0 }],
  ['confidence_below', { below: 0.5 }],
])('a %s rule', (kind, settings) => {
  const on = (evaluator: string, field: string) => ({ kind, evaluator, field, ...settings });

  it('names a deployed evaluator version, refused by its id', () => {
    expect(routed([on('judge@1', 'polite')])).toEqual(missing('evaluator', 'judge@1'));
  });

  it('is refused by the version’s id when the app deploys no evaluator versions', () => {
    expect(routed([on('tone@1', 'polite')], {}, withoutCatalog)).toEqual(
      missing('evaluator', 'tone@1'),
    );
  });

  it('names a field of the version’s feedback type, once the queue takes what it judges', () => {
    expect(routed([on('tone@1', 'polite')])).toBeNull();
    expect(routed([on('tone@1', 'rude')])).toEqual(
      refused("routing[0]: tone@1's feedback type tone has no field rude"),
    );
    expect(routed([on('mood@1', 'calm')])).toBeNull();
    expect(routed([on('mood@1', 'polite')])).toEqual(
      refused("routing[0]: mood@1's feedback type mood has no field polite"),
    );
  });

  it('puts what the version judges in the queue, refused before its field is looked at', () => {
    const message =
      'routing[0]: doc@1 puts artifact, thread targets in the queue, which takes only turn, message';
    const settingsOfQueue = { target_kinds: ['turn', 'message'] };
    expect(routed([on('doc@1', 'polite')], settingsOfQueue)).toEqual(refused(message));
    expect(routed([on('doc@1', 'rude')], settingsOfQueue)).toEqual(refused(message));
    expect(routed([on('doc@1', 'rude')], { target_kinds: ['thread'] })).toEqual(
      refused("routing[0]: doc@1's feedback type tone has no field rude"),
    );
  });

  it('names any field when the version’s feedback type is unknown, but still its kinds', () => {
    expect(routed([on('bare@1', 'anything')])).toBeNull();
    expect(routed([on('ghost@1', 'anything')])).toBeNull();
    expect(routed([on('tone@1', 'rude')], {}, withoutTypes)).toBeNull();
    expect(routed([on('doc@1', 'rude')], {}, withoutTypes)).toEqual(
      refused(
        'routing[0]: doc@1 puts artifact, thread targets in the queue, which takes only turn',
      ),
    );
  });
});

describe('a disagreement rule', () => {
  const between = (evaluators: string[], field = 'polite') => ({
    kind: 'disagreement',
    evaluators,
    field,
  });

  it('names two deployed versions whose feedback type has its field', () => {
    expect(routed([between(['tone@1', 'tone@2'])])).toBeNull();
    expect(routed([between(['tone@2', 'tone@1'], 'confidence')])).toBeNull();
  });

  it('is refused by the first version that is not deployed, either one', () => {
    expect(routed([between(['judge@1', 'tone@1'])])).toEqual(missing('evaluator', 'judge@1'));
    expect(routed([between(['tone@1', 'judge@2'])])).toEqual(missing('evaluator', 'judge@2'));
    expect(routed([between(['judge@1', 'judge@2'])])).toEqual(missing('evaluator', 'judge@1'));
  });

  it('is refused by the first version when the app deploys no evaluator versions', () => {
    expect(routed([between(['tone@1', 'tone@2'])], {}, withoutCatalog)).toEqual(
      missing('evaluator', 'tone@1'),
    );
  });

  it('checks the second version’s kinds and field once the first passes', () => {
    expect(routed([between(['tone@1', 'doc@1'])])).toEqual(
      refused(
        'routing[0]: doc@1 puts artifact, thread targets in the queue, which takes only turn',
      ),
    );
    expect(routed([between(['tone@1', 'mood@1'])])).toEqual(
      refused("routing[0]: mood@1's feedback type mood has no field polite"),
    );
  });

  it('reports the first version’s problem before the second’s', () => {
    expect(routed([between(['doc@1', 'mood@1'])])).toEqual(
      refused(
        'routing[0]: doc@1 puts artifact, thread targets in the queue, which takes only turn',
      ),
    );
    expect(routed([between(['mood@1', 'doc@1'])])).toEqual(
      refused("routing[0]: mood@1's feedback type mood has no field polite"),
    );
    expect(routed([between(['mood@1', 'judge@1'])])).toEqual(
      refused("routing[0]: mood@1's feedback type mood has no field polite"),
    );
  });

  it('checks each version’s kinds before its field', () => {
    expect(routed([between(['tone@1', 'doc@1'], 'rude')], { target_kinds: ['thread'] })).toEqual(
      refused(
        'routing[0]: tone@1 puts turn, message targets in the queue, which takes only thread',
      ),
    );
    expect(routed([between(['doc@1', 'tone@1'], 'rude')], { target_kinds: ['thread'] })).toEqual(
      refused("routing[0]: doc@1's feedback type tone has no field rude"),
    );
  });

  it('names any field of versions whose feedback type is unknown', () => {
    expect(routed([between(['bare@1', 'ghost@1'], 'anything')])).toBeNull();
    expect(routed([between(['tone@1', 'tone@2'], 'rude')], {}, withoutTypes)).toBeNull();
    expect(routed([between(['tone@1', 'doc@1'], 'rude')], {}, withoutTypes)).toEqual(
      refused(
        'routing[0]: doc@1 puts artifact, thread targets in the queue, which takes only turn',
      ),
    );
  });

  it('names two versions, not one twice', () => {
    expect(routed([between(['tone@1', 'tone@1'])])).toEqual(
      refused('routing[0]: disagreement names tone@1 twice: name two versions'),
    );
  });
});

describe('a queue’s routing rules', () => {
  it('are refused by the first that has a problem, named by its index', () => {
    const fine = { kind: 'completed_runs', sample_rate: 0.1 };
    const rude = { kind: 'verdict_equals', evaluator: 'tone@1', field: 'rude', equals: true };
    const absent = { kind: 'verdict_equals', evaluator: 'judge@1', field: 'pass', equals: true };
    expect(routed([fine, fine, rude, absent])).toEqual(
      refused("routing[2]: tone@1's feedback type tone has no field rude"),
    );
    expect(routed([fine, absent, rude])).toEqual(missing('evaluator', 'judge@1', 1));
    expect(routed([fine, fine])).toBeNull();
  });
});
