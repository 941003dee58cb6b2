import type { FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import type { InvitePayload } from '#shared/submission';
import type { KeepRequest } from '#machines/outboxMachine';
import { isHoneypotFilled } from '@/components/FormFields';
import { useOutbox } from '@/context/outbox';
import type { FormActor } from './useFormDraft';

/**
 * The named actions both submission forms give their machine (spec §4): on success the visitor goes
 * to /thank-you; a failed attempt that a later one may fix goes to the app-wide outbox
 * (docs/architecture.md, "No request lost").
 */
export function useSubmissionActions() {
  const navigate = useNavigate();
  const outbox = useOutbox();
  return {
    goToThankYou: () => navigate('/thank-you'),
    keepForRetry: (_: unknown, request: KeepRequest | null) => outbox.keep(request),
  };
}

/**
 * A submission form's own events, spread onto its `<form>`: focus entering it is `form.engage`; submitting
 * it is `form.submit` with the payload read from its fields and whether the honeypot was filled (the
 * browser has checked spec §5 before).
 * @param payloadOf - reads the payload from the form's data
 */
export function submissionFormEvents(actor: FormActor, payloadOf: (data: FormData) => InvitePayload) {
  return {
    onSubmit: (event: FormEvent<HTMLFormElement>) => {
      event.preventDefault();
      const data = new FormData(event.currentTarget);
      actor.send({ type: 'form.submit', payload: payloadOf(data), trapFilled: isHoneypotFilled(data) });
    },
    onFocus: () => actor.send({ type: 'form.engage' }),
  };
}
