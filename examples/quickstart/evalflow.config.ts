// The app's one definition: what people and evaluators record, which evaluator versions judge
// new runs, and the score configs reviewers' feedback needs. `evalflow start` loads this file.
import {
  answerLengthEvaluator,
  defineConfig,
  defineEvaluator,
  defineFeedbackType,
  jsonValidityEvaluator,
} from 'evalflow';
import { z } from 'zod';

/** End users rate assistant messages. */
export const helpfulness = defineFeedbackType({
  name: 'helpfulness',
  targets: ['message'],
  schema: z.object({ helpful: z.boolean(), stars: z.int().min(1).max(5) }),
});

/** Reviewers judge whole runs; HUMAN feedback is validated against its score config. */
export const reviewVerdict = defineFeedbackType({
  name: 'review_verdict',
  targets: ['turn'],
  source: 'HUMAN',
  configName: 'review_verdict',
  schema: z.object({ verdict: z.enum(['pass', 'fail']), note: z.string().default('') }),
});

/** A custom evaluator: does the assistant say thank you? */
export const politeness = defineEvaluator({
  name: 'politeness',
  version: '1',
  feedbackType: defineFeedbackType({
    name: 'politeness',
    targets: ['message'],
    schema: z.object({ polite: z.boolean() }),
  }),
  targets: ['message'],
  source: 'JUDGE',
  evaluate: (subject) => ({
    polite: subject.kind === 'message' && /thank|please/i.test(subject.message.content),
  }),
});

/**
 * An evaluator of whole runs, as reviewers judge them: is the assistant courteous? Two versions
 * to roll from one to the other: @2 also hears an apology or a glad offer of help.
 */
const courtesyFeedback = defineFeedbackType({
  name: 'courtesy',
  targets: ['turn'],
  schema: z.object({ courteous: z.boolean() }),
});
const courtesy = (version: string, courteous: RegExp) =>
  defineEvaluator({
    name: 'courtesy',
    version,
    feedbackType: courtesyFeedback,
    targets: ['turn'],
    source: 'JUDGE',
    evaluate: (subject) => ({
      courteous:
        subject.kind === 'turn' &&
        subject.messages.some((m) => m.role === 'assistant' && courteous.test(m.content)),
    }),
  });

/**
 * An evaluator of whole conversations: was the customer's question answered? A thread is
 * judged once it has been quiet for its rule's idleFor, at once when the host ends it, and again
 * each time it resumes; its conversation arrives a page at a time, so a long one is never whole.
 */
export const resolution = defineEvaluator({
  name: 'resolution',
  version: '1',
  feedbackType: defineFeedbackType({
    name: 'resolution',
    targets: ['thread'],
    schema: z.object({ answered: z.boolean(), messages: z.int() }),
  }),
  targets: ['thread'],
  source: 'JUDGE',
  async evaluate(subject) {
    let messages = 0;
    let last = '';
    if (subject.kind === 'thread') {
      for await (const page of subject.pages()) {
        for (const entry of page) {
          if (entry.kind !== 'message') continue;
          messages += 1;
          last = entry.message.role;
        }
      }
    }
    return { answered: last === 'assistant', messages };
  },
});

export default defineConfig({
  feedbackTypes: [helpfulness, reviewVerdict],
  // Every version still needed: answer_length@2 and both courtesy versions are deployed, but no
  // rule makes them judge new runs yet (README's rollout sets their rules), and json_validity@1
  // judges only what a re-evaluation hands it (artifact versions, say).
  evaluators: [
    politeness,
    resolution,
    courtesy('1', /thank|please/i),
    courtesy('2', /thank|please|sorry|glad|happy to help/i),
    answerLengthEvaluator(),
    answerLengthEvaluator({ version: '2', maxCharacters: 80 }),
    jsonValidityEvaluator(),
  ],
  scoreConfigs: { review_verdict: { source: 'HUMAN' } },
  rules: [
    { evaluator: 'politeness@1' },
    { evaluator: 'answer_length@1', targets: ['message'] },
    // A conversation quiet for 30 minutes (no run open, no message) is judged.
    { evaluator: 'resolution@1', idleFor: '30m' },
  ],
  // What reviewers work through: a tenth of completed runs (sampled by run), one reviewer each.
  reviewQueues: [
    {
      queueId: 'runs',
      feedbackType: reviewVerdict,
      instructions: 'Read the whole run. **Fail** it if the answer is wrong, unkind or unsafe.',
      routing: [{ kind: 'completed_runs', sampleRate: 0.1 }],
    },
  ],
});
