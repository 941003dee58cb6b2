import type { ReactNode } from 'react';
import { TEXT_LIMITS } from '#shared/submission';
import * as fields from '@/components/FormFields.css';
import * as styles from './Decision.css';
import { Field } from './Field';

/**
 * A decision that carries a reason told to the person (an invite's decline, a privacy request's
 * extension): a group named by `legend`, the reason's text box, then the decision's button (`children`).
 * @param id - the text box's id
 * @param reason - the text box's value; `onReason` receives each change
 */
export function ReasonDecision(props: { legend: string; id: string; label: string; reason: string; onReason: (reason: string) => void; children: ReactNode }) {
  return (
    <fieldset className={styles.group}>
      <legend className={styles.legend}>{props.legend}</legend>
      <Field htmlFor={props.id} label={props.label}>
        <textarea id={props.id} className={fields.textarea} rows={2} maxLength={TEXT_LIMITS.long} value={props.reason} onChange={(event) => props.onReason(event.target.value)} />
      </Field>
      <div className={styles.buttons}>{props.children}</div>
    </fieldset>
  );
}
