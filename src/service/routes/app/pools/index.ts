import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { NoAttestationError } from "../../../../errors/poolLookup";
import { parsePoolId } from "@attestation-registry/sdk";
import { comparePools } from "../../../../read/comparePools";
import { getPoolAttestation, type GetPoolAttestationReturnType } from "../../../../read/getPoolAttestation";
import { getPoolClaims } from "../../../../read/getPoolClaims";
import { getPoolHistory } from "../../../../read/getPoolHistory";
import { listPools } from "../../../../read/listPools";
import { listWalletWatchlist } from "../../../../read/listWalletWatchlist";
import { setWatchlist } from "../../../../write/setWatchlist";
import { confirmedChange } from "../../../confirmedChange";
import type { ReadContext } from "../../../../read/context";
import { renderPoolPage } from "../../../../web/pages/pool";
import { HISTORY_RANGES, type HistoryRange } from "../../../../web/pages/poolHistory";
import { renderPoolsPage, type PoolsView } from "../../../../web/pages/pools";
import { pageRoutes } from "../../../pageRoutes";
import { PoolPageParamsSchema, PoolPageQuerySchema, PoolsPageQuerySchema } from "../../../schemas/appPages";

/**
 * `GET /app/pools?sort=&order=&chain=&protocol=`: every tracked pool with its stale flag (`listPools`, the reader of
 * `GET /api/v1/pools`), sorted and filtered on the server.
 * `GET /app/pools/{pool}?range=7d|30d|90d|1y|all` (or `?days=N`): any tracked pool's page, attested or not, stale or fresh: its last values
 * (`comparePools` for the one pool, the reader of `GET /api/v1/compare`), its attestation when it has one
 * (`getPoolAttestation`, the reader of `GET /api/v1/pool/{pool}`; else the reader's reason), verified in the browser
 * against the attester `GET /api/v1/attester` serves, its history (`getPoolHistory`, the reader of
 * `GET /api/v1/pool/{pool}/history`) and its track record (`getPoolClaims`, the reader of
 * `GET /api/v1/pool/{pool}/claims`, first page). An unknown pool is the API's 404.
 */
const plugin: FastifyPluginAsyncTypebox = async (fastify) => {
  const { readContext } = fastify;
  const page = pageRoutes(fastify);

  page("/", { querystring: PoolsPageQuerySchema }, async function poolsPage(request, chrome) {
    const { sort, order, chain, protocol, q, watchlist } = request.query;
    const search = q?.trim();
    const view: PoolsView = {
      ...(sort ? { sort } : {}),
      ...(sort && order ? { order } : {}),
      ...(chain ? { chain: Number(chain) } : {}),
      ...(protocol ? { protocol } : {}),
      ...(search ? { q: search } : {}),
      ...(watchlist === "1" ? { watchlist: true } : {}),
    };
    const [pools, watched] = await Promise.all([
      listPools(readContext),
      listWalletWatchlist(readContext, { address: request.session.address }),
    ]);
    return {
      html: renderPoolsPage(pools, chrome, view, new Set(watched.pools)),
      status: 200,
      referrerPolicy: "same-origin",
    };
  });

  // The star toggles (forms that POST, so they work without JavaScript): session and same Origin, then 303 back.
  for (const watched of [true, false]) {
    confirmedChange(
      fastify,
      `/:pool/${watched ? "watch" : "unwatch"}`,
      PoolPageParamsSchema,
      async function watchPoolConfirmed(request) {
        const id = await setWatchlist(readContext, {
          address: request.session.address,
          pool: request.params.pool,
          watched,
        });
        const back = (request.query as { back?: string }).back === "list";
        return { location: back ? "/app/pools" : `/app/pools/${encodeURIComponent(id)}` };
      },
    );
  }

  page(
    "/:pool",
    { params: PoolPageParamsSchema, querystring: PoolPageQuerySchema },
    async function poolPage(request, chrome) {
      const id = request.params.pool;
      parsePoolId({ id });
      const range = (request.query.range ?? null) as HistoryRange | null;
      const days = range === null ? request.query.days : HISTORY_RANGES[range];
      // The one pool's last values first: an unknown pool is the reader's 404 before anything else is read.
      const current = await comparePools(readContext, { pools: [id], field: "pool" });
      const [history, latest, record, watchlist] = await Promise.all([
        getPoolHistory(readContext, { pool: id, days }),
        latestAttestation(readContext, id),
        getPoolClaims(readContext, { id }),
        listWalletWatchlist(readContext, { address: request.session.address }),
      ]);
      const html = renderPoolPage(
        {
          pool: current.pools[0],
          freshnessWindowS: current.freshnessWindowS,
          ...latest,
          history,
          record,
          // An attestation in the store names the attester, so it is known whenever one is shown.
          attester: latest.attestation === null ? "" : (await fastify.attester()).attester,
          now: readContext.now(),
          range,
          watched: watchlist.pools.includes(current.pools[0].id),
        },
        chrome,
      );
      return { html, status: 200, referrerPolicy: "same-origin" };
    },
  );
};

/** The pool's latest attestation, or the reader's reason why it has none (`NO_ATTESTATION`). */
async function latestAttestation(
  context: ReadContext,
  id: string,
): Promise<{ attestation: GetPoolAttestationReturnType | null; noAttestation: string | null }> {
  try {
    return { attestation: await getPoolAttestation(context, { id }), noAttestation: null };
  } catch (error) {
    if (!(error instanceof NoAttestationError)) throw error;
    return { attestation: null, noAttestation: error.reason };
  }
}

export default plugin;
