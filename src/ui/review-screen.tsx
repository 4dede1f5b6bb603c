import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { describeTarget, ItemDetails } from './item-view.js';
import type { KeyAction } from './keyboard.js';
import type { ItemView } from './queue-types.js';
import { isSignInRefused, type Refusal, refusalOf } from './refusals.js';
import { comparedFields, type Reveal, RevealPanel } from './reveal-panel.js';
import { checkDraft, type Draft, formFields, pick } from './review-form.js';
import { type QueueApi, ReviewSession } from './review-session.js';
import { useDraft } from './use-draft.js';
import { focusedField, focusField, VerdictForm } from './verdict-form.js';

// One queue, one item at a time: the item beside its form. A submit shows the next item at
// once (it was claimed and read ahead); a skip sends the item to the end of the queue; leaving
// gives the leases back. Once a verdict is recorded, the others' verdicts on its item (the
// server reveals them only then) show above the next item until dismissed. Marks `evalflow:next-item` (a performance measure) from each submit to
// the next item on screen.

export interface ReviewScreenProps {
  api: QueueApi;
  queueId: string;
  onBack(): void;
  onSignInRefused(message: string): void;
  onAnnounce(message: string): void;
  /** Registers what this screen does with a key, while it is on screen. */
  setKeys(handler: ((action: KeyAction) => boolean) | null): void;
}

type State =
  | { phase: 'loading' }
  | { phase: 'item'; view: ItemView }
  | { phase: 'empty' }
  | { phase: 'failed'; refusal: Refusal };

