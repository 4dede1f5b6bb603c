import { useCallback, useRef, useState } from 'preact/hooks';
import type { Draft } from './review-form.js';

// A verdict's draft, kept both as state (to render) and as a ref (to read): keys and input
// events can come faster than renders, and each must build on the one just before it, not on
// the draft of the last render (a pick, a typed number and Ctrl+Enter within one frame).

export interface DraftState {
  draft: Draft;
  /** The draft as of the last change, rendered or not. */
  current(): Draft;
  update(change: (draft: Draft) => Draft): void;
  reset(draft: Draft): void;
}

export function useDraft(): DraftState {
  const [draft, setDraft] = useState<Draft>({});
  const latest = useRef<Draft>({});
  const reset = useCallback((next: Draft) => {
    latest.current = next;
    setDraft(next);
  }, []);
  const update = useCallback(
    (change: (draft: Draft) => Draft) => reset(change(latest.current)),
    [reset],
  );
  const current = useCallback(() => latest.current, []);
  return { draft, current, update, reset };
}
