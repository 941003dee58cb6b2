import { useId, useState, type ReactNode } from 'react';
import { TEXT_LIMITS } from '#shared/submission';
import type { CohortFieldErrors, NewCohort } from '#machines/teamCohortsMachine';
import { button } from '@/styles/button';
import * as fields from '@/components/FormFields.css';
import * as styles from './Cohorts.css';
import { Field } from './Field';

interface CohortFormProps {
  adding: boolean;
  errors: CohortFieldErrors;
  /** how many cohorts were created: the form is emptied after each */
  created: number;
  onAdd: (cohort: NewCohort) => void;
}

/** One field of the form, its problem beside it (and named by it: aria-describedby, aria-invalid). */
function CohortField({ id, label, error, children }: { id: string; label: string; error?: string; children: (props: { id: string; 'aria-invalid': boolean; 'aria-describedby'?: string }) => ReactNode }) {
  return (
    <Field htmlFor={id} label={label}>
      {children({ id, 'aria-invalid': Boolean(error), ...(error ? { 'aria-describedby': `${id}-error` } : {}) })}
      {error && (
        <p id={`${id}-error`} className={styles.error}>
          {error}
        </p>
      )}
    </Field>
  );
}

/** Creates a cohort: a name, the date it starts, and a capacity (empty: no limit); each problem shown by its field. */
export function CohortForm({ adding, errors, created, onAdd }: CohortFormProps) {
  const id = useId();
  const [name, setName] = useState('');
  const [startsOn, setStartsOn] = useState('');
  const [capacity, setCapacity] = useState('');
  const [cleared, setCleared] = useState(created);
  if (cleared !== created) {
    // a cohort was created: the form starts empty again
    setCleared(created);
    setName('');
    setStartsOn('');
    setCapacity('');
  }
  return (
    <form
      noValidate
      aria-labelledby={`${id}-title`}
      className={fields.form}
      onSubmit={(event) => {
        event.preventDefault();
        onAdd({ name, startsOn, capacity: capacity.trim() === '' ? null : Number(capacity) });
      }}
    >
      <h2 id={`${id}-title`}>Create a cohort</h2>
      <CohortField id={`${id}-name`} label="Name" error={errors.name}>
        {(props) => <input {...props} className={fields.input} name="name" maxLength={TEXT_LIMITS.short} required value={name} onChange={(event) => setName(event.target.value)} />}
      </CohortField>
      <CohortField id={`${id}-starts`} label="Start date" error={errors.startsOn}>
        {(props) => <input {...props} className={fields.input} type="date" name="startsOn" required value={startsOn} onChange={(event) => setStartsOn(event.target.value)} />}
      </CohortField>
      <CohortField id={`${id}-capacity`} label="Capacity (optional: empty for no limit)" error={errors.capacity}>
        {(props) => (
          <input {...props} className={fields.input} type="number" inputMode="numeric" min={1} step={1} name="capacity" value={capacity} onChange={(event) => setCapacity(event.target.value)} />
        )}
      </CohortField>
      {errors.form && (
        <p role="alert" className={styles.error}>
          {errors.form}
        </p>
      )}
      <div>
        <button type="submit" className={button({ tone: 'primary' })} disabled={adding}>
          {adding ? 'Creating…' : 'Create cohort'}
        </button>
      </div>
    </form>
  );
}
