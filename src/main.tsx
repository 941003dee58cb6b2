import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { App } from '@/app/App';
import { loadStatelyInspector } from '@/app/inspect';
import '@/styles/theme.css';
import '@/styles/global.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

// In a build the inspector is never wanted, so this resolves at once with undefined.
void loadStatelyInspector().then((inspect) => {
  createRoot(root).render(
    <StrictMode>
      <BrowserRouter>
        <App inspect={inspect} />
      </BrowserRouter>
    </StrictMode>,
  );
});
