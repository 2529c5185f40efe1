import { existsSync } from "node:fs";
import { join } from "node:path";
import { expect } from "chai";
import type { Address, Hex } from "viem";
import { privateKeyToAddress, sign } from "viem/accounts";
import { hashMessage } from "viem";
import { issueAttestations } from "../../src/attest/issueAttestations";
import { createJsonRpcSigner, createLocalSigner, type AttestationSigner } from "../../src/attest/signer";
import { serveJsonRpc, type JsonRpcServer } from "../../src/chain/serveJsonRpc";
import { ConfigError } from "../../src/errors/config";
import { AttesterSignerError } from "../../src/errors/signer";
import { issueStep } from "../../src/ingest/steps/issue";
import { createAttestationMessage } from "../../src/lib/createAttestationMessage";
import { verifyAttestation } from "../../src/lib/verifyAttestation";
import { verifyTypedAttestation } from "../../src/lib/verifyTypedAttestation";
import { loadAttesterKey } from "../../src/main/attesterKey";
import { getLatestAttestation } from "../../src/storage/attestations";
import type { Store } from "../../src/storage/openStore";
import { DAY, NOW, POOL, seedSteadyPool } from "../helpers/attest/steadyPool";
import { startHardhatRpcServer, type HardhatRpcServer } from "../helpers/hardhatRpcServer";
import { rejection } from "../helpers/rejection";
import { openTempStore, type TempStore } from "../helpers/storage/tempStore";

/** Hardhat's default accounts #0 and #1 (unlocked on the in-process network; their keys are public test keys). */
const ACCOUNT_0: Address = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
const KEY_0: Hex = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
const ACCOUNT_1: Address = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const KEY_1: Hex = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d";

const REGISTRY = { chainId: 31337, address: "0x5FbDB2315678afecb367f032d93F642f64180aa3" as Address };
const ATTESTATION = {
  chainId: 8453,
  confidence: 0.85,
  expiry: NOW + DAY,
  horizon: 30,
  issuedAt: NOW,
  pool: POOL.address,
};
const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

/** What a fake signer answers for one method: the signature, given the request's params. */
type Handler = (params: unknown[]) => Promise<Hex>;

/** A JSON-RPC signer that knows only the methods of `handlers`; any other is "method not found" (-32601). */
function startFakeSigner(handlers: Record<string, Handler>): Promise<JsonRpcServer> {
  return serveJsonRpc({
    answer: async (call) => {
      const handler = typeof call.method === "string" ? handlers[call.method] : undefined;
      if (handler === undefined) {
        return {
          jsonrpc: "2.0",
          id: call.id,
          error: { code: -32601, message: `the method ${call.method} does not exist` },
        };
      }
      try {
        return { jsonrpc: "2.0", id: call.id, result: await handler(call.params as unknown[]) };
      } catch (error) {
        return { jsonrpc: "2.0", id: call.id, error: { code: -32000, message: (error as Error).message } };
      }
    },
  });
}

