import { z } from 'zod';
import { EvaluatorId, Id } from '../../core/index.js';

// The path params routes of several groups share: what a route is about, declared once.

const id = z.string().min(1);

export const ThreadParams = z.object({ threadId: id });
export const RunParams = z.object({ runId: id });
export const QueueParams = z.object({ queueId: Id });
export const EvaluatorParams = z.object({ evaluator: EvaluatorId });
