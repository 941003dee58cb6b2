import { useId, useState } from 'react';
import type { Cohort, QueueFilters as Filters, QueuePage, QueueState } from '#shared/team';
import * as fields from '@/components/FormFields.css';
import { Field } from './Field';
import { KIND_LABELS, QUEUE_STATE_ORDER, STATE_LABELS } from './labels';
import * as styles from './Queue.css';

interface QueueFiltersProps {
  filters: Filters;
  counts: QueuePage['counts'];
  cohorts: readonly Cohort[];
  /** a kind, state or cohort chosen (the text stays) */
  onFilter: (filters: Omit<Filters, 'q'>) => void;
  /** the text typed, at each keystroke (the queue waits for a pause) */
  onSearch: (q: string) => void;
}

/**
 * The queue's filters: kind, state (each with its count from the last answer), cohort, and text (name,
 * email, company). A search landmark; each control has a visible label.
 */
export function QueueFilters({ filters, counts, cohorts, onFilter, onSearch }: QueueFiltersProps) {
  const id = useId();
  // the text as typed: the machine holds the search it asked for
  const [text, setText] = useState(filters.q ?? '');
  const chosen = { kind: filters.kind, state: filters.state, cohort: filters.cohort };
  const choose = (key: 'kind' | 'state' | 'cohort', value: string) => onFilter({ ...chosen, [key]: value || undefined });
  return (
    <form role="search" aria-label="Filter the queue" className={styles.filters} onSubmit={(event) => event.preventDefault()}>
      <Field htmlFor={`${id}-q`} label="Search">
        <input
          id={`${id}-q`}
          className={fields.input}
          type="search"
          name="q"
          value={text}
          maxLength={200}
          placeholder="Name, email or company"
          onChange={(event) => {
            setText(event.target.value);
            onSearch(event.target.value);
          }}
        />
      </Field>
      <Field htmlFor={`${id}-kind`} label="Kind">
        <select id={`${id}-kind`} className={fields.input} name="kind" value={filters.kind ?? ''} onChange={(event) => choose('kind', event.target.value)}>
          <option value="">Any kind</option>
          <option value="invite">{KIND_LABELS.invite}</option>
          <option value="privacy">{KIND_LABELS.privacy}</option>
        </select>
      </Field>
      <Field htmlFor={`${id}-state`} label="State">
        <select id={`${id}-state`} className={fields.input} name="state" value={filters.state ?? ''} onChange={(event) => choose('state', event.target.value)}>
          <option value="">Any state</option>
          {QUEUE_STATE_ORDER.map((state: QueueState) => (
            <option key={state} value={state}>
              {STATE_LABELS[state]}
              {counts[state] === undefined ? '' : ` (${counts[state]})`}
            </option>
          ))}
        </select>
      </Field>
      <Field htmlFor={`${id}-cohort`} label="Cohort">
        <select id={`${id}-cohort`} className={fields.input} name="cohort" value={filters.cohort ?? ''} onChange={(event) => choose('cohort', event.target.value)}>
          <option value="">Any cohort</option>
          {cohorts.map((cohort) => (
            <option key={cohort.id} value={cohort.name}>
              {cohort.name}
            </option>
          ))}
        </select>
      </Field>
    </form>
  );
}
