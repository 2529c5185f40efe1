import { readFileSync } from "node:fs";
import { expect } from "chai";
import type { Page } from "playwright-core";
import { IDS } from "../helpers/read/seedMarket";
import { signInWithWallet, useDappInChromium, type Tab } from "../helpers/web/browser";
import { WALLET } from "../helpers/web/webApp";

/** axe-core's source, injected into each page as an inline script (no network). */
const AXE_SOURCE = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");

type AxeViolation = { id: string; impact: string; help: string; nodes: { target: string[] }[] };

/** Runs axe-core on the page as it stands; returns one line per violation (rule, impact, the first targets). */
async function axeViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => "axe" in window))) await page.addScriptTag({ content: AXE_SOURCE });
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<unknown> } }).axe;
    const result = (await axe.run(document, { resultTypes: ["violations"] })) as { violations: unknown[] };
    return result.violations;
  });
  return (violations as AxeViolation[]).map(
    (v) =>
      `${v.id} (${v.impact}): ${v.help} — ${v.nodes
        .map((n) => n.target.join(" "))
        .slice(0, 4)
        .join(", ")}`,
  );
}

/**
 * The GET pages the app serves under `/app` (not `/app/api`), from the router itself (`printRoutes`), so a page
 * added later without a line below fails this test.
 */
function routedPages(routes: string): string[] {
  const paths = new Set<string>();
  const stack: { depth: number; path: string }[] = [];
  for (const line of routes.split("\n")) {
    const match = /^([│ ]*)(?:[└├]── )(\S+)(?: \(([^)]*)\))?/.exec(line);
    if (match === null) continue;
    const depth = match[1].length;
    while (stack.length > 0 && stack[stack.length - 1].depth >= depth) stack.pop();
    const path = (stack.length > 0 ? stack[stack.length - 1].path : "") + match[2];
    stack.push({ depth, path });
    if (match[3]?.split(", ").includes("GET")) paths.add(path.replace(/\/$/, "") || "/");
  }
  // Not pages: the JSON API and the bundle's files.
  return [...paths]
    .filter((p) => p.startsWith("/app") && !p.startsWith("/app/api") && !p.startsWith("/app/assets"))
    .sort();
}

/**
 * axe-core (from npm, its source injected into the page) on every page of the dapp, signed in, at 1280 and 390 px
 * in Debian's Chromium: no violation of any rule axe runs by default (WCAG 2.x A and AA, best practices).
 */
