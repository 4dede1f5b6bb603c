import type { RefObject } from 'preact';
import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { ItemDetails } from './item-view.js';
import type { KeyAction } from './keyboard.js';
import type { ItemView } from './queue-types.js';
import { RefusalAlert } from './refusal-alert.js';
import { isSignInRefused, type Refusal, refusalOf, routeRefusal } from './refusals.js';
import { type Reveal, RevealPanel } from './reveal-panel.js';
import { type ReviewScreenState, useReviewActions } from './review-actions.js';
import { type FormField, formFields, pick } from './review-form.js';
import { type QueueApi, ReviewSession } from './review-session.js';
import type { ScreenProps } from './screen-props.js';
import { type DraftState, useDraft } from './use-draft.js';
import { focusedField, focusField, VerdictForm, type VerdictFormProps } from './verdict-form.js';

// One queue, one item at a time: the item beside its form. A submit shows the next item at
// once (it was claimed and read ahead); a skip sends the item to the end of the queue; leaving
// gives the leases back. Once a verdict is recorded, the others' verdicts on its item (the
// server reveals them only then) show above the next item until dismissed. Marks `evalflow:next-item` (a performance measure) from each submit to
// the next item on screen.

export interface ReviewScreenProps extends ScreenProps<QueueApi> {
  queueId: string;
}

export function ReviewScreen(props: ReviewScreenProps) {
  const { api, queueId, onSignInRefused, onAnnounce } = props;
  const [state, setState] = useState<ReviewScreenState>({ phase: 'loading' });
  const entry = useDraft();
  const { draft } = entry;
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [busy, setBusy] = useState(false);
  const [lost, setLost] = useState<string | null>(null);
  const [reveal, setReveal] = useState<Reveal | null>(null);
  const form = useRef<HTMLFormElement>(null);

  const session = useMemo(
    () =>
      new ReviewSession(api, queueId, {
        onLeaseLost: (itemId, error) => {
          if (isSignInRefused(error)) return onSignInRefused(refusalOf(error).message);
          setLost(itemId);
        },
      }),
    [api, queueId, onSignInRefused],
  );

  const fail = useCallback(
    (error: unknown) => {
      routeRefusal(error, onSignInRefused, (refusal) => setState({ phase: 'failed', refusal }));
    },
    [onSignInRefused],
  );

  const show = useCallback((view: ItemView | null) => {
    entry.reset({});
    setErrors({});
    setRefusal(null);
    setLost(null);
    setState(view === null ? { phase: 'empty' } : { phase: 'item', view });
  }, []);

  useEffect(() => {
    session.start().then(show, fail);
    return () => void session.close();
  }, [session, show, fail]);

  const view = state.phase === 'item' ? state.view : null;
  const fields = useMemo(
    () => (view ? formFields(view.queue.feedbackType, view.scoreConfigs) : []),
    [view],
  );

  useItemArrival(view, form);

  const { submit, skip } = useReviewActions({
    view,
    busy,
    fields,
    entry,
    session,
    form,
    show,
    setBusy,
    setErrors,
    setRefusal,
    setReveal,
    setState,
    onAnnounce,
    onSignInRefused,
  });
  useLeaveWarning(session);

  const { setKeys, onBack } = props;
  useEffect(() => {
    setKeys((action) =>
      reviewKey(action, {
        form,
        fields,
        entry,
        submit,
        skip,
        onBack,
        hasItem: view !== null,
      }),
    );
    return () => setKeys(null);
  }, [setKeys, submit, skip, fields, entry, view, onBack]);

  return (
    <main class="review" aria-labelledby="queue-title">
      <header class="review-header">
        <h1 id="queue-title">Queue {queueId}</h1>
        <button type="button" onClick={onBack} aria-keyshortcuts="Escape">
          Back to the queues <kbd>Esc</kbd>
        </button>
      </header>
      {reveal && <RevealPanel reveal={reveal} onDismiss={() => setReveal(null)} />}
      {state.phase === 'loading' && <p role="status">Taking the next item…</p>}
      {state.phase === 'failed' && (
        <RefusalAlert>The queue could not be opened: {state.refusal.message}</RefusalAlert>
      )}
      {state.phase === 'empty' && <EmptyQueue onBack={onBack} />}
      {view && (
        <ItemUnderReview
          view={view}
          lost={lost === view.item.itemId}
          formRef={form}
          fields={fields}
          draft={draft}
          errors={errors}
          refusal={refusal}
          busy={busy}
          onDraft={entry.update}
          onSubmit={() => void submit()}
          onSkip={() => void skip()}
        />
      )}
    </main>
  );
}

