import type { ComponentChildren } from 'preact';
import { ColumnHeads } from './column-heads.js';
import { dataDiff } from './data-diff.js';
import { MarkdownView } from './markdown-view.js';
import type { ItemView, WireTarget } from './queue-types.js';
import { formatDuration, runDuration, timelineRows } from './timeline.js';
import { TitledSection } from './titled-section.js';

// What a reviewer reads about an item: the instructions, the thread's conversation with the
// target message marked, the run's timeline, an artifact version against the one before, the
// users' ratings, the evaluators' verdicts (when the queue shows them) and other reviews (when
// they may be seen). Everything here was written by agents and people: it is text, always.

export function ItemDetails({ view }: { view: ItemView }) {
  return (
    <div class="item-details">
      <TitledSection
        name="instructions"
        title="Instructions"
        none={view.queue.instructions.trim() === '' && 'This queue has no instructions.'}
      >
        <MarkdownView source={view.queue.instructions} />
      </TitledSection>
      <p class="target" data-testid="target">
        Reviewing {describeTarget(view.item.target)}
      </p>
      {view.thread && <Conversation thread={view.thread} target={view.item.target} />}
      {view.run && <Timeline run={view.run} />}
      {view.run && view.run.steps.length > 0 && <Steps run={view.run} />}
      {view.artifact && <Artifact artifact={view.artifact} />}
      <Ratings ratings={view.ratings} />
      {view.queue.showAutomatedVerdicts && <Verdicts verdicts={view.automatedVerdicts} />}
      <OtherReviews view={view} />
    </div>
  );
}

export function describeTarget(target: WireTarget): string {
  switch (target.kind) {
    case 'turn':
      return `the turn of run ${target.runId}`;
    case 'message':
      return `message ${target.messageId} in thread ${target.threadId}`;
    case 'artifact':
      return `artifact ${target.artifactId}, version ${target.version}`;
    case 'thread':
      return `thread ${target.threadId}`;
  }
}

/** A feedback value as `field: value` pairs, each value as text. */
export function formatValue(value: Record<string, unknown>): string {
  return Object.entries(value)
    .map(
      ([field, given]) => `${field}: ${typeof given === 'string' ? given : JSON.stringify(given)}`,
    )
    .join(' · ');
}

const ROLE_NAMES: Record<string, string> = {
  ROLE_USER: 'user',
  ROLE_ASSISTANT: 'assistant',
  ROLE_SYSTEM: 'system',
  ROLE_TOOL: 'tool',
};
const roleName = (role: string) => ROLE_NAMES[role] ?? role.replace(/^ROLE_/, '').toLowerCase();
const time = (at: string) => new Date(at).toLocaleString();

/**
 * Marks what is under review: a message by a badge of its own; a turn (a whole run) once, above
 * its run's first message, so no single message of the run reads as the one under review.
 */
export function Conversation({
  thread,
  target,
}: {
  thread: NonNullable<ItemView['thread']>;
  target: WireTarget;
}) {
  const wholeRun = target.kind === 'turn';
  return (
    <TitledSection
      name="conversation"
      title={
        <>
          Conversation{thread.title ? `: ${thread.title}` : ''}{' '}
          <span class="quiet">(thread {thread.threadId})</span>
        </>
      }
      none={thread.messages.length === 0 && 'No messages.'}
    >
      <ol class="messages">
        {thread.messages.map((message, i) => (
          <li
            key={message.messageId}
            class={`message role-${roleName(message.role)}${message.isTarget ? ' is-target' : ''}`}
            data-message-id={message.messageId}
            aria-current={message.isTarget ? 'true' : undefined}
          >
            {wholeRun && message.isTarget && !thread.messages[i - 1]?.isTarget && (
              <p class="run-under-review" data-testid="under-review">
                <strong class="badge">Under review: the whole turn</strong> (run {target.runId},
                every message marked)
              </p>
            )}
            <p class="message-meta">
              <span class="role">{roleName(message.role)}</span>
              {message.isTarget && !wholeRun && (
                <strong class="badge" data-testid="under-review">
                  under review
                </strong>
              )}
              <time dateTime={message.postedAt}>{time(message.postedAt)}</time>
            </p>
            <p class="content">{message.content}</p>
          </li>
        ))}
      </ol>
    </TitledSection>
  );
}

