/// <reference types="vitest/config" />
// The web console: a React single-page application built into dist/apps/console (tools/build/build.js
// runs this build), served by integration-config at `/`. `npm run test:console` runs its component
// tests (src/**/*.test.tsx) in happy-dom.
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

export default defineConfig({
  root: import.meta.dirname,
  plugins: [react()],
  // `@console/…` is the console's src folder, the HTTP API's generated types and the contract's
  // constants, as apps/console/tsconfig.json maps them (Vitest shares this config).
  resolve: {
    alias: {
      '@console': fileURLToPath(new URL('./src', import.meta.url)),
      '@alert-ingestion/contracts/access': fileURLToPath(new URL('../../libs/shared/contracts/src/access/index.ts', import.meta.url)),
      '@alert-ingestion/contracts/alert': fileURLToPath(new URL('../../libs/shared/contracts/src/alert/index.ts', import.meta.url)),
      '@alert-ingestion/contracts/deprecations': fileURLToPath(new URL('../../libs/shared/contracts/src/deprecations/index.ts', import.meta.url)),
      '@alert-ingestion/contracts/http': fileURLToPath(new URL('../../libs/shared/contracts/src/http/index.ts', import.meta.url)),
      '@alert-ingestion/contracts/management': fileURLToPath(new URL('../../libs/shared/contracts/src/management/index.ts', import.meta.url)),
      '@alert-ingestion/contracts/oncall': fileURLToPath(new URL('../../libs/shared/contracts/src/oncall/index.ts', import.meta.url)),
    },
  },
  build: {
    outDir: '../../dist/apps/console',
    emptyOutDir: true,
    // One bundle for the screens: the console is small, and every page is a click away. About 521 kB
    // with its typed API client and the alert workflow's screens; the Markdown renderer of notes
    // (about 120 kB) is its own chunk, loaded with the first note, and so are the on-call schedules'
    // screens (about 35 kB), with the first of them, and escalation's (the policy editor, an alert's
    // Escalation card, the profile's paging: about 25 kB). A warning says when it grows past this.
    chunkSizeWarningLimit: 525,
  },
  // In development (`npx vite apps/console`), the APIs come from the running stack.
  server: { proxy: { '/api': 'http://127.0.0.1:8081' } },
  test: {
    environment: 'happy-dom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test-setup.ts'],
  },
});
