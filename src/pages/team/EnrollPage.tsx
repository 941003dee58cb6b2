import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useMemo } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { enrollCopy as copy, NEW_LINK_COMMAND } from '@/content/team';
import { useInspect } from '@/context/inspect';
import { TeamSessionContext } from '@/context/team';
import { PasskeyButton } from '@/components/team/PasskeyButton';
import * as panel from '@/components/team/TeamPanel.css';
import { hasStrippedFragment, isVerificationFragment, takeStrippedFragment, tokenOfFragment } from '@/utils/verificationFragment';
import { teamEnrollMachine } from '#machines/teamEnrollMachine';
import { TEAM_PATHS } from '#shared/team';
import { VERIFICATION_TOKEN_PATTERN } from '#shared/verification';

/** The enrollment token of the page's address: in the history entry's state (`{ enrollmentToken }`), where the page moves it. */
function enrollmentTokenOf(state: unknown): string | null {
  const token = (state as { enrollmentToken?: unknown } | null)?.enrollmentToken;
  return typeof token === 'string' && VERIFICATION_TOKEN_PATTERN.test(token) ? token : null;
}

/**
 * `/team/enroll`, where an enrollment link leads (`#token=…`, from `npm run requests -- team add|link`).
 * The entry (src/main.tsx) took the token out of the address bar before anything else ran; the page moves
 * it into the history entry's state (which a reload keeps, and no address shows), then offers one button
 * that registers this device's passkey (machines/teamEnrollMachine.ts). Not behind the sign-in gate: the
 * link is how a member gets in.
 */
export function EnrollPage() {
  const { pathname, hash, state, key } = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    // a fragment the router still holds (a test's memory router) is taken here
    const stripped = takeStrippedFragment(TEAM_PATHS.enroll);
    if (stripped === null && !isVerificationFragment(hash)) return;
    void navigate({ pathname }, { replace: true, state: { enrollmentToken: stripped ? stripped.token : tokenOfFragment(hash) } });
  }, [navigate, pathname, hash, key]);
  const token = enrollmentTokenOf(state);
  // until the token is moved, nothing of the link is shown: not "no link" for a moment
  const moving = hasStrippedFragment(TEAM_PATHS.enroll) || isVerificationFragment(hash);
  return (
    <section className={panel.panel} aria-labelledby="enroll-title">
      <h1 id="enroll-title" className={panel.title}>
        {copy.title}
      </h1>
      {!moving && <Enrollment key={token ?? 'none'} token={token} />}
    </section>
  );
}

/** One link's enrollment: its machine, for the token it starts from. */
function Enrollment({ token }: { token: string | null }) {
  const session = TeamSessionContext.useActorRef();
  const navigate = useNavigate();
  const machine = useMemo(
    () =>
      teamEnrollMachine.provide({
        actions: {
          handOverSession: (_, member) => session.send({ type: 'session.enrolled', member }),
          goToConsole: () => void navigate(TEAM_PATHS.queue, { replace: true }),
        },
      }),
    [session, navigate],
  );
  const enrollment = useActorRef(machine, { input: { token }, inspect: useInspect() });
  const noToken = useSelector(enrollment, (s) => s.matches('noToken'));
  const gone = useSelector(enrollment, (s) => s.matches('gone'));
  const registering = useSelector(enrollment, (s) => s.matches('registering'));
  const canRegister = useSelector(enrollment, (s) => s.can({ type: 'enroll.register' }));
  const error = useSelector(enrollment, (s) => s.context.error);
  if (noToken || gone) {
    return (
      <>
        <h2>{noToken ? copy.noTokenTitle : copy.goneTitle}</h2>
        <p className={panel.text}>
          {noToken ? copy.noToken : copy.gone} <code className={panel.command}>{NEW_LINK_COMMAND}</code>.
        </p>
        <p role="status" className={panel.status} />
      </>
    );
  }
  return (
    <>
      <p className={panel.text}>{copy.intro}</p>
      <PasskeyButton
        label={copy.button}
        enabled={canRegister}
        onPress={() => enrollment.send({ type: 'enroll.register' })}
        status={registering ? copy.registering : error}
      />
    </>
  );
}