/** What the screen's keys reach: its form, fields and draft, and what it does. */
interface ReviewKeyContext {
  form: { readonly current: HTMLFormElement | null };
  fields: readonly FormField[];
  entry: DraftState;
  submit(): Promise<void>;
  skip(): Promise<void>;
  onBack(): void;
  hasItem: boolean;
}

/**
 * What a key does on the review screen, and whether it took it: submit, skip, pick an option of
 * a field (the focused one, else the first left empty) and move on, move between fields, and Esc
 * out of a text field or back to the queues.
 */
function reviewKey(action: KeyAction, ctx: ReviewKeyContext): boolean {
  switch (action.type) {
    case 'submit':
      void ctx.submit();
      return true;
    case 'skip':
      void ctx.skip();
      return ctx.hasItem;
    case 'pick': {
      const at = focusedField(ctx.form.current);
      const target =
        at >= 0 && (ctx.fields[at]?.options.length ?? 0) > 0
          ? at
          : ctx.fields.findIndex(
              (field) => field.options.length > 0 && ctx.entry.current()[field.name] === undefined,
            );
      const index =
        target >= 0 ? target : ctx.fields.findIndex((field) => field.options.length > 0);
      const field = ctx.fields[index];
      if (!field || action.index >= field.options.length) return false;
      ctx.entry.update((latest) => pick(latest, field, action.index));
      // The next field takes the focus, so a verdict is a key per field.
      if (!focusField(ctx.form.current, index + 1) || index + 1 >= ctx.fields.length) {
        ctx.form.current?.querySelector<HTMLElement>('button[type=submit]')?.focus();
      }
      return true;
    }
    case 'next':
    case 'previous': {
      const at = focusedField(ctx.form.current);
      const step = action.type === 'next' ? 1 : -1;
      return focusField(ctx.form.current, at < 0 ? 0 : at + step);
    }
    case 'escape': {
      const active = document.activeElement as HTMLElement | null;
      if (active?.matches('input[type=text], textarea')) {
        active.blur();
        return true;
      }
      ctx.onBack();
      return true;
    }
    default:
      return false;
  }
}

/** Verdicts still on their way: leaving now would drop them, so the browser asks first. */
function useLeaveWarning(session: ReviewSession) {
  useEffect(() => {
    const warn = (event: BeforeUnloadEvent) => {
      if (session.unsent > 0) event.preventDefault();
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [session]);
}

function EmptyQueue(props: { onBack(): void }) {
  return (
    <div class="empty" data-testid="queue-empty">
      <p>
        Nothing left for you in this queue: every item is done, taken by another reviewer, or
        already has your verdict.
      </p>
      <button type="button" onClick={props.onBack}>
        Back to the queues
      </button>
    </div>
  );
}

/** The item on screen beside its verdict form, with its lease and, once lost, a warning. */
function ItemUnderReview(
  props: Omit<VerdictFormProps, 'submitLabel' | 'children'> & {
    view: ItemView;
    lost: boolean;
    onSkip(): void;
  },
) {
  const { view, lost, onSkip, ...form } = props;
  return (
    <div class="item" data-item-id={view.item.itemId} data-testid="item">
      {lost && (
        <RefusalAlert>
          Your lease on this item ended (it ran out, or the server no longer has it for you): a
          verdict may still be refused. Skip to take the next item.
        </RefusalAlert>
      )}
      <ItemDetails view={view} />
      <aside class="verdict" aria-label="Verdict">
        <p class="lease">
          Leased to you until{' '}
          <time dateTime={view.item.leaseExpiresAt ?? ''}>
            {view.item.leaseExpiresAt
              ? new Date(view.item.leaseExpiresAt).toLocaleTimeString()
              : '–'}
          </time>
          , renewed while this page is open.
        </p>
        <VerdictForm {...form} submitLabel="Submit">
          <button type="button" disabled={form.busy} onClick={onSkip} aria-keyshortcuts="s">
            Skip <kbd>s</kbd>
          </button>
        </VerdictForm>
      </aside>
    </div>
  );
}

/** A new item on screen: the focus on its first field, the measure from the submit closed. */
function useItemArrival(view: ItemView | null, form: RefObject<HTMLFormElement | null>) {
  useEffect(() => {
    if (!view) return;
    if (!focusField(form.current, 0)) form.current?.querySelector<HTMLElement>('button')?.focus();
    if (performance.getEntriesByName('evalflow:submit', 'mark').length > 0) {
      performance.measure('evalflow:next-item', 'evalflow:submit');
      performance.clearMarks('evalflow:submit');
    }
  }, [view]);
}
