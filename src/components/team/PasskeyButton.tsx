import type { ReactNode } from 'react';
import { button } from '@/styles/button';
import * as styles from './TeamPanel.css';

/**
 * The one button of a passkey ceremony (sign-in, enrollment) and the live region under it. The button
 * keeps the focus while it cannot be pressed (`aria-disabled`, and a press then does nothing); the
 * region says what is happening and why the last attempt failed.
 * @param enabled - whether the ceremony can start now (the machine accepts its event)
 * @param onPress - starts it; called only while `enabled`
 * @param status - the live region's text (empty: the region takes no room)
 */
export function PasskeyButton({ label, enabled, onPress, status }: { label: string; enabled: boolean; onPress: () => void; status: ReactNode }) {
  return (
    <>
      <button
        type="button"
        className={`${button({ tone: 'primary' })} ${styles.action}`}
        aria-disabled={!enabled}
        onClick={() => {
          if (enabled) onPress();
        }}
      >
        {label}
      </button>
      <p role="status" className={styles.status}>
        {status}
      </p>
    </>
  );
}
