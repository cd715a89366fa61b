// `npm run bench`: every speed and size target of the project, as figures and ratios.
// Each part prints its own block; a part that needs something missing (Chromium) says "skipped".
import { benchRules } from './rules';
import { benchCli } from './cli';
import { benchProtocol } from './protocol';
import { benchStore } from './store';
import { benchNet } from './net';
import { benchPhase } from './phase';
import { benchApp } from './app';
import { benchRelay } from './relay';
import { benchTable } from './table';
import { benchPush } from './push';
import { benchServer } from './server';

benchRules();
await benchCli();
await benchProtocol();
await benchStore();
await benchNet();
await benchPhase();
await benchApp();
await benchRelay();
await benchTable();
await benchPush();
await benchServer();
