import type { AccessLevel } from '@alert-ingestion/contracts';
import { ServiceStack, STACK_ADMIN_TOKEN } from '@alert-ingestion/testing';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Browser, BrowserContext, chromium, ConsoleMessage, Page } from 'playwright-core';

// The stack is the shared harness's (libs/shared/testing): the console is at integration-config's URL.
export { ServiceStack as ConsoleStack } from '@alert-ingestion/testing';
export const ADMIN_TOKEN = STACK_ADMIN_TOKEN;

/** A call to the stack's `/api/v4` (integration-config, the console's origin) as `token`, the administrator's unless given; throws unless 2xx. */
export async function stackApi<T>(stack: ServiceStack, method: string, path: string, body?: unknown, token = ADMIN_TOKEN): Promise<T> {
  const answer = await stack.answerAs<T>(token, method, path, body);
  if (answer.status < 200 || answer.status > 299) throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

/** A new user, made a member of the project at `accessLevel` by the administrator: their id, username and token. */
export async function addMember(stack: ServiceStack, projectId: number, username: string, accessLevel: AccessLevel): Promise<{ id: number; username: string; token: string }> {
  const user = await stackApi<{ id: number; username: string; token: string }>(stack, 'POST', '/users', { username });
  await stackApi(stack, 'POST', `/projects/${projectId}/members`, { user_id: user.id, access_level: accessLevel });
  return user;
}

/** An HTTP integration the administrator created, and how to send it an alert. */
export interface HttpIntegration {
  id: number;
  url: string;
  authorization_key: string;
  /** Posts `alert` to the receiving URL with the key; resolves with the iid of the alert it was stored as (any answer but 200 throws). */
  send(alert: Record<string, unknown>): Promise<number>;
}

/** Creates an active HTTP integration named `name` in the project (by the administrator). */
export async function addHttpIntegration(stack: ServiceStack, projectId: number, name = 'Prometheus'): Promise<HttpIntegration> {
  const created = await stackApi<{ id: number }>(stack, 'POST', `/projects/${projectId}/alert_integrations`, { type: 'http', name, active: true });
  const { url, authorization_key } = await stackApi<{ url: string; authorization_key: string }>(stack, 'GET', `/projects/${projectId}/alert_integrations/${created.id}`);
  const send = async (alert: Record<string, unknown>) => {
    const answer = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${authorization_key}`, 'content-type': 'application/json' },
      body: JSON.stringify(alert),
    });
    if (answer.status !== 200) throw new Error(`receive: ${answer.status} ${await answer.text()}`);
    return ((await answer.json()) as Array<{ iid: number }>)[0].iid;
  };
  return { id: created.id, url, authorization_key, send };
}

/** Debian's Chromium (README "Run it"); no test tool downloads a browser. */
const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const REPO_ROOT = join(__dirname, '..', '..', '..', '..');

/**
 * Screenshots of the main pages. The README shows the copies in docs/images/, refreshed with
 * UPDATE_SCREENSHOTS=1; an ordinary run writes them under tmp/ so it leaves the tree as it was.
 */
export const SCREENSHOT_DIR = process.env['UPDATE_SCREENSHOTS'] ? join(REPO_ROOT, 'docs', 'images') : join(REPO_ROOT, 'tmp', 'console-screenshots');
/** Where the page of a failed step is saved, to see what the browser showed. */
const FAILURE_DIR = join(REPO_ROOT, 'tmp', 'console-failures');

/**
 * A browser tab on the console that fails the test on any browser console error or uncaught page
 * error. A step that provokes an error on purpose names it in `expectConsoleErrors`.
 */
export class ConsoleBrowser {
  private readonly errors: string[] = [];
  private expected: RegExp[] = [];

  private constructor(
    private readonly browser: Browser,
    readonly context: BrowserContext,
    readonly page: Page,
  ) {
    page.on('console', (message: ConsoleMessage) => {
      if (message.type() === 'error') this.errors.push(`console: ${message.text()} (${message.location().url})`);
    });
    page.on('pageerror', (error) => this.errors.push(`page error: ${error.message}`));
  }

  static async launch(baseURL: string): Promise<ConsoleBrowser> {
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install Debian's chromium package (apt-get install -y chromium)`);
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
    const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 800 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
    // Everything the console loads comes from its own origin: any other request fails the test.
    await context.route(
      (url) => !url.href.startsWith(baseURL),
      (route) => route.abort(),
    );
    // Every page of the console answers within a second or two, but the machine may be busy (other
    // stacks, builds): each wait has room, as a person would wait.
    context.setDefaultTimeout(45_000);
    return new ConsoleBrowser(browser, context, await context.newPage());
  }

  /** The page's title (its one h1). */
  heading(name: string | RegExp) {
    return this.page.getByRole('heading', { name, level: 1 });
  }

  /** Signs in with `token` as a person does (after signing out, with `signOutFirst`), and waits for the project list. */
  async signIn(token: string, { signOutFirst = false } = {}): Promise<void> {
    if (signOutFirst) await this.page.getByRole('button', { name: 'Sign out' }).click();
    else await this.page.goto('/');
    await this.page.waitForURL('**/sign-in');
    const field = this.page.getByLabel('Access token', { exact: true });
    await field.fill(token);
    await field.press('Enter');
    await this.heading('Projects').waitFor();
  }

  /** Errors the current step expects (e.g. the 401 of a revoked token); cleared by takeErrors. */
  expectConsoleErrors(...patterns: RegExp[]): void {
    this.expected = patterns;
  }

  /** The unexpected console errors since the last call. */
  takeErrors(): string[] {
    const unexpected = this.errors.filter((error) => !this.expected.some((pattern) => pattern.test(error)));
    this.errors.splice(0);
    this.expected = [];
    return unexpected;
  }

  /** The whole page, or with `viewportOnly` what a 1280x800 screen shows of a long one. */
  async screenshot(name: string, { viewportOnly = false } = {}): Promise<void> {
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    await this.page.waitForFunction(() => [...document.images].every((image) => image.complete));
    await this.page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), fullPage: !viewportOnly });
  }

  /** Saves the page as it is (after a failed step); returns the file. */
  async saveFailure(step: string): Promise<string> {
    mkdirSync(FAILURE_DIR, { recursive: true });
    const path = join(FAILURE_DIR, `${step.replace(/\W+/g, '-').slice(0, 80)}.png`);
    await this.page.screenshot({ path, fullPage: true }).catch(() => undefined);
    return path;
  }

  async close(): Promise<void> {
    await this.browser.close();
  }
}

/**
 * Steps that build on each other, run in order on one browser tab: after a failure the rest fail at
 * once, naming the cause, and the page of the failed step is saved. Each step also fails on any
 * unexpected browser console error. `browser` is read when a step runs (it is launched in beforeAll).
 */
export function stepsInOrder(browser: () => ConsoleBrowser, timeoutMs?: number) {
  let failedStep: string | null = null;
  return (name: string, run: () => Promise<void>) =>
    it(
      name,
      async () => {
        if (failedStep) throw new Error(`not run: the earlier step "${failedStep}" failed`);
        try {
          await run();
          expect(browser().takeErrors()).toEqual([]);
        } catch (error) {
          failedStep = name;
          const screenshot = await browser().saveFailure(name);
          // Jest prints the stack, which holds the message as it was when the error was made.
          if (error instanceof Error) error.stack = `${error.stack ?? error.message}\n    (the page at ${browser().page.url()} is saved in ${screenshot})`;
          throw error;
        }
      },
      timeoutMs,
    );
}
