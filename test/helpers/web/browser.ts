import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { expect } from "chai";
import type { FastifyInstance } from "fastify";
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from "playwright-core";
import type { PrivateKeyAccount } from "viem/accounts";
import type { Store } from "../../../src/storage/openStore";
import { DAPP_BUILD_DIR } from "../../../src/web/assets";
import { buildDappBundle } from "../../../src/web/bundle";
import { MARKET_NOW } from "../read/seedMarket";
import { openTempStore } from "../service/app";
import { installTestWallet, type TestWallet, type TestWalletMode } from "./testWallet";
import { buildWebApp, seedWeb } from "./webApp";

/** Debian's Chromium (`.ci/run` installs it when missing); playwright-core never downloads a browser. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Where every page's screenshot is written (gitignored). */
export const SCREENSHOTS = resolve(__dirname, "..", "..", "..", "test-output", "screenshots");

/** Starts headless Chromium with a fresh profile (playwright's `launch` makes a new temporary user-data-dir). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

/** A browser tab on the app, with what went wrong in it: console errors (CSP refusals land there) and page errors. */
export type Tab = { context: BrowserContext; page: Page; wallet: TestWallet | null; problems: string[] };

/**
 * A fresh browser context on `baseURL` whose clock reads the market fixture's time (the service runs on it, and a
 * sign-in message is checked against it), optionally with the injected test wallet. Every request the page makes to
 * anything but `baseURL` is aborted and recorded as a problem: the pages must need no third party.
 */
export async function openTab(
  browser: Browser,
  baseURL: string,
  options: {
    wallet?: { account: PrivateKeyAccount; mode?: TestWalletMode } | null;
    width?: number;
    /** The page's clock, Unix ms: the market fixture's by default; null keeps the real clock. */
    fixedTime?: number | null;
    /** Let the test add inline scripts (axe-core's source, see `a11y.browser.test.ts`) despite the page's CSP. */
    bypassCSP?: boolean;
    /** The viewport's height (900 by default; a phone's is 844). */
    height?: number;
  } = {},
): Promise<Tab> {
  const width = options.width ?? 1200;
  const context = await browser.newContext({
    baseURL,
    viewport: { width, height: options.height ?? 900 },
    deviceScaleFactor: 1,
    bypassCSP: options.bypassCSP ?? false,
  });
  const fixedTime = options.fixedTime === undefined ? MARKET_NOW * 1000 : options.fixedTime;
  if (fixedTime !== null) await context.clock.setFixedTime(fixedTime);
  const wallet = options.wallet ? await installTestWallet(context, options.wallet) : null;
  const problems: string[] = [];
  await context.route(
    (url) => url.origin !== new URL(baseURL).origin && url.protocol !== "data:",
    async (route) => {
      problems.push(`third-party request: ${route.request().url()}`);
      await route.abort();
    },
  );
  const page = await context.newPage();
  page.on("console", (message) => {
    // A 401/403/404 the page asked for on purpose is logged by Chromium as a failed resource; the tests assert those.
    if (message.type() === "error" && !/status of (401|403|404)/.test(message.text()))
      problems.push(`console: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  return { context, page, wallet, problems };
}

/** Saves a full-page screenshot as `test-output/screenshots/<name>.png` and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const path = join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/** A screenshot of what the viewport shows once the first `selector` is scrolled to the top. */
export async function sectionShot(page: Page, selector: string, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page
    .locator(selector)
    .first()
    .evaluate((element) => element.scrollIntoView());
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
}

/** Signs the tab's page in with its injected test wallet from `path`, and waits to be back on `path`. */
export async function signInWithWallet(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await page.getByText("Wallet found: Test Wallet.").waitFor();
  await page.getByRole("button", { name: "Sign in with Ethereum" }).click();
  await page.waitForURL(`**${path}`);
}

/**
 * Two tabs of one signed-in session: `desktop` (1280 px, with the test wallet `account`, signed in on `/app/pools`)
 * and `phone` (390 px, no wallet) holding the desktop's session cookie.
 */
export async function signedInDesktopAndPhone(
  web: Pick<DappInChromium, "tab">,
  account: PrivateKeyAccount,
): Promise<{ desktop: Tab; phone: Tab }> {
  const desktop = await web.tab({ wallet: { account }, width: 1280 });
  await signInWithWallet(desktop.page, "/app/pools");
  const phone = await web.tab({ width: 390 });
  await phone.context.addCookies(await desktop.context.cookies());
  return { desktop, phone };
}

/** The dapp served by the real app on a real port, and a Chromium to look at it with (see `useDappInChromium`). */
export type DappInChromium = {
  browser: Browser;
  app: FastifyInstance;
  store: Store;
  base: string;
  /** Every tab opened by `tab`: closed after the suite, and checked for problems after each test. */
  tabs: Tab[];
  /** Opens a tab on the app (see `openTab`) that the suite closes and checks. */
  tab(options?: Parameters<typeof openTab>[2]): Promise<Tab>;
  /** A bare browser context on the app (no test wallet, no problem recording) that the suite closes. */
  context(options?: BrowserContextOptions): Promise<BrowserContext>;
};

/**
 * Registers the mocha hooks of a browser suite on the dapp: before, the bundle built from the current sources (what
 * `npm run build:dapp` does), a temporary store seeded with `seedWeb`, the app listening on a loopback port with
 * `env`, and Chromium; after each test, every tab must have stayed clean (no console error, a CSP refusal being one,
 * no third-party request); after, everything closed. Its fields are set once the `before` hook has run.
 */
export function useDappInChromium(env: Record<string, string> = {}): DappInChromium {
  let cleanup: (() => Promise<void>) | undefined;
  const contexts: BrowserContext[] = [];
  const suite = {
    tabs: [] as Tab[],
    async tab(options: Parameters<typeof openTab>[2] = {}): Promise<Tab> {
      const opened = await openTab(suite.browser, suite.base, options);
      suite.tabs.push(opened);
      return opened;
    },
    async context(options: BrowserContextOptions = {}): Promise<BrowserContext> {
      const context = await suite.browser.newContext({ baseURL: suite.base, ...options });
      contexts.push(context);
      return context;
    },
  } as DappInChromium;

  before(async function () {
    await buildDappBundle({ outDir: DAPP_BUILD_DIR });
    const temp = await openTempStore();
    cleanup = temp.cleanup;
    suite.store = temp.store;
    await seedWeb(temp.store);
    suite.app = await buildWebApp(temp.store, env);
    suite.base = await suite.app.listen({ port: 0, host: "127.0.0.1" });
    suite.browser = await launchChromium();
  });

  after(async function () {
    for (const context of [...suite.tabs.map((t) => t.context), ...contexts])
      await context.close().catch(() => undefined);
    await suite.browser?.close();
    await suite.app?.close();
    await cleanup?.();
  });

  afterEach(function () {
    const problems = suite.tabs.flatMap((t) => t.problems.splice(0));
    expect(problems, "browser problems").to.deep.equal([]);
  });

  return suite;
}
