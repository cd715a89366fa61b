// Builds and serves the phase bench page (see ../serve-page.ts); used by bench/phase.ts.
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { servePage, type TestPage } from '../serve-page';

export function startPhasePage(): Promise<TestPage> {
  return servePage(dirname(fileURLToPath(import.meta.url)), { name: 'bench-phase' });
}
