import { PageMeta } from '@/components/PageMeta';
import { useActorRef, useSelector } from '@xstate/react';
import type { FormEvent } from 'react';
import { sendTo } from 'xstate';
import { Link, useNavigate } from 'react-router-dom';
import { useInspect } from '@/context/inspect';
import { OutboxContext } from '@/context/actors';
import { useFormDraft } from '@/components/useFormDraft';
import { CheckboxGroup, ErrorAlert, Honeypot, SubmitButton, TextField, fieldset, formLayout, isHoneypotFilled } from '@/components/FormFields';
import { privacyRequestPage as copy, requestTypeMeanings } from '@/content/privacyRequest';
import { ADDITIONAL_DETAILS_MAX_LENGTH, PRIVACY_REQUEST_TYPES, privacyRequestFromFormData, privacyRequestToInvitePayload } from '@/forms/privacyRequest';
import { container, lede, pageTitle, prose, section } from '@/styles/layout.css';
import type { KeepRequest } from '#machines/outboxMachine';
import { privacyRequestMachine } from '#machines/privacyRequestMachine';
import * as styles from './PrivacyRequest.css';

/**
 * `/privacy-request` (spec §2, §3, §4, §8): the privacy rights request form, driven by
 * `privacyRequestMachine`. On failure the error shows in a red alert and every input keeps its value.
 */
export function PrivacyRequest() {
  const navigate = useNavigate();
  // The chart says when (machines/privacyRequestMachine.ts); the view says how.
  const outbox = OutboxContext.useActorRef();
  const actor = useActorRef(
    privacyRequestMachine.provide({
      actions: {
        goToThankYou: () => navigate('/thank-you'),
        // issue #12: a failed attempt that a later one may fix goes to the app-wide outbox
        keepForRetry: sendTo(outbox, (_, request: KeepRequest | null) => ({ type: 'outbox.keep' as const, request })),
      },
    }),
    { inspect: useInspect() },
  );
  const isSubmitting = useSelector(actor, (s) => s.matches({ form: 'submitting' }));
  const error = useSelector(actor, (s) => s.context.error);
  const draft = useFormDraft(actor);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const request = privacyRequestFromFormData(data);
    actor.send({ type: 'form.submit', payload: privacyRequestToInvitePayload(request), trapFilled: isHoneypotFilled(data) });
  };

  return (
    <div className={section}>
      <PageMeta route="/privacy-request" />
      <div className={`${container} ${prose}`}>
        <h1 id="privacy-request-title" className={pageTitle}>
          {copy.title}
        </h1>
        <p className={lede}>{copy.intro}</p>
        <p>
          {copy.policyLinkBefore}
          <Link to="/privacy">{copy.policyLink}</Link>. {copy.optOutNow}
        </p>
        <h2 className={styles.typesTitle}>{copy.typesTitle}</h2>
        <dl className={styles.types}>
          {PRIVACY_REQUEST_TYPES.map((type) => (
            <div key={type}>
              <dt className={styles.typeName}>{type}</dt>
              <dd className={styles.typeMeaning}>{requestTypeMeanings[type]}</dd>
            </div>
          ))}
        </dl>
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
      </div>
    </div>
  );
}
