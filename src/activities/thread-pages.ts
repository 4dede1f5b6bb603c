import { type ArtifactVersion, jsonBytes, type Message, utf8Bytes } from '../core/index.js';
import type { ConversationEntry, SubjectMessage } from '../evaluators/index.js';
import type { EntityReads, ThreadEntry } from '../store/index.js';

// A thread's conversation, read for its evaluators a page at a time (docs/limits.md#thread-pages):
// a thread that lives for months may hold thousands of messages of up to a MiB each, which no
// evaluator should be handed at once, nor an activity hold.

/** The most entries a page holds. */
export const THREAD_PAGE_ENTRIES = 100;
/** The most message content and artifact data a page holds; one larger entry is a page alone. */
export const THREAD_PAGE_BYTES = 1024 * 1024;

/** The conversation up to `through`, page by page, each read from the store when asked for. */
export async function* threadPages(
  store: EntityReads,
  workspaceId: string,
  threadId: string,
  through: number,
): AsyncGenerator<ConversationEntry[]> {
  let after = 0;
  for (;;) {
    const read = await store.threadPage(workspaceId, threadId, {
      after,
      through,
      limit: THREAD_PAGE_ENTRIES,
    });
    const page = withinBytes(read);
    if (page.length === 0) return;
    yield page.map(conversationEntry);
    after = page[page.length - 1]?.seq ?? through;
    if (read.length < THREAD_PAGE_ENTRIES && page.length === read.length) return;
  }
}

/** The longest run of entries from the first that fits `THREAD_PAGE_BYTES` (at least one). */
function withinBytes(entries: ThreadEntry[]): ThreadEntry[] {
  let bytes = 0;
  for (const [index, entry] of entries.entries()) {
    bytes +=
      entry.kind === 'message' ? utf8Bytes(entry.message.content) : jsonBytes(entry.artifact.data);
    if (bytes > THREAD_PAGE_BYTES && index > 0) return entries.slice(0, index);
  }
  return entries;
}

function conversationEntry(entry: ThreadEntry): ConversationEntry {
  if (entry.kind === 'message') {
    return { kind: 'message', seq: entry.seq, message: subjectMessage(entry.message) };
  }
  const { artifact_id, kind, version, data, run_id } = entry.artifact as ArtifactVersion;
  return {
    kind: 'artifact',
    seq: entry.seq,
    artifact: { artifact_id, kind, version, data, run_id },
  };
}

export const subjectMessage = (m: Message): SubjectMessage => ({
  message_id: m.message_id,
  thread_id: m.thread_id,
  run_id: m.run_id,
  role: m.role,
  content: m.content,
});
