import { useActorRef, useSelector } from '@xstate/react';
import { useRef } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { ErrorAlert } from '@/components/FormFields';
import { PageMeta } from '@/components/PageMeta';
import { verifyPage as copy } from '@/content/verifyPrivacyRequest';
import { useInspect } from '@/context/inspect';
import { useAfterHydration } from '@/context/useAfterHydration';
import { verifyMachine, type VerifiedRequest } from '#machines/verifyMachine';
import { button } from '@/styles/button.css';
import { container, lede, pageTitle, prose, section } from '@/styles/layout.css';
import * as styles from './VerifyPrivacyRequest.css';

const LONG_DATE = { dateStyle: 'long', timeZone: 'UTC' } as const;

/** `November 25, 2026`, in UTC: the date as the confirmation email states it. */
function longDate(iso: string): string {
  return new Intl.DateTimeFormat('en-US', LONG_DATE).format(new Date(iso));
}

/** The request a link confirms: the date it was received and its types, nothing else (issue #27). */
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
 * `/privacy-request/verify` (issue #27, 11 CCR §7060): the page a privacy request's verification link
 * opens, driven by `verifyMachine`. It shows the request the link confirms and confirms it only on
 * "Confirm it's me"; the token leaves the address bar at once (into the history entry's state, which a
 * reload keeps). Prerendered as "Checking your link…", with a `<noscript>` way to confirm by reply.
 */
export function VerifyPrivacyRequest() {
  const location = useLocation();
  const navigate = useNavigate();
  const actor = useActorRef(
    verifyMachine.provide({
      actions: {
        hideToken: ({ context }) => {
          void navigate({ pathname: location.pathname, search: location.search }, { replace: true, state: { verificationToken: context.token } });
        },
      },
    }),
    { input: { hash: location.hash, state: location.state as unknown }, inspect: useInspect() },
  );
  const machineState = useSelector(actor, (s) => s.value);
  const request = useSelector(actor, (s) => s.context.request);
  const error = useSelector(actor, (s) => s.context.error);
  // The prerendered page (no token at build time) and its hydration show "Checking your link…"; the
  // machine's state from the render after.
  const hydrated = useAfterHydration(() => true, false);
  const state = hydrated ? machineState : 'opening';
  // After a press, the outcome's heading takes the focus the vanished button had (keyboard, screen readers).
  const pressed = useRef(false);
  const focusIfPressed = (heading: HTMLHeadingElement | null) => {
    if (heading && pressed.current) heading.focus();
  };
  const press = (event: 'verify.confirm' | 'verify.retry') => {
    pressed.current = true;
    actor.send({ type: event });
  };

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
          <button
            type="button"
            className={button({ tone: 'primary' })}
            disabled={state === 'confirming'}
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
          <button type="button" className={button({ tone: 'primary' })} onClick={() => press('verify.retry')}>
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
      body = <p>{copy.checking}</p>;
  }

  return (
    <div className={section}>
      <PageMeta route="/privacy-request/verify" />
      <div className={`${container} ${prose}`}>
        <h1 className={pageTitle}>{copy.title}</h1>
        <p className={lede}>{copy.intro}</p>
        <noscript>
          <p>{copy.noScript}</p>
        </noscript>
        {/* each state's change is announced: the look-up's result, a failure, the outcome */}
        <div className={styles.panel} aria-live="polite" aria-busy={state === 'opening' || state === 'lookingUp' || state === 'confirming'}>
          {body}
        </div>
      </div>
    </div>
  );
}
