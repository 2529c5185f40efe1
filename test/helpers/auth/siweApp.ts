import Fastify, { type FastifyInstance, type LightMyRequestResponse } from "fastify";
import type { Hex } from "viem";
import { privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import { createSiweMessage, type SiweMessage as ViemSiweMessage } from "viem/siwe";
import { loadConfig } from "../../../src/config/loadConfig";
import { buildApp } from "../../../src/service/app";
import { serverOptions } from "../../../src/service/server";
import type { Store } from "../../../src/storage/openStore";
import { NOW, TEST_ATTESTER } from "../service/app";

/** Hardhat's second and third dev keys: test wallets. */
export const WALLET = privateKeyToAccount("0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d");
export const OTHER_WALLET = privateKeyToAccount("0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a");
export const ORIGIN = "http://127.0.0.1:8080";

/** A clock the test moves (Unix seconds). */
export type Clock = { now: number };

/**
 * The real app over `store` with a movable clock, plus three probe routes that use the session plugin's hooks the way
 * the dapp does: a page (`requirePageSession`), a JSON read (`requireSession`) and a JSON write (`requireSameOrigin`
 * then `requireSession`).
 */
export async function buildAuthApp(
  store: Store,
  clock: Clock,
  env: Record<string, string> = {},
): Promise<FastifyInstance> {
  const config = loadConfig({ env: { LOG_LEVEL: "silent", PUBLIC_ORIGIN: ORIGIN, ...env } });
  const app = Fastify(serverOptions(config));
  await app.register(buildApp, {
    store,
    config,
    attester: { address: TEST_ATTESTER, registry: null },
    now: () => clock.now,
  });
  app.get("/app/probe", { preHandler: app.requirePageSession }, async (request) => ({
    page: request.session!.address,
  }));
  app.get("/app/api/probe", { preHandler: app.requireSession }, async (request) => request.session);
  app.post("/app/api/probe", { preHandler: [app.requireSameOrigin, app.requireSession] }, async () => ({ ok: true }));
  await app.ready();
  return app;
}

/** A message for the test origin, signed at {@link NOW} (override any field). */
export function messageFor(nonce: string, overrides: Partial<ViemSiweMessage> = {}): string {
  return createSiweMessage({
    domain: "127.0.0.1:8080",
    address: WALLET.address,
    statement: "Sign in to the attestation dapp.",
    uri: `${ORIGIN}/app/`,
    version: "1",
    chainId: 1,
    nonce,
    issuedAt: new Date(NOW * 1000),
    ...overrides,
  });
}

/** Test client: requests with the right Origin by default, from a given client address. */
export class Client {
  constructor(
    readonly app: FastifyInstance,
    readonly remoteAddress = "127.0.0.1",
  ) {}

  async nonce(): Promise<string> {
    const response = await this.app.inject({ method: "GET", url: "/auth/nonce", remoteAddress: this.remoteAddress });
    if (response.statusCode !== 200) throw new Error(`nonce: ${response.statusCode} ${response.body}`);
    return response.json().nonce;
  }

  verify(
    body: { message: string; signature: string },
    options: { origin?: string | null; cookie?: string } = {},
  ): Promise<LightMyRequestResponse> {
    return this.app.inject({
      method: "POST",
      url: "/auth/verify",
      remoteAddress: this.remoteAddress,
      headers: headers(options),
      payload: body,
    });
  }

  /** Gets a nonce, signs the message built by `build` with `account` and posts it. */
  async signIn(
    build: (nonce: string) => string = (nonce) => messageFor(nonce),
    account: PrivateKeyAccount = WALLET,
    options: { cookie?: string } = {},
  ): Promise<LightMyRequestResponse> {
    const message = build(await this.nonce());
    return this.verify({ message, signature: await account.signMessage({ message }) }, options);
  }

  get(url: string, cookie?: string): Promise<LightMyRequestResponse> {
    return this.app.inject({ method: "GET", url, remoteAddress: this.remoteAddress, headers: headers({ cookie }) });
  }

  post(url: string, options: { origin?: string | null; cookie?: string } = {}): Promise<LightMyRequestResponse> {
    return this.app.inject({ method: "POST", url, remoteAddress: this.remoteAddress, headers: headers(options) });
  }
}

function headers({ origin = ORIGIN, cookie }: { origin?: string | null; cookie?: string }): Record<string, string> {
  return { ...(origin === null ? {} : { origin }), ...(cookie === undefined ? {} : { cookie }) };
}

/** The `name=value` pair of a response's session cookie (for a Cookie header). */
export function sessionCookie(response: LightMyRequestResponse): string {
  const cookie = response.cookies.find((c) => c.name.endsWith("attest_session"));
  if (cookie === undefined) throw new Error(`no session cookie in ${JSON.stringify(response.headers["set-cookie"])}`);
  return `${cookie.name}=${cookie.value}`;
}

/** Replaces v (the last byte) of a 65-byte signature. */
export function withV(signature: Hex, v: number): Hex {
  return `${signature.slice(0, 130)}${v.toString(16).padStart(2, "0")}` as Hex;
}
