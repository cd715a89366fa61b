import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';

export default defineConfig({
  plugins: [
    react(),
    VitePWA({
      registerType: 'autoUpdate',
      includeAssets: ['icon.svg', 'map/diplomacy-asal.svg', 'map/ATTRIBUTION.md'],
      manifest: {
        name: 'Pacto',
        short_name: 'Pacto',
        description: 'Diplomacy for friends around a table, peer to peer, offline-first.',
        lang: 'es',
        theme_color: '#1d3557',
        background_color: '#f4f1de',
        display: 'standalone',
        start_url: '.',
        icons: [{ src: 'icon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any maskable' }],
      },
      workbox: {
        globPatterns: ['**/*.{js,css,html,svg,png,webmanifest,md}'],
        navigateFallback: 'index.html',
      },
    }),
  ],
  build: { target: 'es2022', sourcemap: false },
});
