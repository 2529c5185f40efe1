import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import type { PrivateKeyAccount } from "viem/accounts";
import { privateKeyToAccount } from "viem/accounts";
import { createSiweMessage } from "viem/siwe";
import { loadConfig } from "../../../src/config/loadConfig";
import { createServer } from "../../../src/service/server";
import { appendActivity } from "../../../src/storage/activity";
import type { Store } from "../../../src/storage/openStore";
import { MARKET_NOW, M, seedMarket } from "../read/seedMarket";
import { TEST_ATTESTER, openTempStore } from "../service/app";
import { seedPoolPages } from "./seedPoolPages";

/** Hardhat's second and third dev keys: the test wallets (never funded anywhere real). */
export const WALLET = privateKeyToAccount("0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d");
export const OTHER_WALLET = privateKeyToAccount("0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a");

/** The origin of the `app.inject` suites (the browser suite listens on a real port and uses its own). */
export const INJECT_ORIGIN = "http://127.0.0.1:8080";

/** A pool whose symbol and campaign name are markup: every page must print them as text. */
export const HOSTILE = {
  address: "0x7000000000000000000000000000000000000077",
  id: "eip155:1:0x7000000000000000000000000000000000000077",
  symbol: `<script>alert("x")</script>&"'`,
};

/**
 * The market fixture (test/helpers/read/seedMarket.ts: eight pools with fresh and stale dimensions, Swap-log volume,
 * campaigns, attestations, registry events), plus a pool with a hostile symbol and 60 more activity events so that
 * the activity page has a second page.
 */
export async function seedWeb(store: Store): Promise<void> {
  await seedMarket(store);
  await seedPoolPages(store);
  await store.db
    .insertInto("pools")
    .values({
      chain_id: 1,
      address: HOSTILE.address,
      kind: "amm",
      symbol: HOSTILE.symbol,
      protocol: "uniswap-v2",
      depth_usd: 123_456,
      depth_observed_at: MARKET_NOW - 60,
      created_at: MARKET_NOW - 10 * 86_400,
      updated_at: MARKET_NOW,
    })
    .execute();
  await appendActivity(
    store.db,
    Array.from({ length: 60 }, (_, i) => ({
      kind: i % 3 === 0 ? "attestation.issued" : "ingest.pass",
      at: MARKET_NOW - 3 * 3600 + i * 60,
      pool: i % 3 === 0 ? { chainId: 1, address: M.a } : null,
      summary: `older event ${i}`,
      data: { i },
    })),
  );
}

/** Builds the real app over `store` on the market fixture's clock. */
export async function buildWebApp(store: Store, env: Record<string, string> = {}): Promise<FastifyInstance> {
  return createServer({
    store,
    config: loadConfig({ env: { LOG_LEVEL: "silent", ...env } }),
    attester: { address: TEST_ATTESTER, registry: null },
    now: () => MARKET_NOW,
  });
}

export type WebApp = { store: Store; app: FastifyInstance };

/** `before`/`after` hooks: a temp SQLite store with {@link seedWeb} and the real app (PUBLIC_ORIGIN {@link INJECT_ORIGIN}). */
export function useWebApp(env: Record<string, string> = {}): WebApp {
  let cleanup: () => Promise<void> = async () => undefined;
  const handle = {} as WebApp;
  before(async function () {
    const temp = await openTempStore();
    cleanup = temp.cleanup;
    handle.store = temp.store;
    await seedWeb(temp.store);
    handle.app = await buildWebApp(temp.store, { PUBLIC_ORIGIN: INJECT_ORIGIN, ...env });
  });
  after(async function () {
    await handle.app?.close();
    await cleanup();
  });
  return handle;
}

/** An EIP-4361 message for `origin`, issued at the fixture's clock. */
export function siweMessage(account: PrivateKeyAccount, nonce: string, origin: string): string {
  const issuedAt = new Date(MARKET_NOW * 1000);
  return createSiweMessage({
    domain: new URL(origin).host,
    address: account.address,
    statement: "Sign in to the liquidity attestations dapp.",
    uri: origin,
    version: "1",
    chainId: 1,
    nonce,
    issuedAt,
    expirationTime: new Date(issuedAt.getTime() + 600_000),
  });
}

/** Signs in through `/auth/nonce` and `/auth/verify` over `app.inject`; returns the session cookie (`name=value`). */
export async function signInCookie(app: FastifyInstance, account: PrivateKeyAccount = WALLET): Promise<string> {
  const nonce = (await app.inject({ method: "GET", url: "/auth/nonce" })).json().nonce as string;
  const message = siweMessage(account, nonce, INJECT_ORIGIN);
  const response = await app.inject({
    method: "POST",
    url: "/auth/verify",
    headers: { origin: INJECT_ORIGIN },
    payload: { message, signature: await account.signMessage({ message }) },
  });
  if (response.statusCode !== 200) throw new Error(`sign-in failed: ${response.statusCode} ${response.body}`);
  const cookie = response.cookies.find((c) => c.name.endsWith("attest_session"));
  if (cookie === undefined) throw new Error("no session cookie");
  return `${cookie.name}=${cookie.value}`;
}

/** A GET with a session cookie (or none). */
export function getPage(app: FastifyInstance, url: string, cookie?: string): Promise<LightMyRequestResponse> {
  return app.inject({ method: "GET", url, headers: cookie === undefined ? {} : { cookie } });
}
