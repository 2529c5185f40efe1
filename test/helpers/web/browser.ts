import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import type { PrivateKeyAccount } from "viem/accounts";
import { MARKET_NOW } from "../read/seedMarket";
import { installTestWallet, type TestWallet, type TestWalletMode } from "./testWallet";

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
  } = {},
): Promise<Tab> {
  const width = options.width ?? 1200;
  const context = await browser.newContext({ baseURL, viewport: { width, height: 900 }, deviceScaleFactor: 1 });
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
