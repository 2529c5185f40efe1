import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { expect } from "chai";
import { MAX_COMPARED_POOLS } from "../../src/errors/market";
import type { FastifyInstance } from "fastify";
import { MAX_COMPLETIONS, PROMPT_NAMES } from "../../src/mcp/prompts";
import type { Store } from "../../src/storage/openStore";
import { buildMcpApp, connectInMemory, depsOf, openMcpStore } from "../helpers/mcp/fixture";

describe("MCP prompts and pool id completions", function () {
  let store: Store;
  let cleanup: () => Promise<void>;
  let app: FastifyInstance;
  let client: Client;
  let close: () => Promise<void>;
  let ids: string[];

  before(async function () {
    ({ store, cleanup } = await openMcpStore());
    app = await buildMcpApp(store);
    ({ client, close } = await connectInMemory(await depsOf(app, () => undefined)));
    ids = (
      JSON.parse((await app.inject({ method: "GET", url: "/api/v1/pools" })).body) as { pools: { id: string }[] }
    ).pools.map((pool) => pool.id);
    expect(ids.length).to.be.greaterThan(1);
  });

  after(async function () {
    await close?.();
    await app?.close();
    await cleanup?.();
  });

  const complete = async (prompt: string, argument: string, value: string) =>
    (await client.complete({ ref: { type: "ref/prompt", name: prompt }, argument: { name: argument, value } }))
      .completion;

  it("lists the two prompts, each with its one required argument", async function () {
    const { prompts } = await client.listPrompts();
    expect(prompts.map((prompt) => prompt.name)).to.deep.equal([...PROMPT_NAMES]);
    expect(prompts[0].arguments).to.deep.equal([
      { name: "pool", description: prompts[0].arguments![0].description, required: true },
    ]);
    expect(prompts[1].arguments!.map((argument) => argument.name)).to.deep.equal(["pools"]);
  });

  it("assess_pool_horizon names the pool and the tools whose answers carry the figures, and says it is no guarantee", async function () {
    const { messages } = await client.getPrompt({ name: "assess_pool_horizon", arguments: { pool: ids[0] } });
    expect(messages).to.have.length(1);
    const text = (messages[0].content as { text: string }).text;
    expect(text).to.include(ids[0]);
    for (const tool of ["get_attestation", "verify_attestation", "get_pool_history"]) expect(text).to.include(tool);
    expect(text).to.match(/not a guarantee/);
  });

  it("compare_pools_evidence asks for a comparison without a ranking", async function () {
    const pools = ids.slice(0, 2).join(",");
    const { messages } = await client.getPrompt({ name: "compare_pools_evidence", arguments: { pools } });
    const text = (messages[0].content as { text: string }).text;
    expect(text)
      .to.include(pools)
      .and.include("compare_pools")
      .and.match(/Do not rank/);
  });

  it("completes pool ids from the tracked pools: by prefix, then by symbol; nothing for a stranger", async function () {
    const all = await complete("assess_pool_horizon", "pool", "");
    expect(all.values).to.have.members(ids.slice(0, MAX_COMPLETIONS));
    const chain = ids[0].split(":").slice(0, 2).join(":");
    const onChain = await complete("assess_pool_horizon", "pool", chain.toUpperCase());
    expect(onChain.values).to.deep.equal(ids.filter((id) => id.startsWith(chain)));
    const pools = JSON.parse((await app.inject({ method: "GET", url: "/api/v1/pools" })).body).pools as {
      id: string;
      symbol: string;
    }[];
    const symbol = pools[0].symbol.slice(0, 3);
    const bySymbol = await complete("assess_pool_horizon", "pool", symbol);
    expect(bySymbol.values).to.include(pools[0].id);
    expect((await complete("assess_pool_horizon", "pool", "eip155:999999:")).values).to.deep.equal([]);
  });

  it("completes the last item of a pool list and keeps the ones before it", async function () {
    const { values } = await complete("compare_pools_evidence", "pools", `${ids[0]},`);
    expect(values).to.not.be.empty;
    for (const value of values) expect(value.startsWith(`${ids[0]},eip155:`)).to.equal(true);
    expect(values).to.not.include(`${ids[0]},${ids[0]}`);
  });

  it("is bounded as compare_pools is: it offers at most four pools and completes no fifth", async function () {
    const listed = await client.listPrompts();
    const prompt = listed.prompts.find((p) => p.name === "compare_pools_evidence")!;
    expect(prompt.description).to.include(`two to ${MAX_COMPARED_POOLS} pools`);
    expect(prompt.description).to.not.match(/ten/);
    const three = ids.slice(0, 3).join(",");
    expect((await complete("compare_pools_evidence", "pools", `${three},`)).values).to.not.be.empty;
    const four = ids.slice(0, 4).join(",");
    expect((await complete("compare_pools_evidence", "pools", `${four},`)).values).to.deep.equal([]);
  });
});
