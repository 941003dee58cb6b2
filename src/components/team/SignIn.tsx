import { ADD_MEMBER_COMMAND, signInCopy as copy } from '@/content/team';
import { TeamSessionContext } from '@/context/team';
import { PasskeyButton } from './PasskeyButton';
import * as styles from './TeamPanel.css';

/**
 * The console's sign-in screen: one button, one passkey ceremony (machines/teamSessionMachine.ts). The
 * button keeps the focus while it cannot be pressed (`aria-disabled`: checking the session, or waiting for
 * the passkey), and a live region says what is happening and why the last attempt failed.
 */
export function SignIn() {
  const session = TeamSessionContext.useActorRef();
  const checking = TeamSessionContext.useSelector((s) => s.matches('checking'));
  const signingIn = TeamSessionContext.useSelector((s) => s.matches({ signedOut: 'signingIn' }));
  const canSignIn = TeamSessionContext.useSelector((s) => s.can({ type: 'session.signIn' }));
  const message = TeamSessionContext.useSelector((s) => s.context.message);
  const status = checking ? copy.checking : signingIn ? copy.waiting : message;
  return (
    <section className={styles.panel} aria-labelledby="sign-in-title">
      <h1 id="sign-in-title" className={styles.title}>
        {copy.title}
      </h1>
      <p className={styles.text}>{copy.intro}</p>
      <PasskeyButton label={copy.button} enabled={canSignIn} onPress={() => session.send({ type: 'session.signIn' })} status={status} />
      <p className={styles.text}>
        {copy.access} <code className={styles.command}>{ADD_MEMBER_COMMAND}</code> {copy.accessAfter}
      </p>
    </section>
  );
}
