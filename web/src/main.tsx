import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from '@/app/app';
import { startEarly } from '@/app/early-start';
import { installAriaRepairs } from '@/lib/arco-aria';
import { installDialogFocusReturn } from '@/lib/dialog-focus';
import { initI18n } from '@/lib/i18n';
import { registerShellWorker } from '@/lib/service-worker';
import './theme/tokens.css';
import './theme/components.css';
import './theme/text.css';
import './global.css';

const root = document.getElementById('root');
if (!root) {
  throw new Error('index.html has no #root element');
}

startEarly();
installAriaRepairs();
installDialogFocusReturn();
registerShellWorker();

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
