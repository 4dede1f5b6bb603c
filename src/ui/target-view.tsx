import { useEffect, useState } from 'preact/hooks';
import type { Agreement, Conversation as ConversationReply } from '../client/index.js';
import { ColumnHeads } from './column-heads.js';
import type { EvaluatorsApi } from './evaluators-data.js';
import { Conversation, describeTarget, GivenFeedback } from './item-view.js';
import type { ItemView, WireTarget } from './queue-types.js';
import { RefusalAlert } from './refusal-alert.js';
import { type Refusal, refusalOf } from './refusals.js';
import { TitledSection } from './titled-section.js';

// A disagreement opened: the target as a reviewer's item view shows it (its thread's
// conversation with the target marked), each side's votes that made its verdict, and every
// current verdict and rating on it. Read from the conversation route, which reviewers may read;
// an artifact, which has no conversation, shows its votes alone.

export type Disagreement = Agreement['disagreements']['listed'][number];
type Thread = NonNullable<ItemView['thread']>;
type Feedback = NonNullable<ConversationReply['messages'][number]['feedback']>;

async function threadOf(api: EvaluatorsApi, target: WireTarget) {
  const threadId =
    target.kind === 'message' || target.kind === 'thread'
      ? target.threadId
      : target.kind === 'turn'
        ? (await api.run(target.runId)).run.threadId
        : null;
  if (threadId === null) return { thread: null, feedback: [] as Feedback };
  const conversation = await api.conversation(threadId);
  const marks = (message: ConversationReply['messages'][number]) =>
    target.kind === 'message'
      ? message.messageId === target.messageId
      : target.kind === 'turn'
        ? message.runId === target.runId
        : false;
  const thread: Thread = {
    threadId,
    title: null,
    messages: conversation.messages.map((message) => ({
      messageId: message.messageId,
      role: message.role,
      content: message.content,
      runId: message.runId,
      postedAt: message.postedAt,
      isTarget: marks(message),
    })),
  };
  const feedback = conversation.messages
    .filter(marks)
    .flatMap((message) => message.feedback ?? [])
    .filter((given) => target.kind !== 'message' || given.target.kind === 'message');
  return { thread, feedback };
}

export function TargetView(props: {
  api: EvaluatorsApi;
  disagreement: Disagreement;
  sides: { a: string; b: string };
  onClose(): void;
}) {
  const { api, disagreement } = props;
  const [read, setRead] = useState<{ thread: Thread | null; feedback: Feedback } | null>(null);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  useEffect(() => {
    threadOf(api, disagreement.target).then(setRead, (error: unknown) =>
      setRefusal(refusalOf(error)),
    );
  }, [api, disagreement]);
  return (
    <section class="target-view" aria-labelledby="target-view-title" data-testid="target-view">
      <header class="target-view-head">
        <h2 id="target-view-title">{describeTarget(disagreement.target)}</h2>
        <button type="button" onClick={props.onClose}>
          Back to the evaluators <kbd>Esc</kbd>
        </button>
      </header>
      <table class="votes">
        <ColumnHeads names={['Side', 'Verdict', 'Votes']} />
        <tbody>
          <tr>
            <td>{props.sides.a}</td>
            <td data-testid="verdict-a">{String(disagreement.a)}</td>
            <td>{disagreement.votesA.map((v) => `${v.participant}: ${v.value}`).join(' · ')}</td>
          </tr>
          <tr>
            <td>{props.sides.b}</td>
            <td data-testid="verdict-b">{String(disagreement.b)}</td>
            <td>{disagreement.votesB.map((v) => `${v.participant}: ${v.value}`).join(' · ')}</td>
          </tr>
        </tbody>
      </table>
      {refusal && <RefusalAlert>The target could not be read: {refusal.message}</RefusalAlert>}
      {read === null && refusal === null && <p role="status">Reading the target…</p>}
      {read?.thread && <Conversation thread={read.thread} target={disagreement.target} />}
      {read && read.feedback.length > 0 && (
        <TitledSection name="on-target" title="Every current verdict and rating on it">
          <ul class="feedback">
            {read.feedback.map((given) => (
              <GivenFeedback
                key={given.id}
                rater={given.rater}
                type={given.feedbackType}
                value={given.value}
              >
                {given.shadow && <span class="badge"> shadow</span>}
              </GivenFeedback>
            ))}
          </ul>
        </TitledSection>
      )}
    </section>
  );
}
