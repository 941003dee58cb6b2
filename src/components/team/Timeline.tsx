import type { TimelineEntry } from '#shared/team';
import { fieldLabel, momentOf } from './format';
import { RequestBlock } from './RequestBlock';
import * as styles from './Request.css';

/**
 * A request's timeline, oldest first: its receipt, each mail with its delivery state, the verification,
 * each decision and note with who and when (server/db/timeline.ts). Details are inert text.
 */
export function Timeline({ entries }: { entries: readonly TimelineEntry[] }) {
  return (
    <RequestBlock id="timeline" title="Timeline">
      <ol className={styles.timeline}>
        {entries.map((entry, index) => {
          const { event, at, ...details } = entry;
          return (
            <li key={`${at}-${event}-${index}`}>
              <strong>{fieldLabel(event)}</strong> <time dateTime={at}>{momentOf(at)}</time>
              {Object.keys(details).length > 0 && (
                <span className={styles.entryDetails}>
                  {Object.entries(details)
                    .map(([key, value]) => `${fieldLabel(key)}: ${value}`)
                    .join(' · ')}
                </span>
              )}
            </li>
          );
        })}
      </ol>
    </RequestBlock>
  );
}
