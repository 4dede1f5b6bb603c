import { z } from 'zod';
import { defineRoutes } from './contract.js';

// Liveness and readiness (the store and Temporal answer): no key needed.

export const Health = z.object({
  status: z.enum(['ok', 'unavailable']),
  checks: z.record(z.string(), z.string()),
});

const tags = ['health'];

export const healthRoutes = defineRoutes({
  health: {
    method: 'GET',
    path: '/healthz',
    allow: 'public',
    tags,
    summary: 'The process is up',
    answers: { 200: Health },
  },
  ready: {
    method: 'GET',
    path: '/readyz',
    allow: 'public',
    tags,
    summary: 'The store and Temporal answer',
    answers: { 200: Health, 503: Health },
  },
});
