import { DynamicModule, Inject, Logger, Module, OnModuleInit } from '@nestjs/common';
import { setSecurityHeaders } from '@alert-ingestion/http';
import { HttpAdapterHost } from '@nestjs/core';
import express from 'express';
import { existsSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';

const CONSOLE_DIR = Symbol('CONSOLE_DIR');

/** Paths that are never the console's: the APIs and the probes answer them, or 404 in JSON. */
const NOT_CONSOLE = /^\/(api|healthz|metrics)(\/|$)/;
/** Built files carry a content hash in their name; a missing one is a 404, never the page. */
const ASSET = /^\/assets\//;

/**
 * The console's build (`dist/apps/console`, made by `npm run build`), found from this file upward
 * so it works from dist/ and from the sources under jest; null when it has not been built.
 */
export function findConsoleDir(from: string = __dirname): string | null {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'dist', 'apps', 'console');
    if (existsSync(join(candidate, 'index.html'))) return candidate;
    if (dirname(dir) === dir) return null;
  }
}

/** Caching (hashed files for a year, the page never without asking) and the console's security headers. */
function consoleHeaders(response: express.Response, file: string): void {
  const hashed = file.includes(`${sep}assets${sep}`);
  response.setHeader('Cache-Control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
  setSecurityHeaders(response, 'webConsole');
}

/**
 * Serves the web console at `/`: its files, and its page for any other GET (the console routes in
 * the browser). Registered in onModuleInit, which Nest runs after it has registered every
 * controller's routes, so the APIs, `/healthz` and `/metrics` keep priority, and before its
 * not-found handler, so unknown API paths still get the JSON 404.
 */
@Module({})
export class ConsoleStaticModule implements OnModuleInit {
  private readonly logger = new Logger('Console');

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    @Inject(CONSOLE_DIR) private readonly consoleDir: string | null,
  ) {}

  static forRoot(consoleDir: string | null = findConsoleDir()): DynamicModule {
    return { module: ConsoleStaticModule, providers: [{ provide: CONSOLE_DIR, useValue: consoleDir }] };
  }

  onModuleInit(): void {
    const root = this.consoleDir;
    if (root === null) {
      this.logger.warn('the web console is not built (no dist/apps/console): `npm run build` builds it');
      return;
    }
    const app = this.adapterHost.httpAdapter.getInstance<express.Express>();
    app.use(express.static(root, { index: 'index.html', setHeaders: consoleHeaders }));
    app.get('{*path}', (request, response, next) => {
      if (NOT_CONSOLE.test(request.path) || ASSET.test(request.path)) return next();
      consoleHeaders(response, join(root, 'index.html'));
      response.sendFile('index.html', { root });
    });
  }
}
