// The app's service worker, built from TypeScript with the app (vite-plugin-pwa, injectManifest).
// 1. The app shell: every built file is precached (the manifest vite-plugin-pwa injects), and a
//    navigation answers with index.html, so the app opens and plays offline.
// 2. Duties in the background (src/ui/background/wake.ts): a push, or a periodic background sync
//    where the browser offers one, opens the game from IndexedDB, fetches what is new from its
//    relays over HTTP, does the automatic duties an open app does and uploads them, and shows the
//    player what is due, in the player's language.
// 3. Tapping a notification focuses an open window of the app on that game's screen, or opens one.
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { openPactoStore } from '../store/open';
import type { GameNotification } from './background/notification';
import { wake } from './background/wake';

// The parts of the service worker's global scope used here (the project's TypeScript checks the
// app with the DOM library, which does not declare them).
interface ExtendableEvent extends Event {
  waitUntil(p: Promise<unknown>): void;
}
interface PushEvent extends ExtendableEvent {
  readonly data: { arrayBuffer(): ArrayBuffer } | null;
}
interface NotificationEvent extends ExtendableEvent {
  readonly notification: Notification;
}
interface WindowClientLike {
  readonly url: string;
  focus(): Promise<unknown>;
  navigate(url: string): Promise<unknown>;
}
interface WorkerScope {
  readonly __WB_MANIFEST: { url: string; revision: string | null }[];
  readonly registration: ServiceWorkerRegistration;
  readonly location: Location;
  readonly clients: {
    claim(): Promise<void>;
    matchAll(o: { type: 'window'; includeUncontrolled: boolean }): Promise<readonly WindowClientLike[]>;
    openWindow(url: string): Promise<unknown>;
  };
  skipWaiting(): Promise<void>;
  addEventListener(type: 'push', f: (e: PushEvent) => void): void;
  addEventListener(type: 'periodicsync', f: (e: ExtendableEvent & { readonly tag: string }) => void): void;
  addEventListener(type: 'notificationclick', f: (e: NotificationEvent) => void): void;
  addEventListener(type: 'activate' | 'install', f: (e: ExtendableEvent) => void): void;
}
const sw = self as unknown as WorkerScope;

// A new version takes over at once (the app's registerType is autoUpdate).
sw.addEventListener('install', () => void sw.skipWaiting());
sw.addEventListener('activate', (e) => e.waitUntil(sw.clients.claim()));
cleanupOutdatedCaches();
// Written on `self` as such: the build replaces `self.__WB_MANIFEST` with the list of built files.
precacheAndRoute((self as unknown as WorkerScope).__WB_MANIFEST);
registerRoute(new NavigationRoute(createHandlerBoundToURL('index.html')));

let store: ReturnType<typeof openPactoStore> | null = null;

async function show(n: GameNotification): Promise<void> {
  await sw.registration.showNotification(n.title, {
    body: n.body,
    tag: n.tag,
    data: { url: n.url, kind: n.kind },
    icon: 'icon.svg',
    ...({ renotify: true } as object),
  });
}

async function background(payload: Uint8Array | null): Promise<void> {
  store ??= openPactoStore();
  const results = await wake({ store: await store, payload, location: sw.location, show, languages: [...(navigator.languages ?? [])] });
  for (const r of results) if (r.errors.length > 0) console.warn('pacto: background', r.gameId, r.errors);
}

sw.addEventListener('push', (e) => {
  const data = e.data === null ? null : new Uint8Array(e.data.arrayBuffer());
  e.waitUntil(background(data).catch((err) => console.warn('pacto: background work failed', err)));
});

sw.addEventListener('periodicsync', (e) => {
  if (e.tag === 'pacto-duties') e.waitUntil(background(null).catch((err) => console.warn('pacto: background work failed', err)));
});

sw.addEventListener('notificationclick', (e) => {
  e.notification.close();
  const url = new URL(typeof e.notification.data?.url === 'string' ? e.notification.data.url : '#/', sw.registration.scope).href;
  e.waitUntil(
    (async () => {
      const windows = await sw.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const w = windows.find((c) => c.url.startsWith(sw.registration.scope));
      if (w !== undefined) {
        await w.navigate(url).catch(() => undefined);
        await w.focus();
      } else await sw.clients.openWindow(url);
    })(),
  );
});
