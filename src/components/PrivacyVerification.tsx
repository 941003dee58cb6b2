import { useActorRef, useSelector } from '@xstate/react';
import { useCallback, useRef } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { ErrorAlert } from './FormFields';
import { offScreen } from './FormFields.css';
import { verifyPage as copy } from '@/content/verifyPrivacyRequest';
import { useInspect } from '@/context/inspect';
import { useAfterHydration } from '@/hooks/useAfterHydration';
import { verifyMachine, type VerifiedRequest } from '#machines/verifyMachine';
import { button } from '@/styles/button';
import * as styles from './PrivacyVerification.css';

const LONG_DATE = { dateStyle: 'long', timeZone: 'UTC' } as const;

/** `November 25, 2026`, in UTC: the date as the confirmation email states it. */
function longDate(iso: string): string {
  return new Intl.DateTimeFormat('en-US', LONG_DATE).format(new Date(iso));
}

/** The request a link confirms: the date it was received and its types, nothing else (11 CCR §7060). */
function RequestSummary({ request }: { request: VerifiedRequest }) {
  return (
    <dl className={styles.summary} aria-label={copy.requestLabel}>
      <div>
        <dt className={styles.term}>{copy.receivedLabel}</dt>
        <dd className={styles.value}>{longDate(request.receivedAt)}</dd>
      </div>
      <div>
        <dt className={styles.term}>{copy.typesLabel}</dt>
        <dd className={styles.value}>{request.requestTypes.join(', ')}</dd>
      </div>
    </dl>
  );
}

/**
 * One link's verification on `/privacy-request/verify` (11 CCR §7060), driven by
 * `verifyMachine`: shows the request the link confirms, and confirms it only on "Confirm it's me". The
 * page (src/pages/VerifyPrivacyRequest.tsx) has already moved the token out of the address bar, into the
 * history entry's state, where it is read. Prerendered as "Checking your link…". A polite status line
 * says what the page is doing; a failure is an alert; after a press, focus goes to what replaced the
 * button (the outcome's heading), or stays on it.
 */
export function PrivacyVerification() {
  const location = useLocation();
  const actor = useActorRef(verifyMachine, { input: { hash: location.hash, state: location.state as unknown }, inspect: useInspect() });
  const machineState = useSelector(actor, (s) => s.value);
  const request = useSelector(actor, (s) => s.context.request);
  const error = useSelector(actor, (s) => s.context.error);
  // The prerendered page (no token at build time) and its hydration show "Checking your link…"; the
  // machine's state from the render after.
  const hydrated = useAfterHydration(() => true, false);
  const state = hydrated ? machineState : 'opening';
  // After a press, what appears in the button's place takes the focus (keyboard, screen readers).
  // (a stable ref callback: React calls it when an element mounts, not on every render)
  const pressed = useRef(false);
  const focusIfPressed = useCallback((element: HTMLElement | null) => {
    if (element && pressed.current) element.focus();
  }, []);
  const press = (event: 'verify.confirm' | 'verify.retry') => {
    pressed.current = true;
    actor.send({ type: event });
  };
  const busy = state === 'opening' || state === 'lookingUp' || state === 'confirming';

  const outcome = (title: string, body: string, links: 'home' | 'new request') => (
    <div className={styles.outcome}>
      <h2 className={styles.outcomeTitle} tabIndex={-1} ref={focusIfPressed}>
        {title}
      </h2>
      {request && <RequestSummary request={request} />}
      <p>{body}</p>
      {links === 'home' ? (
        <Link to="/" className={button({ tone: 'secondary' })}>
          {copy.backHome}
        </Link>
      ) : (
        <Link to="/privacy-request" className={button({ tone: 'primary' })}>
          {copy.newRequest}
        </Link>
      )}
    </div>
  );

  let body;
  switch (state) {
    case 'ready':
    case 'confirming':
      body = (
        <>
          {request && <RequestSummary request={request} />}
          {error && <ErrorAlert title={copy.errorTitle} message={error} />}
          {/* aria-disabled, not disabled, while confirming: the button keeps the focus, and has it again if
              the call fails; a press meanwhile is an event the machine does not take there */}
          <button
            type="button"
            className={button({ tone: 'primary' })}
            aria-disabled={state === 'confirming'}
            ref={focusIfPressed}
            onClick={() => press('verify.confirm')}
          >
            {state === 'confirming' ? copy.confirming : copy.confirm}
          </button>
          <p className={styles.note}>{copy.notYours}</p>
        </>
      );
      break;
    case 'lookupFailed':
      body = (
        <>
          <ErrorAlert title={copy.errorTitle} message={error ?? ''} />
          <button type="button" className={button({ tone: 'primary' })} ref={focusIfPressed} onClick={() => press('verify.retry')}>
            {copy.retry}
          </button>
        </>
      );
      break;
    case 'confirmed':
      body = outcome(copy.confirmedTitle, copy.confirmedBody, 'home');
      break;
    case 'alreadyConfirmed':
      body = outcome(copy.alreadyTitle, copy.alreadyBody, 'home');
      break;
    case 'invalid':
      body = outcome(copy.invalidTitle, copy.invalidBody, 'new request');
      break;
    default:
      body = <p aria-hidden="true">{copy.checking}</p>;
  }

  return (
    <>
      {/* what the page is doing, announced politely; failures are alerts, outcomes take the focus */}
      <p role="status" className={offScreen}>
        {busy ? (state === 'confirming' ? copy.confirming : copy.checking) : state === 'ready' ? copy.found : ''}
      </p>
      <div className={styles.panel} aria-busy={busy}>
        {body}
      </div>
    </>
  );
}
