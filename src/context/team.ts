import { createActorContext } from '@xstate/react';
import { teamSessionMachine } from '#machines/teamSessionMachine';

/**
 * The team member's session in the console (`/team`), started by the console's frame. Its pages send it
 * `session.ended` when a call answers 401, and the frame shows the sign-in again.
 */
export const TeamSessionContext = createActorContext(teamSessionMachine);
