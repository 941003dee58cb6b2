import { useEffect, useRef, type FocusEvent, type FormEvent } from 'react';
import type { ActorRefFrom } from 'xstate';
import { draftFromFormData, fillFormFromDraft } from '@/forms/draft';
import type { inviteMachine } from '#machines/inviteMachine';
import type { privacyRequestMachine } from '#machines/privacyRequestMachine';
import { HONEYPOT_NAME } from './FormFields';

type FormActor = ActorRefFrom<typeof inviteMachine> | ActorRefFrom<typeof privacyRequestMachine>;

/**
 * A form's draft wiring (issue #12), spread onto its `<form>`: the draft the machine started with is put
 * back into the inputs once, when the form mounts; every change is sent as `form.change` (the honeypot
 * left out), and focus leaving the form as `form.blur`. When and where it is kept is the machine's
 * `draft` region.
 */
export function useFormDraft(actor: FormActor) {
  const ref = useRef<HTMLFormElement>(null);
  useEffect(() => {
    const { draft } = actor.getSnapshot().context;
    if (draft && ref.current) fillFormFromDraft(ref.current, draft);
  }, [actor]);
  return {
    ref,
    // `input` bubbles from every field (text, select, checkbox, radio) on each change; `change` on a
    // form would only fire when a text field loses focus.
    onInput: (event: FormEvent<HTMLFormElement>) =>
      actor.send({ type: 'form.change', values: draftFromFormData(new FormData(event.currentTarget), [HONEYPOT_NAME]) }),
    // React listens to `focusout` for onBlur: it bubbles from the fields.
    onBlur: (event: FocusEvent<HTMLFormElement>) => {
      if (!event.currentTarget.contains(event.relatedTarget)) actor.send({ type: 'form.blur' });
    },
  };
}
