import { useRoutes } from 'react-router-dom';
import type { Inspect } from '@/context/inspect';
import { AppProviders } from './providers';
import { routes } from './routes';

function Routes() {
  return useRoutes(routes);
}

/**
 * The app inside a router: app-wide providers around the routes of spec §2.
 * src/hydrate.tsx wraps it in a BrowserRouter; tests in a MemoryRouter.
 * @param inspect - XState inspection observer for every actor (Stately inspector, test recorders)
 */
export function App({ inspect }: { inspect?: Inspect }) {
  return (
    <AppProviders inspect={inspect}>
      <Routes />
    </AppProviders>
  );
}