describe("signing through a JSON-RPC signer (ATTESTER_SIGNER_URL)", function () {
  let rpc: HardhatRpcServer;
  let temp: TempStore;
  let store: Store;
  const fakes: JsonRpcServer[] = [];

  before(async function () {
    rpc = await startHardhatRpcServer();
  });
  after(async function () {
    await rpc.close();
    for (const server of fakes) await server.close();
  });
  beforeEach(async function () {
    temp = await openTempStore({ prefix: "signer-" });
    store = temp.store;
    await seedSteadyPool(store.db);
  });
  afterEach(async function () {
    await temp.cleanup();
  });

  const issue = (signer: AttestationSigner, registry?: typeof REGISTRY) =>
    issueAttestations({
      db: store.db,
      pools: [POOL],
      signer,
      lifetimeS: DAY,
      now: NOW,
      freshnessWindowS: 3600,
      ...(registry ? { registry } : {}),
    });

  /** Asks the Hardhat network's JSON-RPC server directly. */
  async function hardhat(method: string, params: unknown[]): Promise<Hex> {
    const response = await fetch(rpc.url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    });
    return ((await response.json()) as { result: Hex }).result;
  }

  async function fake(handlers: Record<string, Handler>): Promise<string> {
    const server = await startFakeSigner(handlers);
    fakes.push(server);
    return server.url;
  }

  it("a Hardhat account signs v1 (personal_sign) and v2 (eth_signTypedData_v4) exactly as the key in the process would", async function () {
    const remote = createJsonRpcSigner({ url: rpc.url, address: ACCOUNT_0 });
    const local = createLocalSigner(KEY_0);
    expect(remote.address).to.equal(local.address);
    expect(await remote.signAttestation(ATTESTATION)).to.equal(await local.signAttestation(ATTESTATION));
    expect(await remote.signTypedAttestation(ATTESTATION, REGISTRY)).to.equal(
      await local.signTypedAttestation(ATTESTATION, REGISTRY),
    );
  });

  it("a signer that knows eth_sign/eth_signTypedData (Web3Signer) or account_signData/account_signTypedData (Clef) is asked with those", async function () {
    const local = createLocalSigner(KEY_0);
    const asked: string[] = [];
    const web3signer = await fake({
      eth_sign: async ([address, data]) => (asked.push("eth_sign"), hardhat("personal_sign", [data, address])),
      eth_signTypedData: async ([address, json]) => {
        asked.push("eth_signTypedData");
        return hardhat("eth_signTypedData_v4", [address, json]);
      },
    });
    const clef = await fake({
      account_signData: async ([contentType, address, data]) => {
        asked.push(`account_signData ${String(contentType)}`);
        return hardhat("personal_sign", [data, address]);
      },
      account_signTypedData: async ([address, typed]) => {
        asked.push(`account_signTypedData ${typeof typed}`);
        return hardhat("eth_signTypedData_v4", [address, JSON.stringify(typed)]);
      },
    });
    for (const url of [web3signer, clef]) {
      const remote = createJsonRpcSigner({ url, address: ACCOUNT_0 });
      expect(await remote.signAttestation(ATTESTATION)).to.equal(await local.signAttestation(ATTESTATION));
      expect(await remote.signTypedAttestation(ATTESTATION, REGISTRY)).to.equal(
        await local.signTypedAttestation(ATTESTATION, REGISTRY),
      );
    }
    expect(asked).to.deep.equal([
      "eth_sign",
      "eth_signTypedData",
      "account_signData text/plain",
      "account_signTypedData object",
    ]);
  });

  it("issuance stores attestations signed by ATTESTER_ADDRESS through the signer, v1 and v2 verifying", async function () {
    const [outcome] = await issue(createJsonRpcSigner({ url: rpc.url, address: ACCOUNT_0 }), REGISTRY);
    expect(outcome).to.include({ action: "issued" });
    const row = (await getLatestAttestation(store.db, POOL.chainId, POOL.address))!;
    expect(row.attester).to.equal(ACCOUNT_0.toLowerCase());
    const fields = {
      chainId: row.chain_id,
      confidence: row.confidence_hundredths / 100,
      expiry: row.expiry,
      horizon: row.horizon_days,
      issuedAt: row.issued_at,
      pool: row.address,
    };
    const time = new Date(NOW * 1000);
    expect(
      verifyAttestation({ attestation: { ...fields, signature: row.signature }, address: ACCOUNT_0, time }).valid,
    ).to.equal(true);
    const eip712 = JSON.parse(row.eip712_json!) as { signature: Hex };
    const v2 = verifyTypedAttestation({
      attestation: { ...fields, signature: row.signature },
      registry: REGISTRY,
      signature: eip712.signature,
      address: ACCOUNT_0,
      time,
    });
    expect(v2.valid).to.equal(true);
  });

  it("a signer answering for another account is refused: the issue step fails with the reason and stores nothing", async function () {
    // Hardhat holds every default account: asked to sign as #1 while ATTESTER_ADDRESS says #0 (a misrouted signer).
    const url = await fake({ personal_sign: ([message]) => hardhat("personal_sign", [message, ACCOUNT_1]) });
    const signer = createJsonRpcSigner({ url, address: ACCOUNT_0 });
    const error = await rejection(issue(signer));
    expect(error).to.be.instanceOf(AttesterSignerError);
    expect((error as AttesterSignerError).problem).to.equal("wrong-signer");
    expect((error as AttesterSignerError).shortMessage).to.equal(
      `The attester signer at ${url} signed as ${ACCOUNT_1}, not ATTESTER_ADDRESS ${ACCOUNT_0} (personal_sign); nothing stored.`,
    );
    expect(await getLatestAttestation(store.db, POOL.chainId, POOL.address)).to.equal(undefined);

    const lines: string[] = [];
    const step = await issueStep({
      db: store.db,
      pools: [POOL],
      issue: { signer, lifetimeS: DAY },
      now: () => NOW,
      freshnessWindowS: 3600,
      log: (line) => lines.push(line),
    });
    expect(step.report).to.deep.include({ ok: false, rows: 0 });
    expect(step.report?.error).to.match(/signed as 0x70997970C51812dc3A010C7d01b50e0d17dc79C8, not ATTESTER_ADDRESS/);
    expect(lines[0]).to.match(/^issue: The attester signer at http:\/\/127\.0\.0\.1:\d+ signed as /);
    expect(await getLatestAttestation(store.db, POOL.chainId, POOL.address)).to.equal(undefined);
  });

  it("a high-s signature (valid, but malleable) is refused; a v of 0/1 is read as 27/28", async function () {
    const message = createAttestationMessage({ attestation: ATTESTATION });
    const low = await sign({ hash: hashMessage(message), privateKey: KEY_0, to: "object" });
    const highS = (`0x${low.r.slice(2)}${(N - BigInt(low.s)).toString(16).padStart(64, "0")}` +
      (low.yParity === 0 ? "1c" : "1b")) as Hex;
    const highSigner = createJsonRpcSigner({
      url: await fake({ personal_sign: async () => highS }),
      address: ACCOUNT_0,
    });
    const error = await rejection(highSigner.signAttestation(ATTESTATION));
    expect(error).to.be.instanceOf(AttesterSignerError);
    expect((error as AttesterSignerError).problem).to.equal("invalid");
    expect((error as AttesterSignerError).shortMessage).to.match(/unusable signature \(personal_sign\).*high-s/);

    const zeroOne = `0x${low.r.slice(2)}${low.s.slice(2)}0${low.yParity}` as Hex;
    const parity = createJsonRpcSigner({ url: await fake({ personal_sign: async () => zeroOne }), address: ACCOUNT_0 });
    expect(await parity.signAttestation(ATTESTATION)).to.equal(
      await createLocalSigner(KEY_0).signAttestation(ATTESTATION),
    );
  });

  it("a signer that does not answer fails with a reason naming the method and the endpoint, never its path", async function () {
    const down = await fake({ personal_sign: async () => "0x" as Hex });
    const unreachable = createJsonRpcSigner({ url: `${down}/secret-token`, address: ACCOUNT_0 });
    const error = (await rejection(unreachable.signTypedAttestation(ATTESTATION, REGISTRY))) as AttesterSignerError;
    expect(error).to.be.instanceOf(AttesterSignerError);
    expect(error.problem).to.equal("unreachable");
    expect(error.shortMessage).to.match(
      /^The attester signer at http:\/\/127\.0\.0\.1:\d+\/… knows none of eth_signTypedData_v4, eth_signTypedData, account_signTypedData: /,
    );
    expect(error.message).to.not.include("secret-token");
  });

  it("a signer whose answer is larger than the cap (5 MB) is refused without reading it whole; a normal answer passes the same cap", async function () {
    const huge = await fake({ personal_sign: async () => `0x${"ab".repeat(2_500_000)}` as Hex });
    const error = (await rejection(
      createJsonRpcSigner({ url: huge, address: ACCOUNT_0 }).signAttestation(ATTESTATION),
    )) as AttesterSignerError;
    expect(error).to.be.instanceOf(AttesterSignerError);
    expect(error.problem).to.equal("unreachable");
    expect(error.shortMessage).to.match(/did not sign \(personal_sign\): .*larger than 65536 bytes/);
    const right = await fake({ personal_sign: (params) => hardhat("personal_sign", params) });
    const signed = await createJsonRpcSigner({ url: right, address: ACCOUNT_0, maxAnswerBytes: 1024 }).signAttestation(
      ATTESTATION,
    );
    expect(signed).to.match(/^0x[0-9a-f]{130}$/);
  });

  it("a signer that is down fails with one line naming the method; an RPC error is not retried with another method", async function () {
    const closed = await fake({});
    await fakes.pop()!.close();
    const error = (await rejection(
      createJsonRpcSigner({ url: closed, address: ACCOUNT_0 }).signAttestation(ATTESTATION),
    )) as AttesterSignerError;
    expect(error.problem).to.equal("unreachable");
    expect(error.shortMessage).to.match(
      /^The attester signer at http:\/\/127\.0\.0\.1:\d+ did not sign \(personal_sign\): /,
    );
    const asked: string[] = [];
    const locked = await fake({
      personal_sign: async () => {
        asked.push("personal_sign");
        throw new Error("account is locked");
      },
      eth_sign: async () => {
        asked.push("eth_sign");
        return "0x" as Hex;
      },
    });
    const refused = (await rejection(
      createJsonRpcSigner({ url: locked, address: ACCOUNT_0 }).signAttestation(ATTESTATION),
    )) as AttesterSignerError;
    expect(refused.shortMessage).to.match(/did not sign \(personal_sign\): .*account is locked/);
    expect(asked).to.deep.equal(["personal_sign"]);
  });

  it("loadAttesterKey with a signer URL reads and creates no key file; the demo refuses a signer", function () {
    const signer = { url: rpc.url, address: ACCOUNT_1 };
    const fromFile = loadAttesterKey({ source: { file: join(temp.dir, "missing.key") }, signer, mode: "configured" });
    expect(fromFile).to.include({ address: ACCOUNT_1, origin: "ATTESTER_SIGNER_URL", file: rpc.url });
    expect(fromFile.privateKey).to.equal(undefined);
    expect(fromFile.signer.address).to.equal(ACCOUNT_1);
    const dev = loadAttesterKey({ source: { dataDir: temp.dir }, signer, mode: "configured" });
    expect(dev.origin).to.equal("ATTESTER_SIGNER_URL");
    expect(existsSync(join(temp.dir, "attester.key"))).to.equal(false);
    const error = (() => {
      try {
        loadAttesterKey({ source: { dataDir: temp.dir }, signer, mode: "demo" });
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).to.be.instanceOf(ConfigError);
    expect((error as ConfigError).shortMessage).to.match(/^ATTESTER_SIGNER_URL: the demo signs with its dev key/);
    // Without a signer the key is in the process, as before.
    const local = loadAttesterKey({ source: { privateKey: KEY_1 } });
    expect(local).to.include({
      address: privateKeyToAddress(KEY_1),
      privateKey: KEY_1,
      origin: "ATTESTER_PRIVATE_KEY",
    });
  });
});
