import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from '@/app/app';
import { startEarly } from '@/app/early-start';
import { initI18n } from '@/lib/i18n';
import './global.css';

const root = document.getElementById('root');
if (!root) {
  throw new Error('index.html has no #root element');
}

startEarly();

// The stored language's texts arrive before the first paint, so nothing flashes in English.
void initI18n()
  .catch(() => undefined)
  .then(() => {
    createRoot(root).render(
      <StrictMode>
        <App />
      </StrictMode>,
    );
  });
