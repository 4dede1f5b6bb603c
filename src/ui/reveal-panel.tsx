import { formatValue } from './item-view.js';
import type { Feedback } from './queue-types.js';
import type { FormField } from './review-form.js';

// Blind review's promise kept: once the reviewer's verdict is recorded, the server's answer
// brings the other reviewers' verdicts on that item, shown here above the next item until
// dismissed (My reviews shows them beside each verdict too). Reviewers are numbered, not named: what matters is how their verdicts compare.

export interface Reveal {
  target: string;
  mine: Record<string, unknown>;
  others: Feedback[];
  /** The fields a verdict is compared on: those with a value to agree on, not free text. */
  compared: string[];
}

/** The fields two verdicts agree on can be compared on: all but free text. */
export const comparedFields = (fields: readonly FormField[]) =>
  fields.filter((field) => field.kind !== 'TEXT').map((field) => field.name);

/** How another verdict compares with the reviewer's, on the compared fields. */
export function agreement(
  mine: Record<string, unknown>,
  theirs: Record<string, unknown>,
  compared: readonly string[],
): string {
  const differing = compared.filter(
    (name) => JSON.stringify(mine[name]) !== JSON.stringify(theirs[name]),
  );
  return differing.length === 0
    ? 'agrees with yours'
    : `differs from yours on ${differing.join(', ')}`;
}

export function RevealPanel({ reveal, onDismiss }: { reveal: Reveal; onDismiss(): void }) {
  return (
    <section class="reveal" aria-labelledby="reveal-title" data-testid="reveal">
      <h2 id="reveal-title">How others judged {reveal.target}</h2>
      <p>
        <span class="who">Yours</span> <span class="value">{formatValue(reveal.mine)}</span>
      </p>
      <OthersVerdicts mine={reveal.mine} others={reveal.others} compared={reveal.compared} />
      <button type="button" onClick={onDismiss}>
        Dismiss
      </button>
    </section>
  );
}

/** The others' verdicts, numbered, each compared with the reviewer's. */
export function OthersVerdicts(props: Omit<Reveal, 'target'>) {
  return (
    <ul class="feedback" data-testid="others-verdicts">
      {props.others.map((review, i) => (
        <li key={review.id}>
          <span class="who">Reviewer {i + 1}</span>{' '}
          <span class="value">{formatValue(review.value)}</span>{' '}
          <span class="agreement">({agreement(props.mine, review.value, props.compared)})</span>
        </li>
      ))}
    </ul>
  );
}
