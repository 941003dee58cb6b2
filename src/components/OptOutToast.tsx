import { OptOutToastContext } from '@/context/actors';
import * as styles from './Toast.css';

/** Spec §4 confirmation text. */
export const OPT_OUT_MESSAGE = 'You have opted out of tracking. Your preference has been saved.';

/**
 * The opt-out confirmation (spec §4, §9), shown while `optOutToastMachine` is `visible`. The message
 * sits in a polite live region (`role="status"`) that is always present, so it is announced without
 * taking focus; the Dismiss button sits beside it, outside the announced text.
 */
export function OptOutToast() {
  const toast = OptOutToastContext.useActorRef();
  const visible = OptOutToastContext.useSelector((s) => s.matches('visible'));
  return (
    <div className={styles.region}>
      <div className={visible ? styles.toast : styles.idle}>
        <p role="status" className={styles.message}>
          {visible ? OPT_OUT_MESSAGE : null}
        </p>
        {visible && (
          <button
            type="button"
            className={styles.dismiss}
            aria-label="Dismiss"
            onClick={() => toast.send({ type: 'toast.dismiss' })}
          >
            ×
          </button>
        )}
      </div>
    </div>
  );
}
