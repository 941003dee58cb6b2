import type { AnyEventObject, AnyMachineSnapshot, AnyStateMachine } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import { stateNodesOf, transitionKey, transitionsFrom } from '../../scripts/machineGraph';

/** One walk through a chart: its steps, each an event and the snapshot it leads to, from the initial one. */
export interface ChartPath {
  initial: AnyMachineSnapshot;
  steps: Array<{ event: AnyEventObject; state: AnyMachineSnapshot }>;
  title: string;
}

/**
 * The shortest path to every transition of a chart that `events` (one sample per event type, with the
 * facts its guards read) can take: a state is told apart by the state before it and the event that led
 * to it, so each transition gets a path of its own (as tests/model/models.ts does for the site's machines).
 * @param input - the machine's input, when it takes one
 */
export function transitionPaths(machine: AnyStateMachine, events: AnyEventObject[], input?: unknown): ChartPath[] {
  return getShortestPaths(machine, {
    ...(input === undefined ? {} : { input }),
    events,
    filterEvents: (state, event) => state.can(event),
    serializeState: (state, event, previous) => JSON.stringify([previous?.value ?? null, event?.type ?? null, state.value]),
  })
    .map((path) => {
      const [init, ...steps] = path.steps; // the first step is xstate.init
      return { initial: init!.state, steps, title: steps.map((step) => step.event.type).join(' → ') };
    })
    .filter((path) => path.steps.length > 0);
}

/** The keys (scripts/machineGraph.ts `transitionKey`) of every transition of the chart. */
export function allTransitionKeys(machine: AnyStateMachine): string[] {
  return stateNodesOf(machine).flatMap(transitionsFrom).map(transitionKey);
}

/** The keys of the transitions a path takes, step by step, as the chart itself says (`getTransitionData`). */
export function transitionKeysTaken(machine: AnyStateMachine, path: ChartPath): string[] {
  let before = path.initial;
  return path.steps.flatMap((step) => {
    const taken = machine.getTransitionData(before as never, step.event as never);
    before = step.state;
    return taken.map(transitionKey);
  });
}
