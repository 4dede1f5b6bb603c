import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { ApiScoreConfig } from '../client/index.js';
import { describeTarget, formatValue } from './item-view.js';
import type { MyQueueReviews, MyReview, MyReviewsApi } from './queue-types.js';
import { RefusalAlert } from './refusal-alert.js';
import { type Refusal, routeRefusal } from './refusals.js';
import { comparedFields, OthersVerdicts } from './reveal-panel.js';
import { checkDraft, draftOf, formFields } from './review-form.js';
import type { ScreenProps } from './screen-props.js';
import { useStateNow } from './state-now.js';
import { useDraft } from './use-draft.js';
import { focusField, VerdictForm } from './verdict-form.js';

// The reviewer's own verdicts in a queue, latest first: each may be revised (the form again,
// filled with what was sent) or withdrawn, through the review path (`POST /v1/reviews`).

export interface MyReviewsProps extends ScreenProps<MyReviewsApi> {
  queueId: string;
}

export function MyReviews(props: MyReviewsProps) {
  const { api, queueId, onSignInRefused, onAnnounce, setKeys, onBack } = props;
  const [mine, setMine] = useState<MyQueueReviews | null>(null);
  const [configs, setConfigs] = useState<ApiScoreConfig[]>([]);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [editing, setEditing, editingNow] = useStateNow<string | null>(null);

  const failed = useCallback(
    (error: unknown) => {
      routeRefusal(error, onSignInRefused, setRefusal);
    },
    [onSignInRefused],
  );
  const reload = useCallback(
    () =>
      Promise.all([api.myReviews(queueId), api.scoreConfigs()]).then(([reviews, all]) => {
        setMine(reviews);
        setConfigs(all);
      }, failed),
    [api, queueId, failed],
  );
  useEffect(() => void reload(), [reload]);
  // The list read: the focus on its first row, for ↑ ↓ and Enter.
  const loaded = mine !== null;
  useEffect(() => {
    if (loaded) document.querySelector<HTMLElement>('.my-reviews button')?.focus();
  }, [loaded]);

  useEffect(() => {
    setKeys((action) => {
      const editing = editingNow.current;
      if (action.type === 'escape' && editing === null) {
        onBack();
        return true;
      }
      if (action.type === 'escape') {
        setEditing(null);
        return true;
      }
      if (action.type === 'submit' && editing !== null) {
        document.querySelector<HTMLFormElement>('.my-reviews form')?.requestSubmit();
        return true;
      }
      if (editing !== null || (action.type !== 'next' && action.type !== 'previous')) return false;
      const rows = [...document.querySelectorAll<HTMLElement>('.my-reviews > li')];
      const at = rows.findIndex((row) => row.contains(document.activeElement));
      const step = action.type === 'next' ? 1 : -1;
      rows[Math.max(0, Math.min(rows.length - 1, at + step))]
        ?.querySelector<HTMLElement>('button')
        ?.focus();
      return true;
    });
    return () => setKeys(null);
  }, [setKeys, setEditing, editingNow, onBack]);

  return (
    <main aria-labelledby="mine-title">
      <header class="review-header">
        <h1 id="mine-title">My reviews in {queueId}</h1>
        <button type="button" onClick={onBack} aria-keyshortcuts="Escape">
          Back to the queues <kbd>Esc</kbd>
        </button>
      </header>
      {refusal && <RefusalAlert>The API refused: {refusal.message}</RefusalAlert>}
      {mine === null && !refusal && <p role="status">Reading your reviews…</p>}
      {mine?.reviews.length === 0 && <p>You have no verdicts in this queue yet.</p>}
      {mine && mine.reviews.length > 0 && (
        <ol class="my-reviews" data-testid="my-reviews">
          {mine.reviews.map((review) => (
            <Review
              key={review.itemId}
              review={review}
              feedbackType={mine.feedbackType}
              configs={configs}
              editing={editing === review.itemId}
              onEdit={(on) => setEditing(on ? review.itemId : null)}
              onRevise={async (value) => {
                await api.revise(mine, review, value);
                onAnnounce(`Verdict on ${describeTarget(review.target)} revised.`);
                setEditing(null);
                await reload();
              }}
              onWithdraw={async () => {
                await api.withdraw(mine, review);
                onAnnounce(`Verdict on ${describeTarget(review.target)} withdrawn.`);
                await reload();
              }}
              onSignInRefused={onSignInRefused}
            />
          ))}
        </ol>
      )}
    </main>
  );
}

