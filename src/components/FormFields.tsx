import { useId, type ChangeEvent, type ReactNode } from 'react';
import { TEXT_LIMITS } from '#shared/submission';
import { BLANK, textProblem } from '#shared/text';
import { useAfterHydration } from '@/hooks/useAfterHydration';
import { button } from '@/styles/button';
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
  /** a tighter limit than the server's for this kind of field, in characters */
  maxLength?: number;
}

/** The browser's own message for an empty required field (Chromium's wording), used for one of only spaces. */
const REQUIRED_MESSAGE = 'Please fill out this field.';

/** The server's length limit for a field (DESIGN.md §4, shared/submission.ts), in characters. */
function maxLengthOf(type: TextFieldProps['type'], multiline: boolean): number | undefined {
  if (multiline) return TEXT_LIMITS.long;
  if (type === 'email') return TEXT_LIMITS.email;
  if (type === 'url') return TEXT_LIMITS.url;
  if (type === 'date') return undefined;
  return TEXT_LIMITS.short;
}

/**
 * The server's text rule (shared/text.ts), told in the browser's own way: a value the server would
 * refuse with a 400 makes the field invalid, so the form is refused on that field with a sentence
 * saying why, and nothing is sent (spec §5). A required field of only spaces, line breaks or
 * invisible characters gets the browser's usual "Please fill out this field."
 */
function checkText(event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>, required: boolean) {
  const field = event.currentTarget;
  const problem = field.value === '' ? null : textProblem(field.value, { required, multiline: field instanceof HTMLTextAreaElement });
  // the server counts the NFC form it stores, which a few scripts make longer than what was typed
  const stored = field.value.normalize('NFC').length;
  const tooLong = field.maxLength > 0 && stored > field.maxLength ? `is longer than ${field.maxLength} characters once stored` : null;
  const message = problem ?? tooLong;
  field.setCustomValidity(message === null ? '' : message === BLANK ? REQUIRED_MESSAGE : `This field ${message}.`);
}

/**
 * A labelled text input or textarea, its hint tied with aria-describedby; the browser validates it
 * (spec §5), with the server's length limit as `maxLength` and its text rule ({@link checkText}).
 */
export function TextField({ name, label, type = 'text', required, placeholder, autoComplete, hint, rows, maxLength }: TextFieldProps) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const common = {
    id,
    name,
    required,
    placeholder,
    autoComplete,
    maxLength: maxLength ?? maxLengthOf(type, Boolean(rows)),
    onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => checkText(event, Boolean(required)),
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
      {/* The change of state is announced, not only shown on a button that has just been disabled */}
      <p aria-live="polite" className={styles.offScreen}>
        {submitting ? submittingLabel : ''}
      </p>
    </div>
  );
}

/**
 * Name of the honeypot input: not a field of the §7.1 payload. Chosen to match none of the
 * browsers' autofill types (a name with "fax", "phone" or "company" could be filled for a real visitor,
 * whose request would then be dropped).
 */
export const HONEYPOT_NAME = 'leaveEmpty';

/**
 * A honeypot: an input placed off-screen that people never see or reach with the keyboard
 * (`tabIndex={-1}`), labelled for screen readers as "Leave this field empty"; bots that fill every
 * field fill it too, and then nothing is sent (the form machines' `isTrapFilled` guard).
 */
export function Honeypot() {
  const id = useId();
  return (
    <div className={styles.offScreen}>
      <label htmlFor={id}>Leave this field empty</label>
      <input id={id} type="text" name={HONEYPOT_NAME} tabIndex={-1} autoComplete="off" defaultValue="" />
    </div>
  );
}

/** True when the form's honeypot was filled (a bot): read from the submitted form's data. */
export function isHoneypotFilled(data: FormData): boolean {
  const value = data.get(HONEYPOT_NAME);
  return typeof value === 'string' && value.trim() !== '';
}
