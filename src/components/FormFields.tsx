import { useId, type ReactNode } from 'react';
import { useAfterHydration } from '@/context/useAfterHydration';
import { button } from '@/styles/button.css';
import * as styles from './FormFields.css';

export { fieldset, form as formLayout, legend } from './FormFields.css';

interface TextFieldProps {
  /** the payload field this input fills */
  name: string;
  label: ReactNode;
  type?: 'text' | 'email' | 'url' | 'date';
  required?: boolean;
  placeholder?: string;
  autoComplete?: string;
  hint?: string;
  /** render a textarea of this many rows */
  rows?: number;
}

/** A labelled text input or textarea, its hint tied with aria-describedby; the browser validates it (spec §5). */
export function TextField({ name, label, type = 'text', required, placeholder, autoComplete, hint, rows }: TextFieldProps) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const common = {
    id,
    name,
    required,
    placeholder,
    autoComplete,
    'aria-describedby': hintId,
  };
  return (
    <div className={styles.field}>
      <label htmlFor={id} className={styles.label}>
        {label}
        {required && (
          <span className={styles.required} aria-hidden="true">
            *
          </span>
        )}
      </label>
      {hint && (
        <p id={hintId} className={styles.hint}>
          {hint}
        </p>
      )}
      {rows ? (
        <textarea {...common} rows={rows} className={styles.textarea} />
      ) : (
        <input {...common} type={type} className={styles.input} />
      )}
    </div>
  );
}

/** A group of checkboxes sharing `name`; each checked box sends its label as the value (spec §3). */
export function CheckboxGroup({ name, legend, options }: { name: string; legend: string; options: readonly string[] }) {
  return (
    <fieldset className={styles.choiceGroup}>
      <legend className={styles.choiceLegend}>{legend}</legend>
      <div className={styles.choices}>
        {options.map((option) => (
          <label key={option} className={styles.choice}>
            <input type="checkbox" name={name} value={option} className={styles.checkbox} />
            <span>{option}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** A single required-or-not checkbox with a rich label. */
export function Checkbox({ name, required, children }: { name: string; required?: boolean; children: ReactNode }) {
  return (
    <label className={styles.choice}>
      <input type="checkbox" name={name} value="true" required={required} className={styles.checkbox} />
      <span>
        {children}
        {required && (
          <span className={styles.required} aria-hidden="true">
            *
          </span>
        )}
      </span>
    </label>
  );
}

/** The red error box of spec §8, announced to screen readers (`role="alert"`): title, the error text, help. */
export function ErrorAlert({ title, message, help }: { title: string; message: string; help?: string }) {
  return (
    <div role="alert" className={styles.alert}>
      <p className={styles.alertTitle}>{title}</p>
      <p className={styles.alertMessage}>{message}</p>
      {help && <p className={styles.alertHelp}>{help}</p>}
    </div>
  );
}

/**
 * A form's submit button (spec §4): reads `submittingLabel` and is disabled while `submitting`.
 * It is also disabled until the prerendered page is hydrated: a submit before then would be the
 * browser's own GET, putting what the visitor typed in the address.
 */
export function SubmitButton({ submitting, label, submittingLabel }: { submitting: boolean; label: string; submittingLabel: string }) {
  const hydrated = useAfterHydration(() => true, false);
  return (
    <div className={styles.actions}>
      <button type="submit" className={button({ tone: 'primary' })} disabled={!hydrated || submitting}>
        {submitting ? submittingLabel : label}
      </button>
    </div>
  );
}
