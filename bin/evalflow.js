#!/usr/bin/env node
// The CLI runs from the TypeScript sources through tsx, so `npx evalflow` needs no build step.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
