import { describe, it, vi } from 'vitest';
import type { AnyEventObject, AnyMachineSnapshot } from 'xstate';
import { generatePaths, type Model } from './models';
import { settle } from './steps';

/**
 * How a model's events reach the real views, and how its states show in them.
 * `Session` is whatever one path's test needs to hold: the rendered app, the user, the held network.
 */
export interface ViewDriver<Session> {
  /** renders the app as a visitor arrives, for a path starting with `input` */
  start: (input: unknown) => Session;
  /** one user action (or network answer, or clock move) per event type of the machine */
  actions: Record<string, (session: Session, before: AnyMachineSnapshot, event: AnyEventObject) => Promise<unknown>>;
  /** assertions on what the visitor sees and what crossed the network in `state`, reached by `event` */
  expectView: (state: AnyMachineSnapshot, session: Session, event?: AnyEventObject) => void | Promise<void>;
}

/**
 * One test per generated path: render, then for each step do the step's action and check the view
 * against the step's state. Fails on an event without an action, so a new event in a machine cannot
 * go untested. Runs under fake timers, so delays are driven by the path, not by the wall clock.
 */
export function describeModel<Session>(model: Model, driver: ViewDriver<Session>): void {
  describe(`${model.name}: paths generated from the machine, walked in the views`, () => {
    for (const path of generatePaths(model)) {
      const inputLabel = path.input === undefined ? '' : ` [input ${JSON.stringify(path.input)}]`;
      it(`${path.title}${inputLabel}`, async () => {
        vi.useFakeTimers();
        vi.spyOn(console, 'warn').mockImplementation(() => {});
        vi.spyOn(console, 'error').mockImplementation(() => {});
        const session = driver.start(path.input);
        await settle();
        await driver.expectView(path.initial, session);
        let before = path.initial;
        for (const step of path.steps) {
          const action = driver.actions[step.event.type];
          if (!action) throw new Error(`no action drives ${step.event.type} for ${model.name}`);
          await action(session, before, step.event);
          await settle();
          await driver.expectView(step.state, session, step.event);
          before = step.state;
        }
      });
    }
  });
}
