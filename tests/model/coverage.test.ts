import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, type AnyTransitionDefinition, type InspectionEvent } from 'xstate';
import { transitionKey, transitionsOf } from '../../scripts/machineGraph';
import { generatePaths, models, type Model } from './models';

/**
 * Replays every generated path on a fresh actor (its invoked actors replaced by ones that never settle,
 * so that only the path's own events move it) and records each transition taken, from the actor's
 * `@xstate.microstep` inspection events, eventless and initial transitions included.
 */
function walkedTransitions(model: Model): Set<string> {
  const walked = new Set<string>();
  const inert = fromPromise(() => new Promise<never>(() => {}));
  const actors = Object.fromEntries(Object.keys(model.machine.implementations.actors).map((name) => [name, inert]));
  const machine = model.machine.provide({ actors });
  for (const path of generatePaths(model)) {
    const actor = createActor(machine, {
      input: path.input,
      inspect: (event: InspectionEvent) => {
        if (event.type === '@xstate.microstep') {
          for (const t of event._transitions as AnyTransitionDefinition[]) walked.add(transitionKey(t));
        }
      },
    });
    actor.start();
    for (const step of path.steps) actor.send(step.event);
    actor.stop();
  }
  return walked;
}

describe('model-based tests cover every transition', () => {
  it('generates paths without side effects on the browser (assign actions stay pure)', () => {
    localStorage.clear();
    for (const model of models) generatePaths(model);
    expect(Object.keys(localStorage)).toEqual([]);
  });

  for (const model of models) {
    it(`${model.name}: every transition of the definition is walked by a generated path`, () => {
      const all = transitionsOf(model.machine);
      const walked = walkedTransitions(model);
      const missed = all.filter((t) => !walked.has(t.key)).map((t) => t.key);
      const covered = all.length - missed.length;
      console.info(
        `[model coverage] ${model.name}: ${covered}/${all.length} transitions (${((100 * covered) / all.length).toFixed(0)}%), ` +
          `${generatePaths(model).length} paths`,
      );
      expect(all.length).toBeGreaterThan(0);
      expect(missed).toEqual([]);
    });
  }
});
