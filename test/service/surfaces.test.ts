import { expect } from "chai";
import { existsSync, readFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { NAV_PAGES, READ_SURFACES, TOOL_NAMES } from "../../src/read/surfaces";
import { renderToolTable, TOOL_TABLE_FILE, withToolTable } from "../../scripts/docs-tools";
import { connectInMemory, depsOf } from "../helpers/mcp/fixture";
import { getPage, signInCookie, useWebApp, WALLET } from "../helpers/web/webApp";

const root = resolve(__dirname, "..", "..");

/**
 * The read surface table (src/read/surfaces.ts) against its adapters: every entry's reader exists, the service serves
 * its route and page, the MCP server lists its tool, and the navigation lists its labelled page. A table entry whose
 * adapter is missing fails here.
 */
describe("the read surface table and its adapters", function () {
  const web = useWebApp();

  it("names readers that exist: src/<reader>.ts exports a function of the file's name", async function () {
    for (const { reader } of READ_SURFACES) {
      const file = join(root, "src", `${reader}.ts`);
      expect(existsSync(file), file).to.equal(true);
      const module = (await import(file)) as Record<string, unknown>;
      expect(module[basename(reader)], reader).to.be.a("function");
    }
  });

  it("has every route and every page served by the service (a route folder per path)", function () {
    for (const { route, page } of READ_SURFACES) {
      expect(web.app.hasRoute({ method: route.method, url: route.path }), `${route.method} ${route.path}`).to.equal(
        true,
      );
      if (page !== null) expect(web.app.hasRoute({ method: "GET", url: page.path }), page.path).to.equal(true);
    }
  });

  it("has every tool listed by the MCP server, in the table's order, and no other", async function () {
    const { client, close } = await connectInMemory(await depsOf(web.app));
    try {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).to.deep.equal(READ_SURFACES.flatMap(({ tool }) => (tool === null ? [] : [tool])));
      expect(names).to.deep.equal([...TOOL_NAMES]);
    } finally {
      await close();
    }
  });

  it("lists every labelled page once in the navigation, as a signed-in page shows it", async function () {
    const labelled = READ_SURFACES.flatMap(({ page }) => (page !== null && page.nav !== null ? [page.path] : []));
    expect(NAV_PAGES.map((item) => item.href))
      .to.have.members(labelled)
      .and.to.have.length(labelled.length);
    const body = (await getPage(web.app, "/app/roadmap", await signInCookie(web.app, WALLET))).body;
    const nav = body.slice(body.indexOf('<nav class="pages"'), body.indexOf("</nav>"));
    const links = [...nav.matchAll(/<a href="([^"]+)"[^>]*>([^<]+)<\/a>/g)].map(([, href, label]) => ({ href, label }));
    expect(links).to.deep.equal(NAV_PAGES.map(({ href, label }) => ({ href, label })));
  });

  it("is listed in docs/mcp.md by a table generated from tools/list (`npm run docs:tools`), and the docs count no tools", async function () {
    const text = readFileSync(TOOL_TABLE_FILE, "utf8");
    const table = await renderToolTable();
    for (const tool of TOOL_NAMES) expect(table, tool).to.include(`| \`${tool}\``);
    expect(withToolTable(text, table), "docs/mcp.md's tool table is stale: run `npm run docs:tools`").to.equal(text);
    // A count written in prose goes stale when a surface is added: the docs say "a tool per read surface" instead.
    const numbers =
      /\b(\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty)( read-only)? (MCP )?tools\b/gi;
    for (const doc of ["README.md", "docs/mcp.md", "docs/service.md"]) {
      const counts = [...readFileSync(join(root, doc), "utf8").matchAll(numbers)].map(([count]) => count);
      expect(counts, `${doc} counts the tools`).to.deep.equal([]);
    }
  });
});
