// Builds and serves this test page (see ../serve-page.ts).
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { servePage, type TestPage } from '../serve-page';

export type StorePage = TestPage;

export function startStorePage(): Promise<StorePage> {
  return servePage(dirname(fileURLToPath(import.meta.url)), { name: 'store' });
}
