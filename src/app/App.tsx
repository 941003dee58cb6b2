import { useRoutes } from 'react-router-dom';
import { routes } from './routes';

/**
 * The app inside a router: app-wide providers around the routes of spec §2.
 * main.tsx wraps it in a BrowserRouter; tests in a MemoryRouter.
 */
export function App() {
  return useRoutes(routes);
}
