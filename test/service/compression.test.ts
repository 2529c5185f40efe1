import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { expect } from "chai";
import type { LightMyRequestResponse } from "fastify";
import { FAVICON_CACHE_CONTROL } from "../../src/service/routes/favicon";
import { ASSET_CACHE_CONTROL } from "../../src/web/headers";
import { getPage, signInCookie, useWebApp } from "../helpers/web/webApp";

/** The body as sent, decoded by its `content-encoding` (none: as it is). */
function decoded(response: LightMyRequestResponse): Buffer {
  const encoding = response.headers["content-encoding"];
  if (encoding === "br") return brotliDecompressSync(response.rawPayload);
  if (encoding === "gzip") return gunzipSync(response.rawPayload);
  expect(encoding, "content-encoding").to.equal(undefined);
  return response.rawPayload;
}

/**
 * Compression (`@fastify/compress`, `src/service/plugins/external/compress.ts`): pages, the dapp's bundle and JSON go
 * out as Brotli or gzip when the client asks, and decode to the very bytes sent without it; small bodies, clients that
 * ask for none and the MCP route (it writes its own answers) are left alone. And the favicon.
 */
describe("compression of pages, assets and JSON; the favicon (app.inject, real SQLite)", function () {
  const web = useWebApp();
  let cookie: string;
  const get = (url: string, headers: Record<string, string> = {}) =>
    web.app.inject({ method: "GET", url, headers: { cookie, ...headers } });

  before(async function () {
    cookie = await signInCookie(web.app);
  });

  it("compresses a page, the bundle's script and stylesheet and an API answer, br or gzip as asked", async function () {
    const { script, style } = web.app.dapp.assets.urls;
    for (const url of ["/app/pools", "/app/activity", script, style, "/api/v1/pools", "/api/v1/openapi.json"]) {
      const plain = await get(url);
      expect(plain.statusCode, url).to.equal(200);
      expect(plain.headers["content-encoding"], url).to.equal(undefined);
      expect(plain.rawPayload.length, url).to.be.greaterThan(1024);
      for (const encoding of ["br", "gzip"]) {
        const packed = await get(url, { "accept-encoding": `${encoding}, identity` });
        expect(packed.headers["content-encoding"], `${url} ${encoding}`).to.equal(encoding);
        expect(packed.headers.vary, url).to.match(/accept-encoding/i);
        expect(packed.rawPayload.length, url).to.be.lessThan(plain.rawPayload.length);
        // Pages are rendered afresh (the same figures, the same bytes); assets and JSON are the same bytes anyway.
        expect(decoded(packed).equals(plain.rawPayload), `${url} ${encoding} decodes to the plain body`).to.equal(true);
        expect(packed.headers["content-type"]).to.equal(plain.headers["content-type"]);
      }
    }
  });

  it("prefers Brotli, keeps the bundle's year-long cache and its ETag, and answers 304 without a body", async function () {
    const { script } = web.app.dapp.assets.urls;
    const both = await get(script, { "accept-encoding": "gzip, deflate, br" });
    expect(both.headers["content-encoding"]).to.equal("br");
    expect(both.headers["cache-control"]).to.equal(ASSET_CACHE_CONTROL);
    const etag = both.headers.etag as string;
    expect(etag).to.equal((await get(script)).headers.etag);
    const again = await get(script, { "accept-encoding": "br", "if-none-match": etag });
    expect(again.statusCode).to.equal(304);
    expect(again.rawPayload.length).to.equal(0);
    // A page keeps its own headers: no caching, the CSP.
    const page = await get("/app/pools", { "accept-encoding": "br" });
    expect(page.headers["cache-control"]).to.equal("no-store");
    expect(page.headers["content-security-policy"]).to.match(/default-src 'none'/);
  });

  it("leaves alone a body under 1 KiB, an encoding it does not offer, and the MCP route", async function () {
    const small = await get("/api/v1/attester", { "accept-encoding": "br, gzip" });
    expect(small.rawPayload.length).to.be.lessThan(1024);
    expect(small.headers["content-encoding"]).to.equal(undefined);
    const deflate = await get("/api/v1/pools", { "accept-encoding": "deflate" });
    expect(deflate.headers["content-encoding"]).to.equal(undefined);
    expect(deflate.json().pools).to.be.an("array");
    const list = await web.app.inject({
      method: "POST",
      url: "/mcp",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "accept-encoding": "br, gzip",
      },
      payload: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
      }),
    });
    expect(list.statusCode).to.equal(200);
    expect(list.headers["content-encoding"]).to.equal(undefined);
    expect(list.body).to.include('"protocolVersion"');
  });

  it("serves the favicon as SVG (linked from every page) and as ICO, cached for a week", async function () {
    const page = await getPage(web.app, "/app/pools", cookie);
    expect(page.body).to.include('<link rel="icon" href="/favicon.svg" type="image/svg+xml" />');
    const svg = await web.app.inject({ url: "/favicon.svg" });
    expect(svg.statusCode).to.equal(200);
    expect(svg.headers["content-type"]).to.equal("image/svg+xml");
    expect(svg.headers["cache-control"]).to.equal(FAVICON_CACHE_CONTROL);
    expect(svg.body).to.match(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" viewBox="0 0 32 32">/);
    const ico = await web.app.inject({ url: "/favicon.ico" });
    expect(ico.statusCode).to.equal(200);
    expect(ico.headers["content-type"]).to.equal("image/x-icon");
    expect(ico.headers["cache-control"]).to.equal(FAVICON_CACHE_CONTROL);
    const bytes = ico.rawPayload;
    // ICONDIR (icon, one image), one 32 × 32 entry at 32 bits per pixel, its BITMAPINFOHEADER right after.
    expect([bytes.readUInt16LE(2), bytes.readUInt16LE(4), bytes[6], bytes[7], bytes.readUInt16LE(12)]).to.deep.equal([
      1, 1, 32, 32, 32,
    ]);
    expect(bytes.readUInt32LE(18)).to.equal(22);
    expect(bytes.readUInt32LE(14)).to.equal(bytes.length - 22);
    expect(bytes.readUInt32LE(22)).to.equal(40);
    // The top-left corner is transparent (rounded), the middle of the top row is the navy background.
    const pixel = (x: number, y: number) => bytes.readUInt32BE(62 + ((31 - y) * 32 + x) * 4).toString(16);
    expect(pixel(0, 0)).to.equal("0");
    expect(pixel(16, 0)).to.equal("47270fff");
    const cached = await web.app.inject({
      url: "/favicon.ico",
      headers: { "if-none-match": ico.headers.etag as string },
    });
    expect(cached.statusCode).to.equal(304);
  });
});
