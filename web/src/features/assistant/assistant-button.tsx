import Button from '@arco-design/web-react/es/Button';
import '@arco-design/web-react/es/Button/style/css.js';
import { IconRobot } from '@arco-design/web-react/icon';
import { lazy, Suspense, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useConversation } from './conversation-store';
import { assistantTexts } from './texts';

// The panel's code loads the first time it opens, not with every page.
const AssistantPanel = lazy(() => import('./assistant-panel').then((m) => ({ default: m.AssistantPanel })));

/** The navbar's button that opens the assistant from any page. */
export function AssistantButton() {
  const { t } = useTranslation();
  assistantTexts.useReady();
  const open = useConversation((s) => s.open);
  const setOpen = useConversation((s) => s.setOpen);
  const opened = useRef(false);
  opened.current ||= open;
  const label = t('assistant.open');
  return (
    <>
      <Button
        shape="circle"
        type="secondary"
        icon={<IconRobot />}
        aria-label={label}
        title={label}
        aria-expanded={open}
        onClick={() => setOpen(!open)}
      />
      {opened.current && (
        <Suspense fallback={null}>
          <AssistantPanel />
        </Suspense>
      )}
    </>
  );
}
