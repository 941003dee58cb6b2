import { useActorRef, useSelector } from '@xstate/react';
import { useMemo } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { BulkDecisions } from '@/components/team/BulkDecisions';
import { counted } from '@/components/team/format';
import { QueueFilters } from '@/components/team/QueueFilters';
import { QueueTable } from '@/components/team/QueueTable';
import * as styles from '@/components/team/Queue.css';
import * as fields from '@/components/FormFields.css';
import { useInspect } from '@/context/inspect';
import { TeamSessionContext } from '@/context/team';
import { teamDecisionMachine } from '#machines/teamDecisionMachine';
import { queueFiltersOf, queueQueryOf, teamQueueMachine } from '#machines/teamQueueMachine';
import { TEAM_PATHS } from '#shared/team';
import { button } from '@/styles/button';
import { container, pageTitle, section } from '@/styles/layout.css';

/** What the live region says: loading, or how many requests are shown (and whether more can be loaded), and how many are selected. */
function announcement(state: string, shown: number, more: boolean, selected: number): string {
  if (state === 'loading' || state === 'debouncing') return 'Loading requests…';
  if (state === 'loadingMore') return 'Loading more requests…';
  if (state === 'failed') return '';
  const list = shown === 0 ? 'No request matches these filters.' : `${counted(shown, 'request')} shown${more ? ', more to load' : ''}.`;
  return selected > 0 ? `${list} ${selected} selected.` : list;
}

/**
 * `/team`: the team's queue (machines/teamQueueMachine.ts). Its filters live in the address's query,
 * so a filtered queue reloads and is shared as a link; the table walks by keyboard; a selection of invite
 * requests takes a decision in bulk (machines/teamDecisionMachine.ts), after which the queue reloads. A
 * call answered 401 tells the session (src/context/team.ts).
 */
export function QueuePage() {
  const location = useLocation();
  const navigate = useNavigate();
  const inspect = useInspect();
  const session = TeamSessionContext.useActorRef();
  const endSession = () => session.send({ type: 'session.ended' });
  const queue = useActorRef(
    teamQueueMachine.provide({
      actions: {
        writeAddress: ({ context }) => {
          const query = queueQueryOf(context.filters);
          void navigate({ pathname: TEAM_PATHS.queue, search: query ? `?${query}` : '' }, { replace: true });
        },
        endSession,
      },
    }),
    { input: { filters: queueFiltersOf(new URLSearchParams(location.search)) }, inspect },
  );
  const decision = useActorRef(teamDecisionMachine.provide({ actions: { reloadChanged: () => queue.send({ type: 'queue.reload' }), endSession } }), { inspect });

  const state = useSelector(queue, (s) => (typeof s.value === 'string' ? s.value : ''));
  const filters = useSelector(queue, (s) => s.context.filters);
  const requests = useSelector(queue, (s) => s.context.requests);
  const counts = useSelector(queue, (s) => s.context.counts);
  const cohorts = useSelector(queue, (s) => s.context.cohorts);
  const selected = useSelector(queue, (s) => s.context.selected);
  const csvUrl = useSelector(queue, (s) => s.context.csvUrl);
  const error = useSelector(queue, (s) => s.context.error);
  const hasMore = useSelector(queue, (s) => s.context.next !== null);
  const deciding = useSelector(decision, (s) => !s.matches('idle'));
  const targets = useMemo(
    () => requests.filter((request) => selected.includes(request.id)).map((request) => ({ request, requestTypes: [] as string[] })),
    [requests, selected],
  );

  return (
    <div className={section}>
      <title>Queue · Sonde team</title>
      <div className={container}>
        <h1 className={pageTitle}>Queue</h1>
        <div className={styles.toolbar}>
          <QueueFilters
            filters={filters}
            counts={counts}
            cohorts={cohorts}
            onFilter={(next) => queue.send({ type: 'queue.filter', filters: next })}
            onSearch={(q) => queue.send({ type: 'queue.search', q })}
          />
          <button type="button" className={button({ tone: 'secondary' })} onClick={() => queue.send({ type: 'queue.reload' })}>
            Refresh
          </button>
          <a className={button({ tone: 'secondary' })} href={csvUrl} download>
            Export CSV
          </a>
        </div>
        <p id="queue-status" role="status" className={styles.keys}>
          {announcement(state, requests.length, hasMore, selected.length)}
        </p>
        {error && (
          <div role="alert" className={fields.alert}>
            <p className={fields.alertTitle}>{error}</p>
          </div>
        )}
        {state === 'failed' ? (
          <button type="button" className={button({ tone: 'primary' })} onClick={() => queue.send({ type: 'queue.retry' })}>
            Try again
          </button>
        ) : (
          <>
            <p id="queue-keys" className={styles.keys}>
              Keys: ↑ ↓ or j k move, Enter opens, Space or x selects an invite request.
            </p>
            <QueueTable
              requests={requests}
              selected={selected}
              onToggle={(id) => queue.send({ type: 'queue.toggle', id })}
              onSelectAll={() => queue.send({ type: 'queue.selectAll' })}
              onClearSelection={() => queue.send({ type: 'queue.clearSelection' })}
              onOpen={(id) => void navigate(TEAM_PATHS.request(id))}
            />
            <div className={styles.more}>
              {hasMore && (
                <button type="button" className={button({ tone: 'secondary' })} disabled={state === 'loadingMore'} onClick={() => queue.send({ type: 'queue.loadMore' })}>
                  {state === 'loadingMore' ? 'Loading more…' : 'Load more'}
                </button>
              )}
            </div>
          </>
        )}
        {(targets.length > 0 || deciding) && (
          <BulkDecisions actor={decision} targets={targets} cohorts={cohorts} onClear={() => queue.send({ type: 'queue.clearSelection' })} />
        )}
      </div>
    </div>
  );
}
