// The signaling server alone in a process, so a load test measures its memory and not the clients'.
// SIGNAL_LIMITS (JSON) overrides some of its limits.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { attachSignaling } from '../../../src/net/signal/server';

const http = createServer();
const signaling = attachSignaling(http, process.env.SIGNAL_LIMITS ? JSON.parse(process.env.SIGNAL_LIMITS) : {});
http.listen(0, '127.0.0.1', () => process.send!({ type: 'listening', port: (http.address() as AddressInfo).port }));

// An orphan (its test runner gone) exits instead of lingering.
process.on('disconnect', () => process.exit(0));
process.on('message', (cmd: { type: string }) => {
  if (cmd.type === 'stats') {
    process.send!({ type: 'stats', stats: { ...signaling.stats }, memory: process.memoryUsage() });
  } else if (cmd.type === 'exit') {
    void signaling.close().then(() => http.close(() => process.exit(0)));
  }
});
