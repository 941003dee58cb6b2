import type { ReactNode } from 'react';
import * as fields from '@/components/FormFields.css';

/**
 * A labelled control of the console's forms: its label, then `children`: the control whose id is
 * `htmlFor`, and a hint before it if it has one.
 * @param htmlFor - the control's id
 */
export function Field({ htmlFor, label, children }: { htmlFor: string; label: ReactNode; children: ReactNode }) {
  return (
    <div className={fields.field}>
      <label className={fields.label} htmlFor={htmlFor}>
        {label}
      </label>
      {children}
    </div>
  );
}
