// Builds and serves this test page (see ../serve-page.ts).
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { servePage, type TestPage } from '../serve-page';

export type NetPage = TestPage;

export function startNetPage(): Promise<NetPage> {
  return servePage(dirname(fileURLToPath(import.meta.url)), { name: 'net' });
}
