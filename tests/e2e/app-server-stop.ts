// Stopping the app's server the way a phone sees it vanish: signaling closed, every open HTTP
// connection cut, the listener gone (the table tests then play with no server at all).
import type { AppServer } from '../../scripts/app-server';

export async function stopAppServer(s: AppServer): Promise<void> {
  await s.signaling.close();
  s.http.closeAllConnections();
  await new Promise<void>((r) => s.http.close(() => r()));
}
