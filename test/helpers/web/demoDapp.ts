import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "chai";
import type { Browser } from "playwright-core";
import { loadConfig } from "../../../src/config/loadConfig";
import { runService, type RunningService } from "../../../src/main/runService";
import { DAPP_BUILD_DIR } from "../../../src/web/assets";
import { buildDappBundle } from "../../../src/web/bundle";
import { launchChromium, openTab, type Tab } from "./browser";

/**
 * Simulated days of the demo's history: enough that its claims (issued along that history, 14 to 30 days each) have
 * closed windows, so the demo has held and failed claims as well as pending ones (about 15 s to start).
 */
export const DEMO_RECORD_DAYS = 40;

/** The demo service with a graded track record, and a Chromium to look at it with (see `useDemoDappInChromium`). */
export type DemoDapp = {
  service: RunningService;
  base: string;
  browser: Browser;
  tabs: Tab[];
  /** A tab on the demo on the real clock (the demo's own), optionally with the injected test wallet. */
  tab(options?: Omit<Parameters<typeof openTab>[2], "fixedTime">): Promise<Tab>;
  /** GET a JSON route of the demo's open API. */
  json<T = unknown>(path: string): Promise<T>;
};

/** Waits until the demo service answers `/readyz` ready (its startup passes, issuing and grading, are done). */
async function waitReady(url: string, timeoutMs = 240_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    const body = (await (await fetch(`${url}/readyz`)).json()) as { ready?: boolean };
    if (body.ready === true) return;
    await new Promise((done) => setTimeout(done, 250));
  }
  throw new Error(`the demo at ${url} was not ready within ${timeoutMs} ms`);
}

/**
 * Registers the mocha hooks of a browser suite on the DEMO (what `npm start` runs with nothing configured): before,
 * the bundle built from the current sources, the service in this process over a fresh DATA_DIR with
 * {@link DEMO_RECORD_DAYS} simulated days on a loopback port (it issues along its history and grades the closed
 * windows, so its accuracy record and the pools' track records have graded claims), and Chromium; after each test,
 * every tab must have stayed clean (no console error, no third-party request); after, everything stopped.
 */
export function useDemoDappInChromium(): DemoDapp {
  let dataDir: string | undefined;
  const suite = {
    tabs: [] as Tab[],
    async tab(options: Omit<Parameters<typeof openTab>[2], "fixedTime"> = {}): Promise<Tab> {
      const opened = await openTab(suite.browser, suite.base, { ...options, fixedTime: null });
      suite.tabs.push(opened);
      return opened;
    },
    async json<T>(path: string): Promise<T> {
      const response = await fetch(`${suite.base}${path}`);
      expect(response.status, path).to.equal(200);
      return (await response.json()) as T;
    },
  } as DemoDapp;

  before(async function () {
    await buildDappBundle({ outDir: DAPP_BUILD_DIR });
    dataDir = mkdtempSync(join(tmpdir(), "demo-record-"));
    const config = loadConfig({
      env: {
        LOG_LEVEL: "silent",
        DATA_DIR: dataDir,
        PORT: "0",
        HOST: "127.0.0.1",
        DEMO_DAYS: String(DEMO_RECORD_DAYS),
        INGEST_INTERVAL_S: "3600",
      },
    });
    suite.service = await runService({ config, log: () => undefined });
    suite.base = suite.service.url.replace("0.0.0.0", "127.0.0.1");
    await waitReady(suite.base);
    suite.browser = await launchChromium();
  });

  after(async function () {
    for (const tab of suite.tabs) await tab.context.close().catch(() => undefined);
    await suite.browser?.close();
    await suite.service?.stop();
    if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
  });

  afterEach(function () {
    const problems = suite.tabs.flatMap((t) => t.problems.splice(0));
    expect(problems, "browser problems").to.deep.equal([]);
  });

  return suite;
}