describe("accessibility: axe-core on every dapp page at 1280 and 390 px (Chromium)", function () {
  this.timeout(300_000);
  const web = useDappInChromium({ ALERTS_ALLOW_PRIVATE_TARGETS: "1" });
  let signedIn: Tab;
  /** Every page once: the router's path (with `:param`) and the URL visited for it. */
  let pages: { route: string; url: string }[];

  before(async function () {
    signedIn = await web.tab({ wallet: { account: WALLET }, width: 1280, bypassCSP: true });
    const { page } = signedIn;
    await signInWithWallet(page, "/app/pools");
    const origin = { origin: web.base };
    const key = (await (
      await page.request.post("/app/api/keys", { headers: origin, data: { label: "bot" } })
    ).json()) as {
      id: string;
      key: string;
    };
    const request = await page.request.post("/api/v1/liquidity-requests", {
      headers: { authorization: `Bearer ${key.key}` },
      data: { chainId: 1, pool: IDS.a, amountUsd: 1_250_000, horizonDays: 45, note: "for a desk" },
    });
    expect(request.status()).to.equal(201);
    const subscribed = await page.request.post("/app/api/alert-subscriptions", {
      headers: origin,
      data: { url: "http://127.0.0.1:9/hook", kinds: ["pool.stale"] },
    });
    const subscription = (await subscribed.json()) as { id: string };
    pages = [
      { route: "/app", url: "/app" },
      { route: "/app/sign-in", url: "/app/sign-in" },
      { route: "/app/pools", url: "/app/pools" },
      { route: "/app/pools/:pool", url: `/app/pools/${IDS.e}` },
      { route: "/app/volume", url: "/app/volume" },
      { route: "/app/liquidity-map", url: "/app/liquidity-map" },
      { route: "/app/compare", url: `/app/compare?pools=${[IDS.a, IDS.c, IDS.e, IDS.f].join(",")}` },
      { route: "/app/roadmap", url: "/app/roadmap" },
      { route: "/app/model", url: "/app/model" },
      { route: "/app/launch", url: "/app/launch" },
      { route: "/app/activity", url: "/app/activity" },
      { route: "/app/liquidity-requests", url: "/app/liquidity-requests" },
      { route: "/app/keys", url: "/app/keys" },
      { route: "/app/keys/:id/revoke", url: `/app/keys/${key.id}/revoke` },
      { route: "/app/alerts", url: "/app/alerts" },
      { route: "/app/alerts/:id/delete", url: `/app/alerts/${subscription.id}/delete` },
      { route: "(error)", url: "/app/no-such-page" },
    ];
  });

  it("lists every GET page of the router once", function () {
    const routed = routedPages(web.app.printRoutes({ commonPrefix: false }));
    expect(routed.length, "the router lists pages").to.be.greaterThan(10);
    const listed = pages.map((p) => p.route).filter((r) => r !== "(error)");
    expect([...listed].sort()).to.deep.equal(routed);
  });

  it("reports a violation when there is one (axe really runs)", async function () {
    const { page } = signedIn;
    await page.goto("/app/roadmap");
    await page.evaluate(() => {
      const box = document.createElement("div");
      box.style.cssText = "overflow:auto;height:40px";
      box.innerHTML = `<p style="width:3000px;height:200px">wide</p>`;
      const image = document.createElement("img");
      image.src = "data:image/gif;base64,R0lGODlhAQABAAAAACw=";
      box.append(image);
      document.querySelector("main")!.append(box);
    });
    const found = await axeViolations(page);
    expect(
      found.some((line) => line.startsWith("scrollable-region-focusable")),
      found.join("\n"),
    ).to.equal(true);
  });

  for (const width of [1280, 390]) {
    it(`finds no axe violation on any page at ${width} px, signed in`, async function () {
      const tab = width === 1280 ? signedIn : await web.tab({ width, height: 844, bypassCSP: true });
      if (tab !== signedIn) await tab.context.addCookies(await signedIn.context.cookies());
      const found: string[] = [];
      for (const { route, url } of pages) {
        await tab.page.goto(url);
        if (route === "/app/pools/:pool") await tab.page.locator("[data-verify][data-result]").waitFor();
        if (route === "/app/sign-in") {
          // Signed in, the sign-in page sends the visitor on; its own form is checked signed out below.
          continue;
        }
        for (const line of await axeViolations(tab.page)) found.push(`${url}: ${line}`);
        // On a phone, again with the Menu open (its links then in the page).
        const menu = tab.page.locator("nav.pages summary");
        if (width === 390 && (await menu.isVisible())) {
          await menu.click();
          for (const line of await axeViolations(tab.page)) found.push(`${url} (menu open): ${line}`);
        }
      }
      // The alerts page with a subscription's confirmation shown (the secret, its Copy button), and a test event sent.
      await tab.page.goto("/app/alerts");
      await tab.page.getByLabel("Target URL").fill(`http://127.0.0.1:9/a11y-${width}`);
      await tab.page.getByRole("checkbox", { name: "pool.stale" }).check();
      await tab.page.getByRole("button", { name: "Subscribe" }).click();
      await tab.page.locator("[data-new-secret]").waitFor({ state: "visible" });
      for (const line of await axeViolations(tab.page)) found.push(`/app/alerts (subscribed): ${line}`);
      // The sign-in page, signed out.
      const out = await web.tab({ width, bypassCSP: true });
      await out.page.goto("/app/sign-in");
      for (const line of await axeViolations(out.page)) found.push(`/app/sign-in (signed out): ${line}`);
      expect(found, `axe violations at ${width} px`).to.deep.equal([]);
    });
  }
});
