import { describe, expect, it } from 'vitest';
import { readEvents, type AnswerEvent } from './stream';

function streamOf(chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      chunks.forEach((chunk) => controller.enqueue(encoder.encode(chunk)));
      controller.close();
    },
  });
}

describe('readEvents', () => {
  it('joins lines cut between chunks, multi-byte characters included', async () => {
    const line1 = JSON.stringify({ type: 'sources', sources: [] });
    const line2 = JSON.stringify({ type: 'delta', text: '逆变器过温' });
    const whole = `${line1}\n${line2}\n{"type":"done","model":"builtin"}`;
    const bytes = new TextEncoder().encode(whole);
    // cut inside a Chinese character and inside a line
    const cuts = [5, line1.length + 8, line1.length + 3 + line2.length];
    const parts: Uint8Array[] = [];
    let start = 0;
    for (const cut of cuts) {
      parts.push(bytes.slice(start, cut));
      start = cut;
    }
    parts.push(bytes.slice(start));
    const events: AnswerEvent[] = [];
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        parts.forEach((part) => controller.enqueue(part));
        controller.close();
      },
    });
    await readEvents(stream, (event) => events.push(event));
    expect(events.map((event) => event.type)).toEqual(['sources', 'delta', 'done']);
    expect(events[1]).toEqual({ type: 'delta', text: '逆变器过温' });
  });

  it('skips blank lines', async () => {
    const events: AnswerEvent[] = [];
    await readEvents(streamOf(['\n', '{"type":"delta","text":"a"}\n\n']), (event) => events.push(event));
    expect(events).toEqual([{ type: 'delta', text: 'a' }]);
  });
});
