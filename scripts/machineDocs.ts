import type { AnyStateMachine, AnyStateNode } from 'xstate';
import { consentMachine } from '#machines/consentMachine';
import { inviteMachine } from '#machines/inviteMachine';
import { inviteReviewMachine } from '#machines/inviteReviewMachine';
import { optOutToastMachine } from '#machines/optOutToastMachine';
import { outboxMachine } from '#machines/outboxMachine';
import { privacyCourseMachine } from '#machines/privacyCourseMachine';
import { privacyRequestMachine } from '#machines/privacyRequestMachine';
import { teamCohortsMachine } from '#machines/teamCohortsMachine';
import { teamDecisionMachine } from '#machines/teamDecisionMachine';
import { teamEnrollMachine } from '#machines/teamEnrollMachine';
import { teamQueueMachine } from '#machines/teamQueueMachine';
import { teamRequestMachine } from '#machines/teamRequestMachine';
import { teamSessionMachine } from '#machines/teamSessionMachine';
import { verifyMachine } from '#machines/verifyMachine';
import { DELAY_VALUES_MS, stateNodesOf, transitionsOf, type TransitionRow } from './machineGraph';

/** The machines documented in docs/machines.md, in reading order, with the view that drives each. */
export const documentedMachines: Array<{ machine: AnyStateMachine; file: string; drivenBy: string }> = [
  { machine: inviteMachine, file: 'machines/inviteMachine.ts', drivenBy: 'the invite form on `/#invite` (`src/components/InviteForm.tsx`)' },
  { machine: privacyRequestMachine, file: 'machines/privacyRequestMachine.ts', drivenBy: 'the form on `/privacy-request` (`src/components/PrivacyRequestForm.tsx`)' },
  { machine: consentMachine, file: 'machines/consentMachine.ts', drivenBy: 'the app (`src/app/providers.tsx`), the footer button and invite submissions' },
  { machine: optOutToastMachine, file: 'machines/optOutToastMachine.ts', drivenBy: 'the footer button and the toast (`src/components/OptOutToast.tsx`)' },
  { machine: outboxMachine, file: 'machines/outboxMachine.ts', drivenBy: 'the app (`src/context/outbox.tsx`, started after the load event or at the first request a form hands it); the forms hand it what failed (`keepForRetry`)' },
  { machine: verifyMachine, file: 'machines/verifyMachine.ts', drivenBy: 'the page of a privacy request\'s verification link, `/privacy-request/verify` (`src/pages/VerifyPrivacyRequest.tsx`)' },
  { machine: teamSessionMachine, file: 'machines/teamSessionMachine.ts', drivenBy: 'the team console at `/team` (`src/context/team.ts`, started by `src/app/team/TeamApp.tsx`): the sign-in screen (`src/components/team/SignIn.tsx`), the header\'s "Sign out" (`src/app/team/TeamFrame.tsx`), and every console page whose call answers 401 (`session.ended`)' },
  { machine: teamEnrollMachine, file: 'machines/teamEnrollMachine.ts', drivenBy: 'the page of a team member\'s enrollment link, `/team/enroll` (`src/pages/team/EnrollPage.tsx`)' },
  { machine: teamQueueMachine, file: 'machines/teamQueueMachine.ts', drivenBy: 'the console\'s queue at `/team` (`src/pages/team/QueuePage.tsx`: filters, the keyboard-walked table, Load more, the selection for bulk decisions)' },
  { machine: teamRequestMachine, file: 'machines/teamRequestMachine.ts', drivenBy: 'a request\'s page in the console, `/team/requests/:id` (`src/pages/team/RequestPage.tsx`), and its note box' },
  { machine: teamDecisionMachine, file: 'machines/teamDecisionMachine.ts', drivenBy: 'each decision of the console, one request\'s (`src/components/team/InviteDecisions.tsx`, `PrivacySteps.tsx`) or the queue\'s selection (`BulkDecisions.tsx`): the mails previewed, then confirmed' },
  { machine: teamCohortsMachine, file: 'machines/teamCohortsMachine.ts', drivenBy: 'the console\'s cohorts page, `/team/cohorts` (`src/pages/team/CohortsPage.tsx`)' },
  { machine: inviteReviewMachine, file: 'machines/inviteReviewMachine.ts', drivenBy: 'the team\'s decisions on invite requests (`npm run requests --` `accept`, `waitlist`, `decline`, `spam`, `reopen`: `server/cli/decisions.ts`), asked by the server (`server/db/decisions.ts`) with XState\'s pure `resolveState` and `can`' },
  {
    machine: privacyCourseMachine,
    file: 'machines/privacyCourseMachine.ts',
    drivenBy:
      "the team's command line, `npm run requests -- verify\\|extend\\|respond` (`server/cli/privacyAnswers.ts`), and the verification link page's server call (`server/db/verificationLinks.ts`), through `server/db/privacyCourse.ts`",
  },
];

