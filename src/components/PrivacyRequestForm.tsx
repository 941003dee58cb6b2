import { useActorRef, useSelector } from '@xstate/react';
import type { FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { privacyRequestPage as copy } from '@/content/privacyRequest';
import { useInspect } from '@/context/inspect';
import { useOutbox } from '@/context/outbox';
import { ADDITIONAL_DETAILS_MAX_LENGTH, PRIVACY_REQUEST_TYPES, privacyRequestFromFormData, privacyRequestToInvitePayload } from '@/forms/privacyRequest';
import type { KeepRequest } from '#machines/outboxMachine';
import { privacyRequestMachine } from '#machines/privacyRequestMachine';
import { CheckboxGroup, ErrorAlert, Honeypot, SubmitButton, TextField, fieldset, formLayout, isHoneypotFilled } from './FormFields';
import { useFormDraft } from '@/hooks/useFormDraft';

/**
 * The privacy rights request form of `/privacy-request` (spec §3, §4, §8), driven by
 * `privacyRequestMachine`. On failure the error shows in a red alert and every input keeps its value.
 * Labelled by the page's heading (`#privacy-request-title`).
 */
export function PrivacyRequestForm() {
  const navigate = useNavigate();
  // The chart says when (machines/privacyRequestMachine.ts); the view says how.
  const outbox = useOutbox();
  const actor = useActorRef(
    privacyRequestMachine.provide({
      actions: {
        goToThankYou: () => navigate('/thank-you'),
        // a failed attempt that a later one may fix goes to the app-wide outbox (docs/architecture.md, "No request lost")
        keepForRetry: (_, request: KeepRequest | null) => outbox.keep(request),
      },
    }),
    { inspect: useInspect() },
  );
  const isSubmitting = useSelector(actor, (s) => s.matches({ form: 'submitting' }));
  // spec §4, §8: a kept request's error shows once it is stored (the machine's submitting.keeping)
  const error = useSelector(actor, (s) => (s.matches({ form: 'submitting' }) ? null : s.context.error));
  const draft = useFormDraft(actor);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const request = privacyRequestFromFormData(data);
    actor.send({ type: 'form.submit', payload: privacyRequestToInvitePayload(request), trapFilled: isHoneypotFilled(data) });
  };

  return (
    <form
      {...draft}
      className={formLayout}
      onSubmit={submit}
      onFocus={() => actor.send({ type: 'form.engage' })}
      aria-labelledby="privacy-request-title"
    >
      <p>{copy.requiredNote}</p>
      <fieldset className={fieldset}>
        <TextField name="fullName" label={copy.fullName} required autoComplete="name" />
        <TextField name="email" label={copy.email} type="email" required autoComplete="email" hint={copy.emailHint} />
        <TextField name="company" label={copy.company} autoComplete="organization" />
        <CheckboxGroup name="requestType" legend={copy.requestType} options={PRIVACY_REQUEST_TYPES} />
        <TextField name="additionalDetails" label={copy.additionalDetails} rows={4} maxLength={ADDITIONAL_DETAILS_MAX_LENGTH} />
        <Honeypot />
      </fieldset>
      {error && (
        <ErrorAlert title={copy.errorTitle} message={error} help={copy.errorAfter} />
      )}
      <SubmitButton submitting={isSubmitting} label={copy.submit} submittingLabel={copy.submitting} />
    </form>
  );
}
