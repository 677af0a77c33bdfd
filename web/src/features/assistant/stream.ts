import {
  ApiError,
  buildHeaders,
  buildUrl,
  fromEnvelope,
  fromTransportStatus,
  isEnvelope,
  readBody,
} from '@/lib/api-client';
import type { Schemas } from '@/lib/api-typed';

/** What an answer rests on (the server's assistant.Source): kind is document, station, alarm or device. */
export type Source = Schemas['Source'];

/**
 * One line of the streamed answer (the server's assistant.Event, Schemas['Event']), narrowed by
 * its type: the generated schema has every field optional, while each type carries its own.
 */
export type AnswerEvent =
  | { type: 'sources'; sources: Source[] }
  | { type: 'delta'; text: string }
  | { type: 'error'; message: string; status: number }
  | { type: 'done'; model: string };

/** One earlier turn sent with a question: role user or assistant. */
export type Turn = Schemas['ChatMessage'];

export const QUERY_PATH = '/api/query/';

/**
 * Splits a byte stream into JSON lines and calls onEvent for each as it arrives. A line cut
 * between two chunks waits for the rest.
 */
export async function readEvents(body: ReadableStream<Uint8Array>, onEvent: (event: AnswerEvent) => void): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  const flush = (line: string) => {
    if (line.trim() !== '') {
      onEvent(JSON.parse(line) as AnswerEvent);
    }
  };
  for (;;) {
    const { value, done } = await reader.read();
    if (done) {
      break;
    }
    buffered += decoder.decode(value, { stream: true });
    let newline = buffered.indexOf('\n');
    while (newline >= 0) {
      flush(buffered.slice(0, newline));
      buffered = buffered.slice(newline + 1);
      newline = buffered.indexOf('\n');
    }
  }
  flush(buffered + decoder.decode());
}

/**
 * Asks the assistant and streams its answer into onEvent. Aborting the signal stops the
 * answer on the server too. A non-OK status rejects with an ApiError carrying the status
 * (SPEC.md section 8), after the usual handling of expired sessions.
 */
export async function ask(
  question: string,
  history: Turn[],
  signal: AbortSignal,
  onEvent: (event: AnswerEvent) => void,
): Promise<void> {
  const query: Schemas['QueryBody'] = { question, history };
  const response = await fetch(buildUrl(QUERY_PATH), {
    method: 'POST',
    headers: buildHeaders(QUERY_PATH, true),
    body: JSON.stringify(query),
    signal,
  });
  if (!response.ok || !response.body) {
    const payload = await readBody(response);
    if (isEnvelope(payload)) {
      throw fromEnvelope(payload, QUERY_PATH, true);
    }
    throw fromTransportStatus(response.status, true);
  }
  await readEvents(response.body, onEvent);
}

export { ApiError };
