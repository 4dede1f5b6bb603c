// npm run bench:queues — review queues: what the reviewers' page costs in Chromium (submit → the
// next item on screen, and the page's weight; bench/queues-browser.ts). Each part prints its
// lines and ratios against its own baseline, run in this process; the last line is one JSON
// object of every figure. Not part of `npm test`.
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { browserFigures } from './queues-browser.js';

// The worker's own INFO lines would bury the figures; warnings and errors still show.
Runtime.install({ logger: new DefaultLogger('WARN') });

const figures: Record<string, number> = {};
Object.assign(figures, await browserFigures());
console.log(JSON.stringify(figures));
