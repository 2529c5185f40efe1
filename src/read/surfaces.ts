/**
 * One read surface: a reader and the places that serve it. Plain data (names and paths, no functions), so that every
 * layer above `read` may import it: the MCP server (`src/mcp`) maps each tool name to its register function, the
 * dapp's layout (`src/web`) builds the navigation from the pages, and the service serves the routes and pages from
 * its route folders. `test/service/surfaces.test.ts` fails when an adapter is missing for an entry.
 */
export type ReadSurface = {
  /** The reader, as `<folder>/<file>` under `src/`; the file exports a function of the file's name. */
  reader: string;
  /** The route that answers the reader's JSON (Fastify path syntax): `/api/v1/…` is open, `/app/api/…` needs a session. */
  route: { method: "GET" | "POST"; path: string };
  /** The MCP tool (its `structuredContent` is the route's body), or null: the wallet's own data has no tool. */
  tool: string | null;
  /**
   * The dapp page (Fastify path syntax), or null. `id` is the page's `<body data-page>`; `nav` its label in the
   * navigation, or null when the navigation does not list it (a pool's own page).
   */
  page: { id: string; path: string; nav: string | null } | null;
};

/** The read surfaces, in the order MCP `tools/list` gives the tools (surfaces without a tool last). */
export const READ_SURFACES = [
  {
    reader: "read/listPools",
    route: { method: "GET", path: "/api/v1/pools" },
    tool: "list_pools",
    page: { id: "pools", path: "/app/pools", nav: "Pools" },
  },
  {
    reader: "read/getPoolAttestation",
    route: { method: "GET", path: "/api/v1/pool/:pool" },
    tool: "get_attestation",
    page: { id: "pools", path: "/app/pools/:pool", nav: null },
  },
  {
    reader: "read/getPoolHistory",
    route: { method: "GET", path: "/api/v1/pool/:pool/history" },
    tool: "get_pool_history",
    // Drawn on the pool's own page (`?days=N`), below its attestation.
    page: { id: "pools", path: "/app/pools/:pool", nav: null },
  },
  {
    reader: "read/getPoolCampaigns",
    route: { method: "GET", path: "/api/v1/pool/:pool/campaigns" },
    tool: "get_pool_campaigns",
    page: null,
  },
  {
    reader: "read/verifyAgainstAttester",
    route: { method: "POST", path: "/api/v1/verify" },
    tool: "verify_attestation",
    page: null,
  },
  {
    reader: "read/getAttesterInfo",
    route: { method: "GET", path: "/api/v1/attester" },
    tool: "get_attester",
    page: null,
  },
  {
    reader: "read/getVolume",
    route: { method: "GET", path: "/api/v1/volume" },
    tool: "get_volume",
    page: { id: "volume", path: "/app/volume", nav: "Volume" },
  },
  {
    reader: "read/getLaunchPosition",
    route: { method: "GET", path: "/api/v1/launch" },
    tool: "get_launch",
    page: { id: "launch", path: "/app/launch", nav: "Launch gates" },
  },
  {
    reader: "read/getActivity",
    route: { method: "GET", path: "/api/v1/activity" },
    tool: "get_activity",
    page: { id: "activity", path: "/app/activity", nav: "Activity" },
  },
  {
    reader: "read/getLiquidityMap",
    route: { method: "GET", path: "/api/v1/liquidity-map" },
    tool: "get_liquidity_map",
    page: { id: "liquidity-map", path: "/app/liquidity-map", nav: "Liquidity map" },
  },
  {
    reader: "read/getRoadmap",
    route: { method: "GET", path: "/api/v1/roadmap" },
    tool: "get_roadmap",
    page: { id: "roadmap", path: "/app/roadmap", nav: "Roadmap" },
  },
  {
    reader: "read/comparePools",
    route: { method: "GET", path: "/api/v1/compare" },
    tool: "compare_pools",
    page: { id: "compare", path: "/app/compare", nav: "Compare" },
  },
  {
    reader: "read/getModelEvaluation",
    route: { method: "GET", path: "/api/v1/model" },
    tool: "get_model_evaluation",
    page: { id: "model", path: "/app/model", nav: "Model" },
  },
  {
    reader: "read/getModelClaims",
    route: { method: "GET", path: "/api/v1/model/claims" },
    tool: "get_model_claims",
    page: null,
  },
  {
    reader: "read/getAccuracy",
    route: { method: "GET", path: "/api/v1/accuracy" },
    tool: "get_accuracy_record",
    // Set beside the backtest on the model page.
    page: { id: "model", path: "/app/model", nav: null },
  },
  {
    reader: "read/getPoolClaims",
    route: { method: "GET", path: "/api/v1/pool/:pool/claims" },
    tool: "get_pool_claims",
    // The track record on the pool's own page (its first page), drawn on its history chart too.
    page: { id: "pools", path: "/app/pools/:pool", nav: null },
  },
  {
    reader: "read/getHealth",
    route: { method: "GET", path: "/api/v1/health" },
    tool: null,
    page: null,
  },
  {
    reader: "read/listWalletLiquidityRequests",
    route: { method: "GET", path: "/app/api/liquidity-requests" },
    tool: null,
    page: { id: "liquidity-requests", path: "/app/liquidity-requests", nav: "Liquidity requests" },
  },
  {
    reader: "read/listWalletApiKeys",
    route: { method: "GET", path: "/app/api/keys" },
    tool: null,
    page: { id: "keys", path: "/app/keys", nav: "API keys" },
  },
  {
    reader: "alerts/listSubscriptions",
    route: { method: "GET", path: "/app/api/alert-subscriptions" },
    tool: null,
    page: { id: "alerts", path: "/app/alerts", nav: "Alerts" },
  },
] as const satisfies readonly ReadSurface[];

type Surface = (typeof READ_SURFACES)[number];

/** The name of an MCP tool of the table. */
export type ToolName = Exclude<Surface["tool"], null>;

/** The MCP tools, in the order `tools/list` gives them (the table's order). */
export const TOOL_NAMES: readonly ToolName[] = READ_SURFACES.flatMap((surface: Surface) =>
  surface.tool === null ? [] : [surface.tool],
);

/** The id of a page the navigation lists. */
export type NavPageId = Extract<Surface["page"], { nav: string }>["id"];

/** The navigation's order (it differs from the tools' order): every page of the table with a `nav` label, once. */
const NAV_ORDER = [
  "pools",
  "volume",
  "liquidity-map",
  "compare",
  "roadmap",
  "model",
  "launch",
  "activity",
  "liquidity-requests",
  "keys",
  "alerts",
] as const satisfies readonly NavPageId[];

/** The dapp's navigation, in order: the page id, its path and its label. */
export const NAV_PAGES: readonly { id: NavPageId; href: string; label: string }[] = NAV_ORDER.map((id) => {
  const page = READ_SURFACES.flatMap((surface: Surface) =>
    surface.page !== null && surface.page.id === id && surface.page.nav !== null ? [surface.page] : [],
  );
  if (page.length !== 1) throw new Error(`the surface table has ${page.length} navigation pages with id ${id}`);
  return { id, href: page[0].path, label: page[0].nav };
});
