import { useActorRef, useSelector } from '@xstate/react';
import { Link, useParams } from 'react-router-dom';
import { badge } from '@/components/team/Badge.css';
import { DecisionFlight } from '@/components/team/DecisionFlight';
import { DueBadge } from '@/components/team/DueBadge';
import { dayOf } from '@/components/team/format';
import { InviteDecisions } from '@/components/team/InviteDecisions';
import { KIND_LABELS, STATE_LABELS } from '@/components/team/labels';
import { NoteBox } from '@/components/team/NoteBox';
import { PrivacySteps } from '@/components/team/PrivacySteps';
import * as styles from '@/components/team/Request.css';
import { RequestFacts } from '@/components/team/RequestFacts';
import { RequestBlock } from '@/components/team/RequestBlock';
import { Timeline } from '@/components/team/Timeline';
import * as fields from '@/components/FormFields.css';
import { useInspect } from '@/context/inspect';
import { TeamSessionContext } from '@/context/team';
import { teamDecisionMachine } from '#machines/teamDecisionMachine';
import { teamRequestMachine } from '#machines/teamRequestMachine';
import type { DecisionTarget } from '#machines/teamDecisions';
import { privacyRequestTypesOf } from '#shared/submission';
import { TEAM_PATHS, type RequestDetail } from '#shared/team';
import { button } from '@/styles/button';
import { container, pageTitle, section } from '@/styles/layout.css';

/** The request a decision on this page is about: for a privacy request, with the types its form asked (spec §3's mapping). */
function targetOf(detail: RequestDetail): DecisionTarget {
  const description = detail.fields.useCaseDescription;
  return { request: detail.request, requestTypes: typeof description === 'string' ? privacyRequestTypesOf(description) : [] };
}

/**
 * `/team/requests/:id`: one request (machines/teamRequestMachine.ts): its fields as submitted and the
 * client metadata, the other requests from its mailbox, its timeline, a note box, and the decisions its
 * chart allows (machines/teamDecisionMachine.ts), each previewed before it is confirmed; loaded again
 * after one is taken. Loading, failed (Try again) and unknown (404) each say so.
 */
export function RequestPage() {
  const { id = '' } = useParams();
  return <RequestOf key={id} id={id} />;
}

function RequestOf({ id }: { id: string }) {
  const inspect = useInspect();
  const session = TeamSessionContext.useActorRef();
  const endSession = () => session.send({ type: 'session.ended' });
  const page = useActorRef(teamRequestMachine.provide({ actions: { endSession } }), { input: { id }, inspect });
  const decision = useActorRef(teamDecisionMachine.provide({ actions: { reloadChanged: () => page.send({ type: 'request.reload' }), endSession } }), { inspect });
  const detail = useSelector(page, (s) => s.context.detail);
  const cohorts = useSelector(page, (s) => s.context.cohorts);
  const loading = useSelector(page, (s) => s.matches('loading'));
  const failed = useSelector(page, (s) => s.matches('failed'));
  const missing = useSelector(page, (s) => s.matches('notFound'));
  const error = useSelector(page, (s) => s.context.error);
  const noting = useSelector(page, (s) => s.matches({ ready: 'noting' }));
  const noteError = useSelector(page, (s) => s.context.noteError);
  const notesAdded = useSelector(page, (s) => s.context.notesAdded);
  const request = detail?.request;

  return (
    <div className={section}>
      <title>{request ? `${request.fullName} · Sonde team` : 'Request · Sonde team'}</title>
      <div className={container}>
        <p>
          <Link to={TEAM_PATHS.queue}>Back to the queue</Link>
        </p>
        <p role="status" className={fields.offScreen}>
          {loading ? 'Loading the request…' : ''}
        </p>
        {missing && (
          <>
            <h1 className={pageTitle}>No such request</h1>
            <p>No request has this id. It may have been erased under the retention policy.</p>
          </>
        )}
        {failed && (
          <>
            <h1 className={pageTitle}>The request could not be loaded</h1>
            <div role="alert" className={fields.alert}>
              <p className={fields.alertTitle}>{error}</p>
            </div>
            <p>
              <button type="button" className={button({ tone: 'primary' })} onClick={() => page.send({ type: 'request.retry' })}>
                Try again
              </button>
            </p>
          </>
        )}
        {!detail && loading && <h1 className={pageTitle}>Loading the request…</h1>}
        {detail && request && !missing && !failed && (
          <>
            <h1 className={pageTitle}>{request.fullName}</h1>
            <p>
              {KIND_LABELS[request.kind]} request from {request.company}, received {dayOf(request.receivedAt)}.{' '}
              <span className={badge({ tone: 'neutral' })}>{request.state ? STATE_LABELS[request.state] : STATE_LABELS[request.status]}</span>
              {request.cohort && ` ${request.cohort}`} {request.verification && `· ${request.verification}`} <DueBadge request={request} />
            </p>
            <div className={styles.layout}>
              <div className={styles.block}>
                <RequestFacts detail={detail} />
                <Timeline entries={detail.timeline} />
              </div>
              <div className={styles.block}>
                <RequestBlock id="decide" title="Decide">
                  {request.kind === 'invite' ? (
                    <InviteDecisions actor={decision} targets={[targetOf(detail)]} cohorts={cohorts} />
                  ) : (
                    <PrivacySteps actor={decision} target={targetOf(detail)} />
                  )}
                  <DecisionFlight actor={decision} />
                </RequestBlock>
                <NoteBox saving={noting} error={noteError} added={notesAdded} onAdd={(text) => page.send({ type: 'note.add', text })} />
              </div>
            </div>
          </>
        )}
      </div>
    </div>
  );
}
