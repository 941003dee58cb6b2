import { InspectContext, type Inspect } from '@/context/inspect';
import { TeamSessionContext } from '@/context/team';
import { TeamRoutes } from './TeamRoutes';
import { TeamFrame } from './TeamFrame';

/**
 * The team console (`/team`), an app of its own: its own providers (the session's actor, none of the
 * site's: no consent, no analytics) and routes (./TeamRoutes.tsx), in its frame. `/team/enroll` is outside
 * the sign-in gate; every other page shows the sign-in screen until the member is signed in.
 * src/app/team/hydrate.tsx wraps it in a BrowserRouter, src/entry-server.tsx in a StaticRouter, tests in
 * a MemoryRouter.
 * @param inspect - XState inspection observer for every actor (Stately inspector, test recorders)
 */
export function TeamApp({ inspect }: { inspect?: Inspect }) {
  return (
    <InspectContext value={inspect}>
      <TeamSessionContext.Provider options={{ inspect }}>
        <TeamRoutes frame={<TeamFrame />} />
      </TeamSessionContext.Provider>
    </InspectContext>
  );
}
