import { useId, useState } from 'react';
import { TEXT_LIMITS } from '#shared/submission';
import { button } from '@/styles/button';
import * as fields from '@/components/FormFields.css';
import { Field } from './Field';
import * as styles from './Request.css';
import { RequestBlock } from './RequestBlock';

interface NoteBoxProps {
  /** a note is being added */
  saving: boolean;
  /** why the last note was not added */
  error: string | null;
  /** how many notes were added: the box is emptied after each */
  added: number;
  onAdd: (text: string) => void;
}

/** The note box: a note goes to the request's timeline with who and when; what was typed stays if it failed. */
export function NoteBox({ saving, error, added, onAdd }: NoteBoxProps) {
  const id = useId();
  const [text, setText] = useState('');
  const [cleared, setCleared] = useState(added);
  if (cleared !== added) {
    // a note was added: the box starts empty again (state adjusted while rendering, as React advises)
    setCleared(added);
    setText('');
  }
  return (
    <RequestBlock id={`${id}-title`} title="Add a note">
      <form
        className={styles.block}
        onSubmit={(event) => {
          event.preventDefault();
          onAdd(text);
        }}
      >
        <Field htmlFor={`${id}-text`} label="Note (kept in the timeline, never mailed)">
          <textarea id={`${id}-text`} name="text" className={fields.textarea} rows={3} maxLength={TEXT_LIMITS.long} required value={text} onChange={(event) => setText(event.target.value)} />
        </Field>
        {error && (
          <p role="alert" className={fields.alertTitle}>
            {error}
          </p>
        )}
        <div>
          <button type="submit" className={button({ tone: 'secondary' })} disabled={saving || text.trim() === ''}>
            {saving ? 'Adding…' : 'Add note'}
          </button>
        </div>
      </form>
    </RequestBlock>
  );
}
