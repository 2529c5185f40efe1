import { Type } from "@sinclair/typebox";
import { POOL_HISTORY_PARAMETERS } from "../../read/getPoolHistory";
import { HISTORY_RANGES } from "../../web/pages/poolHistory";
import { POOL_SORTS } from "../../web/pages/pools";

/**
 * Query strings of the dapp's pages (`/app/...`). Pages answer HTML, so they have no response schema; a query that
 * fails its schema is an HTML error page with the same 400 and message as the API gives.
 */

/** `GET /app/sign-in?next=/app/...`: where to go after signing in (anything not under `/app/` goes to the pools). */
export const SignInQuerySchema = Type.Object({
  next: Type.Optional(Type.String({ maxLength: 2000 })),
});

/** `GET /app/pools/{pool}`: any of the three pool id shapes. */
export const PoolPageParamsSchema = Type.Object({ pool: Type.String({ maxLength: 500 }) });

/**
 * `GET /app/pools/{pool}?range=7d|30d|90d|1y|all` (the range toggles) or `?days=N` (the history's days, as
 * `GET /api/v1/pool/{pool}/history` takes them); `range` wins when both are given.
 */
export const PoolPageQuerySchema = Type.Object({
  days: Type.Integer(POOL_HISTORY_PARAMETERS.days),
  range: Type.Optional(Type.Union(Object.keys(HISTORY_RANGES).map((range) => Type.Literal(range)))),
});

/**
 * `GET /app/pools?sort=&order=&chain=&protocol=`: the list's sort and filters. The filter form sends every field, so
 * an empty value means "not set".
 */
export const PoolsPageQuerySchema = Type.Object({
  sort: Type.Optional(Type.Union([Type.Literal(""), ...POOL_SORTS.map((sort) => Type.Literal(sort))])),
  order: Type.Optional(Type.Union([Type.Literal(""), Type.Literal("asc"), Type.Literal("desc")])),
  chain: Type.Optional(Type.String({ pattern: "^[0-9]{0,12}$" })),
  protocol: Type.Optional(Type.String({ maxLength: 100 })),
  /** Search: words the pool's name, tokens, protocol, chain or id contain. */
  q: Type.Optional(Type.String({ maxLength: 100 })),
  /** `1`: only the signed-in wallet's watchlist (the form's checkbox sends `1`, nothing when unchecked). */
  watchlist: Type.Optional(Type.Union([Type.Literal(""), Type.Literal("1")])),
});

/** `GET /app/volume?days=N`. */
export const VolumePageQuerySchema = Type.Object({
  days: Type.Integer({ minimum: 1, maximum: 365, default: 30 }),
});

/** `GET /app/liquidity-map?offset=K`. */
export const LiquidityMapPageQuerySchema = Type.Object({
  offset: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, default: 0 }),
});

/** `GET /app/compare?pools=a&pools=b` (the picker's checkboxes) or `?pools=a,b` (the API's form). */
export const ComparePageQuerySchema = Type.Object({
  pools: Type.Optional(
    Type.Union([Type.String({ maxLength: 2000 }), Type.Array(Type.String({ maxLength: 500 }), { maxItems: 50 })]),
  ),
});

/** `GET /app/activity?limit=N&cursor=C&kind=a&kind=b` (the filter's checkboxes) or `kind=a,b` (the API's form). */
export const ActivityPageQuerySchema = Type.Object({
  limit: Type.Integer({ minimum: 1, maximum: 200, default: 50 }),
  cursor: Type.Optional(Type.String({ maxLength: 200 })),
  kind: Type.Optional(
    Type.Union([Type.String({ maxLength: 1000 }), Type.Array(Type.String({ maxLength: 100 }), { maxItems: 50 })]),
  ),
});

/** `GET /app/liquidity-requests?created=<id>`: the request the form just wrote. */
export const LiquidityRequestsPageQuerySchema = Type.Object({
  created: Type.Optional(Type.String({ maxLength: 100 })),
});

/** `GET /app/keys?revoked=<id>`: the key the confirmation page just revoked. */
export const KeysPageQuerySchema = Type.Object({
  revoked: Type.Optional(Type.String({ maxLength: 100 })),
});

/** `GET /app/alerts?deleted=<id>`: the subscription the confirmation page just deleted. */
export const AlertsPageQuerySchema = Type.Object({
  deleted: Type.Optional(Type.String({ maxLength: 100 })),
});