const mermaidId = (node: AnyStateNode) => node.id.replace(/[^A-Za-z0-9_]/g, '_');
const cell = (text: string | undefined) => (text ? text.replace(/\|/g, '\\|').replace(/\n/g, ' ') : '');
const code = (text: string) => `\`${text}\``;
const relative = (machine: AnyStateMachine, id: string) => id.slice(machine.id.length + 1) || machine.id;

function mermaidLabel(row: TransitionRow): string {
  const guard = row.guard ? ` [${row.guard}]` : '';
  return `${row.event}${guard}`.replace(/: /g, ' ').replace(/[:;#]/g, ' ');
}

/** A Mermaid stateDiagram-v2 of the machine: nested and parallel states, then every transition. */
function mermaidDiagram(machine: AnyStateMachine): string {
  const lines = ['stateDiagram-v2'];
  const children = (node: AnyStateNode) => Object.values(node.states) as AnyStateNode[];

  const body = (node: AnyStateNode, indent: string) => {
    const kids = children(node);
    if (node.type === 'parallel') {
      kids.forEach((region, index) => {
        if (index > 0) lines.push(`${indent}--`);
        block(region, indent);
      });
      return;
    }
    const initial = node.type === 'compound' ? node.initial.target[0] : undefined;
    if (initial) lines.push(`${indent}[*] --> ${mermaidId(initial)}`);
    for (const kid of kids) {
      if (children(kid).length > 0) block(kid, indent);
      else lines.push(`${indent}state "${kid.key}" as ${mermaidId(kid)}`);
      if (kid.type === 'final') lines.push(`${indent}${mermaidId(kid)} --> [*]`);
    }
  };
  const block = (node: AnyStateNode, indent: string) => {
    lines.push(`${indent}state "${node.key}${node.type === 'parallel' ? ' (parallel)' : ''}" as ${mermaidId(node)} {`);
    body(node, `${indent}  `);
    lines.push(`${indent}}`);
  };

  if (machine.root.type === 'parallel') block(machine.root, '  ');
  else body(machine.root, '  ');

  const nodes = new Map(stateNodesOf(machine).map((node) => [node.id, node]));
  for (const row of transitionsOf(machine)) {
    const source = mermaidId(nodes.get(row.source)!);
    const targets = row.targets.length > 0 ? row.targets.map((id) => mermaidId(nodes.get(id)!)) : [source];
    for (const target of targets) lines.push(`  ${source} --> ${target} : ${mermaidLabel(row)}`);
  }
  return lines.join('\n');
}

/** The named entry actions of a state; `after` delays (a built-in delayed raise on entry) are left to the transitions table. */
function entryActionsOf(node: AnyStateNode): string[] {
  return node.entry
    .map((a: unknown) => (typeof a === 'string' ? a : ((a as { type?: string }).type ?? '(inline)')))
    .filter((name: string) => !name.startsWith('xstate.'));
}

function statesTable(machine: AnyStateMachine): string[] {
  const rows = ['| State | Kind | Entry actions | Invokes | Description |', '|---|---|---|---|---|'];
  for (const node of stateNodesOf(machine).slice(1)) {
    const entry = entryActionsOf(node);
    const invokes = node.invoke.map((i: { src: unknown; id: string }) => (typeof i.src === 'string' ? i.src : i.id));
    rows.push(
      `| ${code(relative(machine, node.id))} | ${node.type} | ${entry.map(code).join(', ')} | ${invokes.map(code).join(', ')} | ${cell(node.description)} |`,
    );
  }
  return rows;
}

function transitionsTable(machine: AnyStateMachine): string[] {
  const rows = ['| From | Event | Guard | To | Actions (then the target\'s entry actions) | Description |', '|---|---|---|---|---|---|'];
  const nodes = new Map(stateNodesOf(machine).map((node) => [node.id, node]));
  for (const row of transitionsOf(machine)) {
    // What taking the transition does: its own actions, then the entry actions of the state it enters.
    const entered = row.targets.length > 0 && row.targets.every((id) => id !== row.source || row.reenter);
    const entry = entered ? row.targets.flatMap((id) => entryActionsOf(nodes.get(id)!)) : [];
    const actions = [...row.actions.map(code), ...entry.map((name) => `${code(name)} (entry)`)];
    const to =
      row.targets.length === 0
        ? '(stays; actions only)'
        : row.targets.map((id) => code(relative(machine, id))).join(', ') + (row.reenter ? ' (re-entered)' : '');
    rows.push(
      `| ${code(relative(machine, row.source))} | ${code(row.event)} | ${row.guard ? code(row.guard) : ''} | ${to} | ${actions.join(', ')} | ${cell(row.description)} |`,
    );
  }
  return rows;
}

/** docs/machines.md: every machine's diagram, states and transitions, from the definitions themselves. */
export function renderMachineDocs(): string {
  const out = [
    '# The machines: behaviour as specified',
    '',
    '<!-- Generated by `npm run docs:machines` from the definitions in machines/. Do not edit by hand:',
    '     tests/docs/machineDocs.test.ts fails when this file differs from what the script generates. -->',
    '',
    'Every stateful behaviour of the site is an XState v5 machine. This page is written from the machine',
    'definitions, so it is the behaviour the site runs, not a description of it. The descriptions quote the',
    'spec sections (`../shared/spec/site-spec.md`) they implement.',
    '',
    'How to read the tables: events named `domain.verb` are sent by the views; `done: X` and `error: X`',
    'are the result of the invoked actor `X` (a service call); `after D (N ms)` fires when the named delay',
    '`D` has passed in the state; `always` is taken as soon as the state is entered and its guard holds.',
    "A transition with no target runs its actions and stays in the state; '(re-entered)' leaves and enters",
    'the state again, restarting its delays.',
    '',
    '| Machine | File | Driven by |',
    '|---|---|---|',
    ...documentedMachines.map(({ machine, file, drivenBy }) => `| [${code(machine.id)}](#${machine.id.toLowerCase()}) | ${code(file)} | ${drivenBy} |`),
  ];
  for (const { machine, file } of documentedMachines) {
    const rows = transitionsOf(machine);
    const unique = (names: Array<string | undefined>) => [...new Set(names.filter((name): name is string => Boolean(name)))];
    const delays = unique(rows.map((row) => /^xstate\.after\.([^.]+)\./.exec(row.eventType)?.[1])).map(
      (name) => (DELAY_VALUES_MS[name] === undefined ? `${code(name)} (worked out from the context)` : `${code(name)} = ${DELAY_VALUES_MS[name]} ms`),
    );
    const actors = unique(stateNodesOf(machine).flatMap((node) => node.invoke.map((i: { src: unknown; id: string }) => (typeof i.src === 'string' ? i.src : i.id))));
    const guards = unique(rows.map((row) => row.guard?.replace(/^not /, '')));
    out.push(
      '',
      `## ${machine.id}`,
      '',
      `${machine.root.description ?? ''} (${code(file)})`,
      '',
      `Actors: ${actors.map(code).join(', ') || 'none'}. ` +
        `Guards: ${guards.map(code).join(', ') || 'none'}. ` +
        `Delays: ${delays.join(', ') || 'none'}.`,
      '',
      '```mermaid',
      mermaidDiagram(machine),
      '```',
      '',
      '### States',
      '',
      ...statesTable(machine),
      '',
      '### Transitions',
      '',
      ...transitionsTable(machine),
    );
  }
  return `${out.join('\n')}\n`;
}
