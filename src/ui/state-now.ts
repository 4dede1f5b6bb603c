import { useCallback, useRef, useState } from 'preact/hooks';

/**
 * A state with its latest value readable at once (`now.current`), for the key handlers: a
 * handler registered with the state itself is replaced only after the next paint, and a key
 * pressed before then would act on the value before.
 */
export function useStateNow<T>(initial: T): [T, (next: T) => void, { readonly current: T }] {
  const [value, setValue] = useState(initial);
  const now = useRef(initial);
  const set = useCallback((next: T) => {
    now.current = next;
    setValue(next);
  }, []);
  return [value, set, now];
}
