import type { RefObject } from 'preact';
import { useCallback, useRef } from 'preact/hooks';
import { describeTarget } from './item-view.js';
import type { ItemView } from './queue-types.js';
import { isSignInRefused, type Refusal, refusalOf, routeRefusal } from './refusals.js';
import { comparedFields, type Reveal } from './reveal-panel.js';
import { checkDraft, type Draft, type FormField } from './review-form.js';
import type { ReviewSession } from './review-session.js';
import type { DraftState } from './use-draft.js';
import { focusField } from './verdict-form.js';

/** Where the screen is: taking an item, showing one, none left, or refused. */
export type ReviewScreenState =
  | { phase: 'loading' }
  | { phase: 'item'; view: ItemView }
  | { phase: 'empty' }
  | { phase: 'failed'; refusal: Refusal };

// The review screen's two actions on the item on screen: submit a verdict (the next item shows
// at once; the verdict's answer comes later, and a refusal brings the item back as it was left)
// and skip it. Marks `evalflow:submit` for the measure of the next item on screen.

/** What the actions read of the screen and the setters they move it with. */
export interface ReviewActionsContext {
  view: ItemView | null;
  busy: boolean;
  fields: readonly FormField[];
  entry: DraftState;
  session: ReviewSession;
  form: RefObject<HTMLFormElement | null>;
  show(view: ItemView | null): void;
  setBusy(busy: boolean): void;
  setErrors(errors: Record<string, string>): void;
  setRefusal(refusal: Refusal | null): void;
  setReveal(reveal: Reveal | null): void;
  setState(state: ReviewScreenState): void;
  onAnnounce(message: string): void;
  onSignInRefused(message: string): void;
}

export function useReviewActions(ctx: ReviewActionsContext) {
  const { view, busy, fields, entry, session, form, show } = ctx;
  const { setBusy, setErrors, setRefusal, setReveal, setState, onAnnounce, onSignInRefused } = ctx;
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
      routeRefusal(error, onSignInRefused, setRefusal);
    } finally {
      setBusy(false);
    }
  }, [view, busy, fields, entry, session, show, onAnnounce, onSignInRefused]);

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
      routeRefusal(error, onSignInRefused, setRefusal);
    } finally {
      setBusy(false);
    }
  }, [view, busy, session, show, onAnnounce, onSignInRefused]);

  return { submit, skip };
}

/** What the announcement adds when others' verdicts are revealed. */
const othersShown = (count: number) =>
  count === 0
    ? ''
    : count === 1
      ? " Another reviewer's verdict is shown."
      : ` ${count} other reviewers' verdicts are shown.`;
