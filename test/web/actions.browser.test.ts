import { expect } from "chai";
import type { Page } from "playwright-core";
import { Webhook } from "standardwebhooks";
import { deliverDueAlerts } from "../../src/alerts/deliverAlert";
import { testDeliveryContext } from "../helpers/alerts/deliveryContext";
import { startReceiver, waitFor, type Receiver } from "../helpers/alerts/receiver";
import { screenshot, signInWithWallet, useDappInChromium, type Tab } from "../helpers/web/browser";
import { WALLET } from "../helpers/web/webApp";

type Key = { id: string; key: string; label: string | null; revokedAt?: number | null };

/**
 * The dapp's actions in Debian's Chromium on the real app: a destructive action asks first (the dialog with
 * JavaScript, a confirmation page without), the buttons of two unlabelled keys have distinct names, forms show every
 * invalid field at once under it (`aria-invalid`, `aria-describedby`), the activity page filters by kind, and a
 * subscription's test event reaches a loopback receiver, signed.
 */
describe("dapp actions: confirmations, field errors, the kind filter, test events (Chromium)", function () {
  this.timeout(240_000);
  const web = useDappInChromium({ ALERTS_ALLOW_PRIVATE_TARGETS: "1" });
  let receiver: Receiver;
  let signedIn: Tab;
  let page: Page;
  const origin = () => ({ origin: web.base });
  /** Drops the console line Chromium writes for a refusal the test asked for on purpose (the test asserts it). */
  const asked = async (status: number) => {
    const line = () => signedIn.problems.findIndex((p) => p.includes(`status of ${status}`));
    await waitFor(() => line() >= 0, `the console line of the ${status}`, 5000);
    signedIn.problems.splice(line(), 1);
  };

  const keys = async (): Promise<Key[]> =>
    ((await (await page.request.get("/app/api/keys")).json()) as { keys: Key[] }).keys;
  const subscriptions = async () =>
    ((await (await page.request.get("/app/api/alert-subscriptions")).json()) as { subscriptions: { id: string }[] })
      .subscriptions;
  /** A signed-in context with JavaScript off (the session cookie copied over). */
  async function withoutScript(): Promise<Page> {
    const context = await web.context({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
    await context.addCookies(await signedIn.context.cookies());
    return context.newPage();
  }

  before(async function () {
    receiver = await startReceiver();
    signedIn = await web.tab({ wallet: { account: WALLET }, width: 1280 });
    page = signedIn.page;
    await signInWithWallet(page, "/app/keys");
  });

  after(async function () {
    await receiver?.close();
  });

  describe("revoking a key", function () {
    let unlabelled: Key[];

    before(async function () {
      for (const label of [null, null])
        await page.request.post("/app/api/keys", { headers: origin(), data: { label } });
      unlabelled = (await keys()).filter((key) => key.label === null);
      await page.goto("/app/keys");
    });

    it("gives the buttons of two unlabelled keys distinct names, each with the key's id and creation time", async function () {
      const buttons = page.getByRole("button", { name: /^Revoke unlabelled key/ });
      expect(await buttons.count()).to.equal(2);
      const names = await buttons.evaluateAll((all) => all.map((b) => b.getAttribute("aria-label")));
      expect(new Set(names).size).to.equal(2);
      for (const [i, key] of unlabelled.entries()) {
        expect(names[i]).to.equal(`Revoke unlabelled key (id ${key.id.slice(0, 8)}, created 2026-01-15 12:00 UTC)`);
      }
    });

    it("asks first in a dialog: Cancel (or Escape) keeps the key, confirming revokes it", async function () {
      const [first] = unlabelled;
      const button = page.getByRole("button", { name: `Revoke unlabelled key (id ${first.id.slice(0, 8)}` });
      await button.click();
      const dialog = page.getByRole("dialog", { name: "Revoke this API key?" });
      await dialog.waitFor();
      expect(await dialog.textContent()).to.include(`id ${first.id}`);
      expect(await page.evaluate(() => document.activeElement?.textContent)).to.equal("Cancel");
      await screenshot(page, "revoke-dialog-1280");
      await dialog.getByRole("button", { name: "Cancel" }).click();
      await dialog.waitFor({ state: "hidden" });
      await button.click();
      await dialog.waitFor();
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "hidden" });
      expect((await keys()).find((key) => key.id === first.id)?.revokedAt).to.equal(null);
      expect(new URL(page.url()).pathname).to.equal("/app/keys");

      await button.click();
      await dialog.getByRole("button", { name: "Revoke key" }).click();
      await page.locator("[data-key-status]", { hasText: "Key revoked" }).waitFor();
      expect((await keys()).find((key) => key.id === first.id)?.revokedAt).to.be.a("number");
      const row = page.locator(`tr[data-key-id="${first.id}"]`);
      expect(await row.locator(".tag").textContent()).to.equal("revoked");
      expect(await row.getByRole("button").count()).to.equal(0);
    });

    it("without JavaScript, goes through a confirmation page whose form POSTs with this origin", async function () {
      const second = unlabelled[1];
      const plain = await withoutScript();
      await plain.goto("/app/keys");
      await plain.getByRole("button", { name: `Revoke unlabelled key (id ${second.id.slice(0, 8)}` }).click();
      expect(new URL(plain.url()).pathname).to.equal(`/app/keys/${second.id}/revoke`);
      expect(await plain.locator("h1").textContent()).to.equal("Revoke this API key?");
      await screenshot(plain, "revoke-page-390");
      await plain.getByRole("link", { name: "Cancel" }).click();
      expect(new URL(plain.url()).pathname).to.equal("/app/keys");
      expect((await keys()).find((key) => key.id === second.id)?.revokedAt).to.equal(null);

      await plain.goto(`/app/keys/${second.id}/revoke`);
      await plain.getByRole("button", { name: "Revoke key" }).click();
      expect(new URL(plain.url()).pathname + new URL(plain.url()).search).to.equal(`/app/keys?revoked=${second.id}`);
      expect(await plain.locator(".notice.ok").first().textContent()).to.match(
        /is revoked: it now answers 401 everywhere/,
      );
      expect((await keys()).find((key) => key.id === second.id)?.revokedAt).to.be.a("number");
      // Its confirmation page is gone; a POST without this origin is refused (the CSRF rule), as an HTML page.
      expect((await plain.goto(`/app/keys/${second.id}/revoke`))?.status()).to.equal(404);
      const forged = await page.request.post(`/app/keys/${unlabelled[0].id}/revoke`, { headers: { origin: "null" } });
      expect(forged.status()).to.equal(403);
      expect(await forged.text()).to.include("ORIGIN_REFUSED");
    });
  });

  describe("deleting a subscription and sending it a test event", function () {
    let subscription: { id: string; secret: string; url: string };

    before(async function () {
      const created = await page.request.post("/app/api/alert-subscriptions", {
        headers: origin(),
        data: { url: receiver.url, kinds: ["pool.stale"] },
      });
      subscription = (await created.json()) as typeof subscription;
      await page.goto("/app/alerts");
    });

    it("sends a test event that reaches the target signed, one at a time", async function () {
      const button = page.getByRole("button", { name: `Send a test event to ${receiver.url}` });
      await button.click();
      await page.locator("[data-alert-row-status]", { hasText: "Test event queued" }).waitFor();
      await button.click();
      await page.locator("[data-alert-row-status]", { hasText: "still waiting to be delivered" }).waitFor();
      await asked(409);
      await deliverDueAlerts(testDeliveryContext(web.store.db, { retryScheduleS: [0.05], workerId: "browser-test" }));
      expect(receiver.received).to.have.length(1);
      const [request] = receiver.received;
      const body = new Webhook(subscription.secret).verify(request.body, request.headers as Record<string, string>);
      expect(body).to.include({ kind: "alert.test", type: "alert.test" });
      await page.reload();
      expect(await page.locator(`tr[data-subscription-id="${subscription.id}"]`).textContent()).to.match(/1 delivered/);
      await screenshot(page, "alerts-tested-1280");
    });

    it("asks before deleting: Cancel keeps it, the confirmation page without JavaScript deletes it", async function () {
      await page.getByRole("button", { name: `Delete the subscription to ${receiver.url}` }).click();
      const dialog = page.getByRole("dialog", { name: "Delete this alert subscription?" });
      await dialog.getByRole("button", { name: "Cancel" }).click();
      await dialog.waitFor({ state: "hidden" });
      expect((await subscriptions()).map((s) => s.id)).to.deep.equal([subscription.id]);

      const plain = await withoutScript();
      await plain.goto("/app/alerts");
      await plain.getByRole("button", { name: `Delete the subscription to ${receiver.url}` }).click();
      expect(new URL(plain.url()).pathname).to.equal(`/app/alerts/${subscription.id}/delete`);
      await plain.getByRole("button", { name: "Delete subscription" }).click();
      expect(new URL(plain.url()).search).to.equal(`?deleted=${subscription.id}`);
      expect(await plain.locator(".notice.ok").first().textContent()).to.include("deleted: nothing more is sent to it");
      expect(await subscriptions()).to.deep.equal([]);
    });
  });

  describe("field errors", function () {
    /** Each invalid control's id, with the sentence its aria-describedby points to. */
    const invalid = (on: Page) =>
      on.evaluate(() =>
        Array.from(document.querySelectorAll('[aria-invalid="true"]')).map((element) => {
          const holder = element.closest("fieldset[aria-describedby]") ?? element;
          const ids = (holder.getAttribute("aria-describedby") ?? "").split(" ");
          const sentence = ids
            .map((id) => document.getElementById(id))
            .find((e) => e?.classList.contains("field-error"));
          return [element.id || (element as HTMLInputElement).name, sentence?.textContent ?? null];
        }),
      );

    it("the liquidity request form tells every invalid field at once, under it, in sentences", async function () {
      await page.goto("/app/liquidity-requests");
      expect(await page.getByLabel("Note (optional)").getAttribute("aria-describedby")).to.equal("note-help");
      expect(await page.locator("#note-help").textContent()).to.match(/published in the open activity feed/);
      await page.getByLabel("Token address").fill("0x12");
      await page.getByLabel("Horizon (days)").fill("");
      await page.getByRole("button", { name: "Send request" }).click();
      await page.locator("[data-request-status]", { hasText: "4 fields need a change" }).waitFor();
      // Signed in, the form asks for no API key.
      expect(await page.getByLabel("API key").count()).to.equal(0);
      expect(await invalid(page)).to.deep.equal([
        ["asset", "A token address is 0x followed by 40 hexadecimal digits."],
        ["chain-id", "Enter the token's chain id, a whole number such as 1 (Ethereum)."],
        ["amount", "Enter the amount in US dollars: more than 0, at most 1,000,000,000,000."],
        ["horizon", "Enter a whole number of days, from 1 to 365."],
      ]);
      expect(await page.evaluate(() => document.activeElement?.id)).to.equal("asset");
      await screenshot(page, "request-errors-1280");

      // Corrected but for what only the API knows (the zero address): that error lands under its field alone.
      await page.getByLabel("Token address").fill(`0x${"0".repeat(40)}`);
      await page.getByLabel("Chain id").fill("1");
      await page.getByLabel("Amount (USD)").fill("5000");
      await page.getByLabel("Horizon (days)").fill("30");
      await page.getByRole("button", { name: "Send request" }).click();
      await page.locator("[data-request-status]", { hasText: "One field needs a change" }).waitFor();
      await asked(400);
      expect(await invalid(page)).to.deep.equal([
        ["asset", "A token address is 0x followed by 40 hexadecimal digits, not the zero address."],
      ]);
    });

    it("the alert form tells a missing URL and no kind at once, the kinds' group described by its sentence", async function () {
      await page.goto("/app/alerts");
      await page.getByRole("button", { name: "Subscribe" }).click();
      await page.locator("[data-alert-status]", { hasText: "2 fields need a change" }).waitFor();
      const marks = await invalid(page);
      expect(marks[0]).to.deep.equal([
        "alert-url",
        "Enter the URL that receives the webhooks, starting with https://.",
      ]);
      expect(marks.slice(1).map(([, sentence]) => sentence)).to.satisfy((all: string[]) =>
        all.every((s) => s === "Tick at least one event kind."),
      );
      expect(marks.length - 1).to.equal(await page.locator('fieldset#alert-kinds input[type="checkbox"]').count());
      await page.getByLabel("Target URL").fill("ftp://hooks.example.com/in");
      await page.getByLabel("pool.fresh").check();
      await page.getByRole("button", { name: "Subscribe" }).click();
      await page
        .locator("#alert-url-error", { hasText: "Target refused: the url must use https or http, not ftp:." })
        .waitFor();
      await asked(400);
      expect((await invalid(page)).map(([id]) => id)).to.deep.equal(["alert-url"]);
    });
  });

  describe("the activity page's kind filter", function () {
    it("shows only the kinds ticked, pages with the filter, and matches GET /api/v1/activity?kind=", async function () {
      await page.goto("/app/activity?limit=10");
      await page.getByText("Filter by kind").click();
      await page.getByLabel("attestation.issued").check();
      await page.getByLabel("pool.stale").check();
      await page.getByRole("button", { name: "Show these kinds" }).click();
      await page.waitForURL(/kind=/);
      const url = new URL(page.url());
      expect(url.searchParams.getAll("kind")).to.deep.equal(["attestation.issued", "pool.stale"]);
      const api = (await (
        await page.request.get("/api/v1/activity?limit=10&kind=attestation.issued,pool.stale")
      ).json()) as {
        events: { id: number; kind: string }[];
        next: string | null;
      };
      const ids = await page.locator("tbody td.num").allTextContents();
      expect(ids.map(Number)).to.deep.equal(api.events.map((event) => event.id));
      const kinds = await page.locator("tbody td[data-label=Kind]").allTextContents();
      expect(kinds.map((k) => k.trim())).to.deep.equal(api.events.map((event) => event.kind));
      expect(kinds.length).to.equal(10);
      expect(await page.locator("[data-activity-showing]").textContent()).to.equal(
        "Showing: attestation.issued, pool.stale.",
      );
      expect(api.next).to.not.equal(null);
      await page.getByRole("link", { name: "Older events" }).click();
      const older = new URL(page.url());
      expect(older.searchParams.get("kind")).to.equal("attestation.issued,pool.stale");
      expect(older.searchParams.get("cursor")).to.equal(api.next);
      const olderKinds = await page.locator("tbody td[data-label=Kind]").allTextContents();
      expect(olderKinds.every((k) => ["attestation.issued", "pool.stale"].includes(k.trim()))).to.equal(true);
      await screenshot(page, "activity-filtered-1280");

      await page.goto("/app/activity");
      await page.getByText("Filter by kind").click();
      await page.getByRole("link", { name: "All but ingestion passes" }).click();
      expect(await page.locator("tbody td[data-label=Kind]", { hasText: "ingest.pass" }).count()).to.equal(0);
      expect(await page.locator("tbody tr").count()).to.be.greaterThan(0);
    });

    it("answers an unknown kind with the API's 400, naming it", async function () {
      const response = await page.goto(`/app/activity?kind=pool.stale,${encodeURIComponent("pool.<b>nope")}`);
      expect(response?.status()).to.equal(400);
      await asked(400);
      expect(await page.locator(".notice.error").textContent()).to.include('got "pool.<b>nope"');
    });
  });
});
