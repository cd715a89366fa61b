import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import { MANIFEST_ICONS } from './scripts/icons';

/** For the service worker's build: src/store/yjs.ts loads Yjs with import(), which a classic
 *  worker script may not contain (nor the import.meta of vite's preload helper that wraps it), so
 *  the worker gets src/store/yjs-static.ts instead. */
const STORE_YJS = fileURLToPath(new URL('./src/store/yjs.ts', import.meta.url));
const staticYjsInWorker: Plugin = {
  name: 'pacto-static-yjs-in-worker',
  enforce: 'pre',
  async resolveId(source, importer, options) {
    if (source !== './yjs' || importer === undefined) return null;
    const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
    return resolved?.id === STORE_YJS ? fileURLToPath(new URL('./src/store/yjs-static.ts', import.meta.url)) : null;
  },
};

export default defineConfig({
  plugins: [
    react(),
    VitePWA({
      registerType: 'autoUpdate',
      // The service worker is ours (src/ui/sw.ts): the precached app shell, and duties in the background.
      strategies: 'injectManifest',
      srcDir: 'src/ui',
      filename: 'sw.ts',
      includeAssets: [
        'icon.svg',
        'icon-192.png',
        'icon-512.png',
        'icon-maskable-512.png',
        'apple-touch-icon.png',
        'map/diplomacy-asal.svg',
        'map/ATTRIBUTION.md',
      ],
      manifest: {
        name: 'Pacto',
        short_name: 'Pacto',
        description: 'Diplomacy for friends around a table, peer to peer, offline-first.',
        lang: 'es',
        theme_color: '#1d3557',
        background_color: '#f4f1de',
        display: 'standalone',
        start_url: '.',
        // PNGs rendered from icon.svg by scripts/icons.ts: install prompts want 192 and 512 px PNGs,
        // and a maskable icon keeps its drawing inside the launcher's safe circle.
        icons: MANIFEST_ICONS,
      },
      injectManifest: {
        buildPlugins: { vite: [staticYjsInWorker] },
        globPatterns: ['**/*.{js,css,html,svg,png,webmanifest,md}'],
        // The worker carries the protocol and the rules engine (it reduces and signs like the app).
        maximumFileSizeToCacheInBytes: 4 * 1024 * 1024,
      },
    }),
  ],
  build: { target: 'es2022', sourcemap: false },
});
