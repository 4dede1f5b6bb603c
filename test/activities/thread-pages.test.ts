import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSubject } from '../../src/activities/load-subject.js';
import { THREAD_PAGE_BYTES, THREAD_PAGE_ENTRIES } from '../../src/activities/thread-pages.js';
import type { ConversationEntry, ThreadSubject } from '../../src/evaluators/index.js';
import { given, type TestEngine, testEngine } from '../support/engine.js';
import { resolution } from '../support/thread-judges.config.js';

// What a thread evaluator is handed: the whole conversation up to its generation's seq, in log
// order, read from the store a page at a time within the page limits (docs/limits.md#thread-pages).

let engine: TestEngine;
beforeAll(() => {
  engine = testEngine({ evaluators: [resolution] });
});
afterAll(() => engine?.close());

async function subjectOf(ws: string, through?: number): Promise<ThreadSubject> {
  const subject = await loadSubject(engine.store, ws, { kind: 'thread', thread_id: 't' }, through);
  if (subject?.kind !== 'thread') throw new Error(`no thread subject: ${JSON.stringify(subject)}`);
  return subject;
}

async function pagesOf(subject: ThreadSubject): Promise<ConversationEntry[][]> {
  const pages: ConversationEntry[][] = [];
  for await (const page of subject.pages()) pages.push(page);
  return pages;
}

const post = (message_id: string, content: string, run_id: string | null = null) => ({
  type: 'post_message',
  thread_id: 't',
  message_id,
  role: 'user',
  content,
  run_id,
});

describe("a thread's subject", () => {
  it('is the thread, its runs and its conversation up to the seq judged, messages and artifacts in log order', async () => {
    const ws = 'subject-whole';
    await given(
      engine.store,
      ws,
      { type: 'create_thread', thread_id: 't', title: 'Refund' },
      { type: 'start_run', run_id: 'r1', thread_id: 't', trace_id: 'ab'.repeat(16) },
      post('m1', 'Where is my refund?', 'r1'),
      {
        type: 'put_artifact',
        artifact_id: 'ticket',
        kind: 'ticket',
        data: { open: true },
        run_id: 'r1',
      },
      { type: 'end_run', run_id: 'r1', status: 'completed' },
      { type: 'start_run', run_id: 'r2', thread_id: 't' },
      post('m2', 'Any news?', 'r2'),
    );
    const subject = await subjectOf(ws, 6);
    expect(subject.thread).toMatchObject({ thread_id: 't', title: 'Refund', ended_at: null });
    expect(subject.through_seq).toBe(6);
    expect(subject.runs.map((r) => [r.run_id, r.status, r.trace_ids])).toEqual([
      ['r1', 'completed', ['ab'.repeat(16)]],
      ['r2', 'running', []],
    ]);
    expect((await pagesOf(subject)).flat()).toEqual([
      {
        kind: 'message',
        seq: 3,
        message: {
          message_id: 'm1',
          thread_id: 't',
          run_id: 'r1',
          role: 'user',
          content: 'Where is my refund?',
        },
      },
      {
        kind: 'artifact',
        seq: 4,
        artifact: {
          artifact_id: 'ticket',
          kind: 'ticket',
          version: 1,
          data: { open: true },
          run_id: 'r1',
        },
      },
    ]);
    // Without a seq: up to the log's head.
    expect((await pagesOf(await subjectOf(ws))).flat().map((e) => e.seq)).toEqual([3, 4, 7]);
    expect(await loadSubject(engine.store, ws, { kind: 'thread', thread_id: 'nope' })).toBeNull();
  });

  it('comes a page at a time: at most 100 entries, and at most 1 MiB unless one entry is larger', async () => {
    const ws = 'subject-pages';
    const steps: object[] = [{ type: 'create_thread', thread_id: 't' }];
    for (let i = 0; i < 250; i++) steps.push(post(`s${i}`, `message ${i}`));
    // Three of 400 KiB (two fit a page, the third starts the next), then one of 1 MiB alone.
    const big = 'x'.repeat(400 * 1024);
    for (let i = 0; i < 3; i++) steps.push(post(`b${i}`, big));
    steps.push(post('huge', 'y'.repeat(THREAD_PAGE_BYTES)));
    steps.push(post('last', 'the end'));
    await given(engine.store, ws, ...steps);
    const pages = await pagesOf(await subjectOf(ws));
    expect(pages.map((page) => page.length)).toEqual([100, 100, 50 + 2, 1, 1, 1]);
    expect(pages.every((page) => page.length <= THREAD_PAGE_ENTRIES)).toBe(true);
    expect(pages.flat().map((e) => e.seq)).toEqual(
      Array.from({ length: 250 + 5 }, (_, i) => i + 2),
    );
    const ids = (page: ConversationEntry[]) =>
      page.map((e) => (e.kind === 'message' ? e.message.message_id : e.artifact.artifact_id));
    expect(ids(pages[2] ?? []).slice(-2)).toEqual(['b0', 'b1']);
    expect(ids(pages[3] ?? [])).toEqual(['b2']);
    expect(ids(pages[4] ?? [])).toEqual(['huge']);
    expect(ids(pages[5] ?? [])).toEqual(['last']);
  });
});