function Timeline({ run }: { run: NonNullable<ItemView['run']> }) {
  const total = runDuration(run.timeline);
  return (
    <TitledSection
      name="run"
      title={
        <>
          Run {run.runId}: {run.status}
          {total !== null ? `, ${formatDuration(total)}` : ''}
        </>
      }
    >
      <table class="timeline">
        <ColumnHeads names={['Event', 'At', 'After', 'Detail']} />
        <tbody>
          {timelineRows(run.timeline).map((row, i) => (
            <tr key={`${row.event}-${i}`}>
              <td>{row.event}</td>
              <td>
                <time dateTime={row.at}>{time(row.at)}</time>
              </td>
              <td>{row.sincePrevious === null ? '–' : formatDuration(row.sincePrevious)}</td>
              <td>{row.reason ?? row.status ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TitledSection>
  );
}

/** A step's gist: a model call's model and tokens, a tool call's arguments and result. */
function stepDetail(step: Step): string {
  if (step.kind === 'model') {
    const tokens =
      step.inputTokens === null && step.outputTokens === null
        ? ''
        : ` · ${step.inputTokens ?? '?'} in, ${step.outputTokens ?? '?'} out`;
    return `${step.model ?? 'model'}${tokens}`;
  }
  return `${step.arguments ?? ''} → ${step.result ?? ''}`;
}

type Step = NonNullable<ItemView['run']>['steps'][number];

function Steps({ run }: { run: NonNullable<ItemView['run']> }) {
  return (
    <TitledSection name="steps" title={`Steps: ${run.steps.length + run.stepsOmitted}`}>
      <table class="steps" data-testid="steps">
        <ColumnHeads names={['Call', 'Name', 'Took', 'Detail', 'Outcome']} />
        <tbody>
          {run.steps.map((step) => (
            <tr key={step.spanId} class={step.status === 'error' ? 'failed' : undefined}>
              <td>{step.kind === 'model' ? 'model' : 'tool'}</td>
              <td>{step.kind === 'tool' ? (step.toolName ?? step.name) : step.name}</td>
              <td>{formatDuration(Date.parse(step.endedAt) - Date.parse(step.startedAt))}</td>
              <td class="step-detail">{stepDetail(step)}</td>
              <td>{step.error ?? step.status}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {run.stepsOmitted > 0 && <p class="quiet">{run.stepsOmitted} more steps not listed.</p>}
    </TitledSection>
  );
}

function Artifact({ artifact }: { artifact: NonNullable<ItemView['artifact']> }) {
  const lines = dataDiff(artifact.previous?.data, artifact.data, artifact.previous !== null);
  const sign = { added: '+', removed: '−', same: ' ' } as const;
  return (
    <TitledSection
      name="artifact"
      title={
        <>
          Artifact {artifact.artifactId} ({artifact.kind}), version {artifact.version}
          {artifact.previous ? ` against version ${artifact.previous.version}` : ''}
        </>
      }
    >
      <pre class="diff" data-testid="artifact-diff">
        {lines.map((line, i) => (
          <span key={i} class={`line ${line.kind}`}>
            <span class="sign" aria-hidden="true">
              {sign[line.kind]}
            </span>
            {line.kind !== 'same' && <span class="sr-only">{line.kind}: </span>}
            {line.text}
            {'\n'}
          </span>
        ))}
      </pre>
    </TitledSection>
  );
}

function Ratings({ ratings }: { ratings: ItemView['ratings'] }) {
  return (
    <TitledSection
      name="ratings"
      title="Users' ratings"
      none={ratings.length === 0 && 'No ratings.'}
    >
      <ul class="feedback">
        {ratings.map((rating, i) => (
          <GivenFeedback
            key={i}
            rater={rating.rater}
            type={rating.feedbackType}
            value={rating.value}
          />
        ))}
      </ul>
    </TitledSection>
  );
}

function Verdicts({ verdicts }: { verdicts: ItemView['automatedVerdicts'] }) {
  return (
    <TitledSection
      name="verdicts"
      title="Evaluators' verdicts"
      none={verdicts.length === 0 && 'No verdicts.'}
    >
      <table class="verdicts">
        <ColumnHeads names={['Evaluator version', 'Verdict', 'Confidence']} />
        <tbody>
          {verdicts.map((verdict, i) => (
            <tr key={i}>
              <td>{verdict.evaluator}</td>
              <td>{formatValue(verdict.value)}</td>
              <td>
                {typeof verdict.confidence === 'number'
                  ? `${Math.round(verdict.confidence * 100)} %`
                  : '–'}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TitledSection>
  );
}

function OtherReviews({ view }: { view: ItemView }) {
  if (view.queue.reviewersPerItem < 2) return null;
  return (
    <TitledSection
      name="others"
      title="Other reviewers"
      none={
        view.queue.blind && view.myReview === null
          ? "Blind review: other reviewers' verdicts show once you have given yours."
          : view.otherReviews.length === 0 && 'No other verdicts yet.'
      }
    >
      <ul class="feedback">
        {view.otherReviews.map((review, i) => (
          <GivenFeedback key={i} rater={review.rater} value={review.value} />
        ))}
      </ul>
    </TitledSection>
  );
}

/** One feedback given on a target, as a line: who gave it, its type (where told), its value. */
export function GivenFeedback(props: {
  rater: string;
  type?: string;
  value: Record<string, unknown>;
  children?: ComponentChildren;
}) {
  return (
    <li>
      <span class="who">{props.rater}</span>{' '}
      {props.type !== undefined && (
        <>
          <span class="type">{props.type}</span>{' '}
        </>
      )}
      <span class="value">{formatValue(props.value)}</span>
      {props.children}
    </li>
  );
}
