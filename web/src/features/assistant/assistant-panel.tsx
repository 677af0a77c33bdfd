import Button from '@arco-design/web-react/es/Button';
import Drawer from '@arco-design/web-react/es/Drawer';
import Input from '@arco-design/web-react/es/Input';
import '@arco-design/web-react/es/Button/style/css.js';
import '@arco-design/web-react/es/Drawer/style/css.js';
import '@arco-design/web-react/es/Input/style/css.js';
import { IconFile, IconRecordStop, IconSend } from '@arco-design/web-react/icon';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import styles from './assistant-panel.module.css';
import { useConversation, type Exchange } from './conversation-store';
import type { Source } from './stream';
import { assistantTexts } from './texts';

export const DOCUMENTS_ROUTE = '/assistant/documents';

/** Where a source opens in the console. */
export function sourceHref(source: Source): string {
  switch (source.kind) {
    case 'document':
      return `${DOCUMENTS_ROUTE}?doc=${source.id}&seq=${source.seq ?? 0}`;
    case 'station':
      return `/station/detail/${source.id}`;
    case 'alarm':
      return `/alarm?detail=${source.id}`;
    default:
      return `/device/detail/${source.id}`;
  }
}

function Sources({ sources, onOpen }: { sources: Source[]; onOpen: () => void }) {
  const { t } = useTranslation();
  if (sources.length === 0) {
    return null;
  }
  return (
    <div>
      <div className={styles.meta}>{t('assistant.sources')}</div>
      <ol className={styles.sources}>
        {sources.map((s) => (
          <li key={`${s.kind}-${s.id}-${s.seq ?? 0}`}>
            <span className={styles.kind}>{t(`assistant.source.${s.kind}`)}</span>
            <Link to={sourceHref(s)} onClick={onOpen}>
              {s.heading ? `${s.title} — ${s.heading}` : s.title}
            </Link>
          </li>
        ))}
      </ol>
    </div>
  );
}

function ExchangeView({ exchange, onOpen }: { exchange: Exchange; onOpen: () => void }) {
  const { t } = useTranslation();
  const { state, error } = exchange;
  return (
    <article aria-label={exchange.question}>
      <div className={styles.who}>{t('assistant.you')}</div>
      <div className={styles.question}>{exchange.question}</div>
      <div className={styles.who}>{t('assistant.answer')}</div>
      <div className={styles.answer} aria-live={state === 'streaming' ? 'polite' : undefined} data-state={state}>
        {exchange.answer || (state === 'streaming' ? t('assistant.thinking') : '')}
        {state === 'stopped' && <div className={styles.meta}>{t('assistant.stopped')}</div>}
      </div>
      {state === 'error' && (
        <div className={styles.error} role="alert">
          {error?.message && !exchange.answer
            ? t('assistant.failed', { message: error.message })
            : t('assistant.upstreamError', { status: error?.status ?? '-' })}
        </div>
      )}
      {state === 'done' && exchange.model && (
        <div className={styles.meta}>
          {exchange.model === 'builtin' ? t('assistant.builtin') : t('assistant.model', { model: exchange.model })}
        </div>
      )}
      <Sources sources={exchange.sources} onOpen={onOpen} />
    </article>
  );
}

/** The assistant: a panel beside every page, with the conversation of this session. */
export function AssistantPanel() {
  const { t } = useTranslation();
  assistantTexts.useReady();
  const { open, exchanges, setOpen, askQuestion, stop, clear } = useConversation();
  const [question, setQuestion] = useState('');
  const logRef = useRef<HTMLDivElement>(null);
  const streaming = exchanges.some((e) => e.state === 'streaming');
  const last = exchanges[exchanges.length - 1];

  useEffect(() => {
    logRef.current?.scrollTo({ top: logRef.current.scrollHeight });
  }, [exchanges.length, last?.answer]);

  const send = (text = question) => {
    const q = text.trim();
    if (!q || streaming) {
      return;
    }
    setQuestion('');
    void askQuestion(q);
  };
  const close = () => setOpen(false);

  return (
    <Drawer
      width={480}
      title={t('assistant.title')}
      visible={open}
      onCancel={close}
      footer={null}
      unmountOnExit={false}
    >
      <div className={styles.body}>
        <div className={styles.actions}>
          <Link to={DOCUMENTS_ROUTE} onClick={close} className={styles.link}>
            <IconFile /> {t('assistant.documents')}
          </Link>
          <Button size="mini" onClick={clear} disabled={exchanges.length === 0}>
            {t('assistant.clear')}
          </Button>
        </div>
        <div className={styles.log} ref={logRef}>
          {exchanges.length === 0 && (
            <div className={styles.intro}>
              <p>{t('assistant.intro')}</p>
              <div className={styles.meta}>{t('assistant.examples')}</div>
              <div className={styles.examples}>
                {(['least', 'alarms', 'isolation'] as const).map((k) => (
                  <Button key={k} type="text" size="small" onClick={() => send(t(`assistant.example.${k}`))}>
                    {t(`assistant.example.${k}`)}
                  </Button>
                ))}
              </div>
            </div>
          )}
          {exchanges.map((e) => (
            <ExchangeView key={e.id} exchange={e} onOpen={close} />
          ))}
        </div>
        <form
          className={styles.composer}
          onSubmit={(event) => {
            event.preventDefault();
            send();
          }}
        >
          <Input.TextArea
            aria-label={t('assistant.question')}
            placeholder={t('assistant.placeholder')}
            value={question}
            maxLength={2000}
            autoSize={{ minRows: 2, maxRows: 6 }}
            onChange={setQuestion}
            onKeyDown={(event) => {
              if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
                event.preventDefault();
                send();
              }
            }}
          />
          <div className={styles.actions}>
            <span />
            {streaming ? (
              <Button type="outline" status="danger" icon={<IconRecordStop />} onClick={stop}>
                {t('assistant.stop')}
              </Button>
            ) : (
              <Button type="primary" htmlType="submit" icon={<IconSend />} disabled={!question.trim()}>
                {t('assistant.ask')}
              </Button>
            )}
          </div>
        </form>
      </div>
    </Drawer>
  );
}
