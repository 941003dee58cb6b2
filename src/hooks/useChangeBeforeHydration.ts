import { useLayoutEffect, useRef, type RefObject } from 'react';

/**
 * A change the visitor made to a control before it hydrated (ENABLED_BEFORE_HYDRATION, src/config/beforeHydration.ts),
 * kept: once, in the commit that mounts the control, reads the value the control holds, and when it is
 * not `rendered`, the value the first render gave it, hands it to `keep`, as the control's `onChange`
 * would have. A control rendered in the browser from scratch holds what it was rendered with, so nothing
 * is handed on.
 * @param rendered - the control's value in the render that mounted it (a range input's: its position as text)
 * @param keep - takes the value, e.g. the slider's `onChange` handler
 * @returns the ref to put on the control
 */
export function useChangeBeforeHydration(rendered: string, keep: (value: string) => void): RefObject<HTMLInputElement | null> {
  const control = useRef<HTMLInputElement>(null);
  const mounted = useRef({ rendered, keep });
  useLayoutEffect(() => {
    const value = control.current?.value;
    if (value !== undefined && value !== mounted.current.rendered) mounted.current.keep(value);
  }, []);
  return control;
}