function Review(props: {
  review: MyReview;
  feedbackType: string;
  configs: ApiScoreConfig[];
  editing: boolean;
  onEdit(on: boolean): void;
  onRevise(value: Record<string, unknown>): Promise<void>;
  onWithdraw(): Promise<void>;
  onSignInRefused(message: string): void;
}) {
  const { review, editing, feedbackType } = props;
  const fields = useMemo(
    () => formFields(feedbackType, props.configs),
    [feedbackType, props.configs],
  );
  const value = review.review?.value ?? null;
  const entry = useDraft();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [busy, setBusy] = useState(false);
  const form = useRef<HTMLFormElement>(null);

  useEffect(() => {
    if (editing) {
      entry.reset(draftOf(fields, value ?? {}));
      setErrors({});
      setRefusal(null);
    }
  }, [editing, fields, value]);
  // The form open: the focus on its first field, the option sent before.
  useEffect(() => {
    if (editing) requestAnimationFrame(() => focusField(form.current, 0));
  }, [editing]);

  const act = async (work: () => Promise<void>) => {
    setBusy(true);
    setRefusal(null);
    try {
      await work();
    } catch (error) {
      routeRefusal(error, props.onSignInRefused, setRefusal);
    } finally {
      setBusy(false);
    }
  };

  const label = describeTarget(review.target);
  return (
    <li data-item-id={review.itemId}>
      <p>
        <strong>{label}</strong>{' '}
        <span class="value">{value === null ? 'withdrawn' : formatValue(value)}</span>{' '}
        <time class="quiet" dateTime={review.review?.updatedAt ?? review.doneAt}>
          {new Date(review.review?.updatedAt ?? review.doneAt).toLocaleString()}
        </time>
      </p>
      {value !== null && review.otherReviews.length > 0 && (
        <section aria-label={`How others judged ${label}`}>
          <OthersVerdicts
            mine={value}
            others={review.otherReviews}
            compared={comparedFields(fields)}
          />
        </section>
      )}
      {!editing && value !== null && (
        <ReviewActions
          label={label}
          busy={busy}
          onRevise={() => props.onEdit(true)}
          onWithdraw={() => void act(props.onWithdraw)}
        />
      )}
      {!editing && refusal && <RefusalAlert>The API refused: {refusal.message}</RefusalAlert>}
      {editing && (
        <VerdictForm
          formRef={form}
          fields={fields}
          draft={entry.draft}
          errors={errors}
          refusal={refusal}
          busy={busy}
          submitLabel="Save the revision"
          onDraft={entry.update}
          onSubmit={() => {
            const checked = checkDraft(fields, entry.current());
            if (!checked.ok) return setErrors(checked.errors);
            setErrors({});
            void act(() => props.onRevise(checked.value));
          }}
        >
          <button type="button" onClick={() => props.onEdit(false)}>
            Cancel
          </button>
        </VerdictForm>
      )}
    </li>
  );
}

/** Revise and withdraw a verdict; withdrawing asks to be confirmed by a second click. */
function ReviewActions(props: {
  label: string;
  busy: boolean;
  onRevise(): void;
  onWithdraw(): void;
}) {
  const { label } = props;
  const [confirming, setConfirming] = useState(false);
  return (
    <div class="row-actions">
      <button type="button" onClick={props.onRevise} aria-label={`Revise the verdict on ${label}`}>
        Revise
      </button>
      <button
        type="button"
        class={confirming ? 'danger' : ''}
        disabled={props.busy}
        aria-label={
          confirming
            ? `Confirm: withdraw the verdict on ${label}`
            : `Withdraw the verdict on ${label}`
        }
        onBlur={() => setConfirming(false)}
        onClick={() => {
          if (!confirming) return setConfirming(true);
          setConfirming(false);
          props.onWithdraw();
        }}
      >
        {confirming ? 'Confirm: withdraw' : 'Withdraw'}
      </button>
    </div>
  );
}
