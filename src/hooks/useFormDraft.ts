import { useEffect, useRef, type FocusEvent, type FormEvent } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { InviteHandOver } from '@/estimator/inviteHandOver';
import { draftFromFormData, fillFormFromDraft } from '@/forms/draft';
import { prefersReducedMotion } from '@/utils/motion';
import type { inviteMachine } from '#machines/inviteMachine';
import type { privacyRequestMachine } from '#machines/privacyRequestMachine';
import { HONEYPOT_NAME } from '@/components/FormFields';

/** The actor of a submission form: the invite form's or the privacy request form's. */
export type FormActor = ActorRefFrom<typeof inviteMachine> | ActorRefFrom<typeof privacyRequestMachine>;

/**
 * A form's draft wiring, spread onto its `<form>`: the draft the machine started with is put
 * back into the inputs once, when the form mounts; every change is sent as `form.change` (the honeypot
 * left out), and focus leaving the form as `form.blur`. When and where it is kept is the machine's
 * `draft` region.
 * @param handOvers - where values handed over from elsewhere on the page come from (the cost
 *   estimator's, src/estimator/inviteHandOver.ts): each is put into its fields and sent as `form.change`,
 *   as if the visitor had typed it, so it joins the draft and every other field stays as it was; focus
 *   moves to the first field handed over, scrolled into view
 */
export function useFormDraft(actor: FormActor, handOvers?: (receive: (values: InviteHandOver) => void) => () => void) {
  const ref = useRef<HTMLFormElement>(null);
  useEffect(() => {
    const { draft } = actor.getSnapshot().context;
    if (draft && ref.current) fillFormFromDraft(ref.current, draft);
  }, [actor]);
  // After the effect above, so that a hand-over waiting when the form mounts lands on the kept draft.
  useEffect(
    () =>
      handOvers?.((values) => {
        const form = ref.current;
        if (!form) return;
        fillFormFromDraft(form, values);
        const fields = Object.keys(values)
          .map((name) => form.elements.namedItem(name))
          .filter((field): field is HTMLInputElement => field instanceof HTMLInputElement);
        // a value put in by script fires no `input`, so the field's own check (FormFields.tsx) does not
        // run: a text rule message left from what was there before must not stay on the new value
        for (const field of fields) field.setCustomValidity('');
        sendChange(actor, form);
        const first = fields[0];
        if (first) {
          first.focus({ preventScroll: true });
          first.scrollIntoView({ block: 'center', behavior: prefersReducedMotion() ? 'auto' : 'smooth' });
        }
      }),
    [actor, handOvers],
  );
  return {
    ref,
    // `input` bubbles from every field (text, select, checkbox, radio) on each change; `change` on a
    // form would only fire when a text field loses focus.
    onInput: (event: FormEvent<HTMLFormElement>) => sendChange(actor, event.currentTarget),
    // React listens to `focusout` for onBlur: it bubbles from the fields.
    onBlur: (event: FocusEvent<HTMLFormElement>) => {
      if (!event.currentTarget.contains(event.relatedTarget)) actor.send({ type: 'form.blur' });
    },
  };
}

/** Sends the whole form, the honeypot left out, as the draft's `form.change`. */
function sendChange(actor: FormActor, form: HTMLFormElement): void {
  actor.send({ type: 'form.change', values: draftFromFormData(new FormData(form), [HONEYPOT_NAME]) });
}
