// Builds and serves this test page (see ../serve-page.ts).
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { servePage, type TestPage } from '../serve-page';

export type ScreensPage = TestPage;

export function startScreensPage(): Promise<ScreensPage> {
  return servePage(dirname(fileURLToPath(import.meta.url)), { name: 'screens', react: true });
}
