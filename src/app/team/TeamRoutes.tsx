import type { ReactElement } from 'react';
import { Route, Routes } from 'react-router-dom';
import { CohortsPage } from '@/pages/team/CohortsPage';
import { EnrollPage } from '@/pages/team/EnrollPage';
import { QueuePage } from '@/pages/team/QueuePage';
import { RequestPage } from '@/pages/team/RequestPage';
import { TeamNotFound } from '@/pages/team/TeamNotFound';

/**
 * The console's pages under `/team`: the enrollment page (`/team/enroll`), the queue (`/team`), a request
 * (`/team/requests/:id`), the cohorts (`/team/cohorts`), and "not found" for any other path. Each page
 * shows in `frame`'s `<Outlet />`: the console's frame in the app (src/app/team/TeamApp.tsx), a bare
 * `<main>` in the tests that render the pages without the sign-in gate (tests/support/teamConsole.tsx).
 * @param frame - the element of the `/team` route, which renders an `<Outlet />`
 */
export function TeamRoutes({ frame }: { frame: ReactElement }) {
  return (
    <Routes>
      <Route path="/team" element={frame}>
        <Route path="enroll" element={<EnrollPage />} />
        <Route index element={<QueuePage />} />
        <Route path="requests/:id" element={<RequestPage />} />
        <Route path="cohorts" element={<CohortsPage />} />
        <Route path="*" element={<TeamNotFound />} />
      </Route>
    </Routes>
  );
}
