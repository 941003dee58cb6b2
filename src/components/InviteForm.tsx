import { useActorRef, useSelector } from '@xstate/react';
import { sendTo } from 'xstate';
import type { SubmissionBody } from '#shared/submission';
import { Link } from 'react-router-dom';
import { INVITE_SUBMITTED_EVENT } from '@/config/site';
import { useInspect } from '@/context/inspect';
import { ConsentContext } from '@/context/actors';
import { receiveInviteHandOvers } from '@/estimator/inviteHandOver';
import { MUST_HAVE_CAPABILITIES, PRIMARY_WORKLOADS, inviteForm as copy } from '@/content/inviteForm';
import { invitePayloadFromFormData } from '@/forms/invitePayload';
import { inviteMachine } from '#machines/inviteMachine';
import { Checkbox, CheckboxGroup, Honeypot, SubmitButton, TextField, fieldset, formLayout, legend } from './FormFields';
import * as styles from './FormFields.css';
import { useFormDraft } from '@/hooks/useFormDraft';
import { submissionFormEvents, useSubmissionActions } from '@/hooks/useSubmissionForm';

/**
 * The invite request form (spec §3, §5) driven by `inviteMachine` (spec §4): every input is named after
 * its payload field; the browser enforces §5; on `submitted` the visitor goes to /thank-you.
 */
export function InviteForm() {
  const consent = ConsentContext.useActorRef();
  const submissionActions = useSubmissionActions();
  // The chart says when (machines/inviteMachine.ts); the view says how: its named actions.
  const actor = useActorRef(
    inviteMachine.provide({
      actions: {
        ...submissionActions,
        // spec §4: submitting stores 'accepted' and turns analytics back on; spec §7.3: the analytics event
        // carries the same data as the body, and the consent machine sends it only while tracking is allowed.
        // A built-in sendTo, not consent.send(): the consent machine then runs after this step, not inside it.
        handOverToConsent: sendTo(consent, (_, { body }: { body: SubmissionBody | null }) => ({
          type: 'consent.accept' as const,
          analyticsEvent: body ? { event: INVITE_SUBMITTED_EVENT, properties: body.data } : undefined,
        })),
      },
    }),
    { inspect: useInspect() },
  );
  const isSubmitting = useSelector(actor, (s) => s.matches({ form: 'submitting' }));
  // the cost estimator's figures arrive as the visitor's own typing would (src/components/Estimator.tsx)
  const draft = useFormDraft(actor, receiveInviteHandOvers);

  return (
    <form {...draft} {...submissionFormEvents(actor, invitePayloadFromFormData)} className={formLayout} aria-labelledby="invite-title">
      <p className={styles.hint}>{copy.requiredNote}</p>
      <fieldset className={fieldset}>
        <legend className={legend}>{copy.groups.about}</legend>
        <TextField name="fullName" label={copy.fullName} required autoComplete="name" />
        <TextField name="workEmail" label={copy.workEmail} type="email" required autoComplete="email" />
        <TextField name="roleTitle" label={copy.roleTitle} required autoComplete="organization-title" />
        <TextField name="companyName" label={copy.companyName} required autoComplete="organization" />
        <TextField name="websiteUrl" label={copy.websiteUrl} type="url" autoComplete="url" hint={copy.websiteUrlHint} />
      </fieldset>
      <fieldset className={fieldset}>
        <legend className={legend}>{copy.groups.workload}</legend>
        <TextField
          name="useCaseDescription"
          label={copy.useCaseDescription}
          required
          rows={4}
          hint={copy.useCaseDescriptionHint}
        />
        {/* spec §5: no workload checkbox is required, so the group carries no required marker */}
        <CheckboxGroup name="primaryWorkloads" legend={copy.primaryWorkloads} options={PRIMARY_WORKLOADS} />
        <CheckboxGroup name="mustHaveCapabilities" legend={copy.mustHaveCapabilities} options={MUST_HAVE_CAPABILITIES} />
        <TextField
          name="estimatedMonthlyQueries"
          label={copy.estimatedMonthlyQueries}
          required
          placeholder={copy.estimatedMonthlyQueriesPlaceholder}
        />
        <TextField name="peakQPS" label={copy.peakQPS} required placeholder={copy.peakQPSPlaceholder} />
        <TextField name="targetLatency" label={copy.targetLatency} placeholder={copy.targetLatencyPlaceholder} />
        <TextField
          name="keyRegionsLanguages"
          label={copy.keyRegionsLanguages}
          placeholder={copy.keyRegionsLanguagesPlaceholder}
        />
      </fieldset>
      <fieldset className={fieldset}>
        <legend className={legend}>{copy.groups.logistics}</legend>
        <TextField name="desiredStartDate" label={copy.desiredStartDate} type="date" />
        <TextField name="budgetRange" label={copy.budgetRange} placeholder={copy.budgetRangePlaceholder} />
        <TextField name="notes" label={copy.notes} rows={3} />
      </fieldset>
      <Honeypot />
      <Checkbox name="consentGiven" required>
        {/* In a new tab, so that following them leaves the form as it is */}
        I agree to be contacted about the beta and accept the trial{' '}
        <Link to="/terms" target="_blank" rel="noopener">
          terms
        </Link>
        /
        <Link to="/privacy" target="_blank" rel="noopener">
          privacy policy
        </Link>
        .
      </Checkbox>
      <SubmitButton submitting={isSubmitting} label={copy.submit} submittingLabel={copy.submitting} />
    </form>
  );
}
