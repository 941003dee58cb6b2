import { Route, Routes } from 'react-router-dom';
import { InspectContext, type Inspect } from '@/context/inspect';
import { TeamSessionContext } from '@/context/team';
import { CohortsPage } from '@/pages/team/CohortsPage';
import { EnrollPage } from '@/pages/team/EnrollPage';
import { QueuePage } from '@/pages/team/QueuePage';
import { RequestPage } from '@/pages/team/RequestPage';
import { TeamNotFound } from '@/pages/team/TeamNotFound';
import { TeamFrame } from './TeamFrame';

/**
 * The team console (`/team`), an app of its own: its own providers (the session's actor, none of the
 * site's: no consent, no analytics) and routes. `/team/enroll` is outside the sign-in gate; every other
 * page shows the sign-in screen until the member is signed in. src/app/team/hydrate.tsx wraps it in a
 * BrowserRouter, src/entry-server.tsx in a StaticRouter, tests in a MemoryRouter.
 * @param inspect - XState inspection observer for every actor (Stately inspector, test recorders)
 */
export function TeamApp({ inspect }: { inspect?: Inspect }) {
  return (
    <InspectContext value={inspect}>
      <TeamSessionContext.Provider options={{ inspect }}>
        <Routes>
          <Route path="/team" element={<TeamFrame />}>
            <Route path="enroll" element={<EnrollPage />} />
            <Route index element={<QueuePage />} />
            <Route path="requests/:id" element={<RequestPage />} />
            <Route path="cohorts" element={<CohortsPage />} />
            <Route path="*" element={<TeamNotFound />} />
          </Route>
        </Routes>
      </TeamSessionContext.Provider>
    </InspectContext>
  );
}
