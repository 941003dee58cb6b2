import type { RouteObject } from 'react-router-dom';
import { Home } from '@/pages/Home';
import { NotFound } from '@/pages/NotFound';
import { Privacy } from '@/pages/Privacy';
import { PrivacyRequest } from '@/pages/PrivacyRequest';
import { Terms } from '@/pages/Terms';
import { ThankYou } from '@/pages/ThankYou';
import { Layout } from './Layout';

/** The routes of spec §2, plus a not-found page for every other path. */
export const routes: RouteObject[] = [
  {
    element: <Layout />,
    children: [
      { index: true, element: <Home /> },
      { path: 'privacy', element: <Privacy /> },
      { path: 'privacy-request', element: <PrivacyRequest /> },
      { path: 'terms', element: <Terms /> },
      { path: 'thank-you', element: <ThankYou /> },
      { path: '*', element: <NotFound /> },
    ],
  },
];