export function ReviewScreen(props: ReviewScreenProps) {
  const { api, queueId, onSignInRefused, onAnnounce } = props;
  const [state, setState] = useState<State>({ phase: 'loading' });
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
      if (isSignInRefused(error)) onSignInRefused(refusalOf(error).message);
      else setState({ phase: 'failed', refusal: refusalOf(error) });
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

  // A new item on screen: the focus on its first field, the measure from the submit closed.
  useEffect(() => {
    if (!view) return;
    if (!focusField(form.current, 0)) form.current?.querySelector<HTMLElement>('button')?.focus();
    if (performance.getEntriesByName('evalflow:submit', 'mark').length > 0) {
      performance.measure('evalflow:next-item', 'evalflow:submit');
      performance.clearMarks('evalflow:submit');
    }
  }, [view]);

  // Each item's draft, so a refused verdict comes back as the reviewer left it.
  const drafts = useRef(new Map<string, Draft>());

  const submit = useCallback(async () => {
    if (!view || busy) return;
    const entered = entry.current();
    const checked = checkDraft(fields, entered);
    if (!checked.ok) {
      setErrors(checked.errors);
      const first = fields.findIndex((field) => checked.errors[field.name] !== undefined);
      focusField(form.current, first);
      return;
    }
    setErrors({});
    setBusy(true);
    drafts.current.set(view.item.itemId, entered);
    const sentAt = performance.now();
    performance.mark('evalflow:submit');
    const target = describeTarget(view.item.target);
    try {
      const { next, recorded } = await session.submit(checked.value, view.queue.configId);
      show(next);
      recorded.then(
        (others) => {
          performance.measure('evalflow:verdict-recorded', {
            start: sentAt,
            end: performance.now(),
          });
          drafts.current.delete(view.item.itemId);
          onAnnounce(`Verdict recorded on ${target}.${othersShown(others.length)}`);
          setReveal(
            others.length === 0
              ? null
              : { target, mine: checked.value, others, compared: comparedFields(fields) },
          );
        },
        (error: unknown) => {
          if (isSignInRefused(error)) return onSignInRefused(refusalOf(error).message);
          // Back to the refused item, as it was left, with the API's words.
          session.reopen(view);
          performance.clearMarks('evalflow:submit');
          setState({ phase: 'item', view });
          entry.reset(drafts.current.get(view.item.itemId) ?? {});
          setRefusal(refusalOf(error));
          onAnnounce(`The API refused your verdict on ${target}: back to it.`);
        },
      );
    } catch (error) {
      performance.clearMarks('evalflow:submit');
      if (isSignInRefused(error)) onSignInRefused(refusalOf(error).message);
      else setRefusal(refusalOf(error));
    } finally {
      setBusy(false);
    }
  }, [view, busy, fields, entry, session, show, onAnnounce, onSignInRefused]);

  // Verdicts still on their way: leaving now would drop them, so the browser asks first.
  useEffect(() => {
    const warn = (event: BeforeUnloadEvent) => {
      if (session.unsent > 0) event.preventDefault();
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [session]);

  const skip = useCallback(async () => {
    if (!view || busy) return;
    setBusy(true);
    try {
      const next = await session.skip();
      onAnnounce(
        `Skipped ${describeTarget(view.item.target)}: it is back at the end of the queue.`,
      );
      show(next);
    } catch (error) {
      if (isSignInRefused(error)) onSignInRefused(refusalOf(error).message);
      else setRefusal(refusalOf(error));
    } finally {
      setBusy(false);
    }
  }, [view, busy, session, show, onAnnounce, onSignInRefused]);

  const { setKeys, onBack } = props;
  useEffect(() => {
    setKeys((action) => {
      switch (action.type) {
        case 'submit':
          void submit();
          return true;
        case 'skip':
          void skip();
          return view !== null;
        case 'pick': {
          const at = focusedField(form.current);
          const target =
            at >= 0 && (fields[at]?.options.length ?? 0) > 0
              ? at
              : fields.findIndex(
                  (field) => field.options.length > 0 && entry.current()[field.name] === undefined,
                );
          const index =
            target >= 0 ? target : fields.findIndex((field) => field.options.length > 0);
          const field = fields[index];
          if (!field || action.index >= field.options.length) return false;
          entry.update((latest) => pick(latest, field, action.index));
          // The next field takes the focus, so a verdict is a key per field.
          if (!focusField(form.current, index + 1) || index + 1 >= fields.length) {
            form.current?.querySelector<HTMLElement>('button[type=submit]')?.focus();
          }
          return true;
        }
        case 'next':
        case 'previous': {
          const at = focusedField(form.current);
          const step = action.type === 'next' ? 1 : -1;
          return focusField(form.current, at < 0 ? 0 : at + step);
        }
        case 'escape': {
          const active = document.activeElement as HTMLElement | null;
          if (active?.matches('input[type=text], textarea')) {
            active.blur();
            return true;
          }
          onBack();
          return true;
        }
        default:
          return false;
      }
    });
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
        <div role="alert" class="refusal">
          <p>The queue could not be opened: {state.refusal.message}</p>
        </div>
      )}
      {state.phase === 'empty' && (
        <div class="empty" data-testid="queue-empty">
          <p>
            Nothing left for you in this queue: every item is done, taken by another reviewer, or
            already has your verdict.
          </p>
          <button type="button" onClick={onBack}>
            Back to the queues
          </button>
        </div>
      )}
      {view && (
        <div class="item" data-item-id={view.item.itemId} data-testid="item">
          {lost === view.item.itemId && (
            <div role="alert" class="refusal">
              <p>
                Your lease on this item ended (it ran out, or the server no longer has it for you):
                a verdict may still be refused. Skip to take the next item.
              </p>
            </div>
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
            <VerdictForm
              formRef={form}
              fields={fields}
              draft={draft}
              errors={errors}
              refusal={refusal}
              busy={busy}
              submitLabel="Submit"
              onDraft={entry.update}
              onSubmit={() => void submit()}
            >
              <button
                type="button"
                disabled={busy}
                onClick={() => void skip()}
                aria-keyshortcuts="s"
              >
                Skip <kbd>s</kbd>
              </button>
            </VerdictForm>
          </aside>
        </div>
      )}
    </main>
  );
}

/** What the announcement adds when others' verdicts are revealed. */
const othersShown = (count: number) =>
  count === 0
    ? ''
    : count === 1
      ? " Another reviewer's verdict is shown."
      : ` ${count} other reviewers' verdicts are shown.`;
