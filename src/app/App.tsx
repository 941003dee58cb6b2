import { useRoutes } from 'react-router-dom';
import { AppProviders } from './providers';
import { routes } from './routes';

function Routes() {
  return useRoutes(routes);
}

/**
 * The app inside a router: app-wide providers around the routes of spec §2.
 * main.tsx wraps it in a BrowserRouter; tests in a MemoryRouter.
 */
export function App() {
  return (
    <AppProviders>
      <Routes />
    </AppProviders>
  );
}
