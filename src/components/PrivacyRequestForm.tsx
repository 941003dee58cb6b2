import { useActorRef, useSelector } from '@xstate/react';
import { privacyRequestPage as copy } from '@/content/privacyRequest';
import { useInspect } from '@/context/inspect';
import { ADDITIONAL_DETAILS_MAX_LENGTH, PRIVACY_REQUEST_TYPES, privacyRequestFromFormData, privacyRequestToInvitePayload } from '@/forms/privacyRequest';
import { privacyRequestMachine } from '#machines/privacyRequestMachine';
import { CheckboxGroup, ErrorAlert, Honeypot, SubmitButton, TextField, fieldset, formLayout } from './FormFields';
import { useFormDraft } from '@/hooks/useFormDraft';
import { submissionFormEvents, useSubmissionActions } from '@/hooks/useSubmissionForm';

/**
 * The privacy rights request form of `/privacy-request` (spec §3, §4, §8), driven by
 * `privacyRequestMachine`. On failure the error shows in a red alert and every input keeps its value.
 * Labelled by the page's heading (`#privacy-request-title`).
 */
export function PrivacyRequestForm() {
  // The chart says when (machines/privacyRequestMachine.ts); the view says how.
  const actor = useActorRef(privacyRequestMachine.provide({ actions: useSubmissionActions() }), { inspect: useInspect() });
  const isSubmitting = useSelector(actor, (s) => s.matches({ form: 'submitting' }));
  // spec §4, §8: a kept request's error shows once it is stored (the machine's submitting.keeping)
  const error = useSelector(actor, (s) => (s.matches({ form: 'submitting' }) ? null : s.context.error));
  const draft = useFormDraft(actor);

  const payloadOf = (data: FormData) => privacyRequestToInvitePayload(privacyRequestFromFormData(data));

  return (
    <form {...draft} {...submissionFormEvents(actor, payloadOf)} className={formLayout} aria-labelledby="privacy-request-title">
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
