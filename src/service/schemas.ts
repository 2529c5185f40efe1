import { Type, type TSchema } from "@sinclair/typebox";

/** Every error body: `{"error": {"code", "message", …}}` with a stable string code. */
export const ErrorSchema = Type.Object(
  {
    error: Type.Object(
      {
        code: Type.String({ description: "stable machine-readable code, e.g. POOL_NOT_FOUND" }),
        message: Type.String({ description: "one line for humans" }),
        field: Type.Optional(Type.String({ description: "the request field that is wrong" })),
        candidates: Type.Optional(Type.Array(Type.String(), { description: "qualified ids (409)" })),
        reason: Type.Optional(Type.String({ description: "why there is no attestation yet (NO_ATTESTATION)" })),
        pool: Type.Optional(Type.String()),
        retryAfterMs: Type.Optional(Type.Number()),
      },
      { additionalProperties: true },
    ),
  },
  { $id: "Error", title: "Error" },
);

/** The error responses a route may give, by status. */
export const errorResponses = (...statuses: number[]): Record<number, TSchema> =>
  Object.fromEntries(statuses.map((status) => [status, Type.Ref("Error")]));

const uint = (description: string) => Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description });
const integerInput = (description: string) =>
  Type.Union([uint(description), Type.String({ pattern: "^(0|[1-9][0-9]*)$", description })]);

const Eip712Schema = Type.Object(
  {
    domain: Type.Object({
      name: Type.String(),
      version: Type.String(),
      chainId: Type.Union([Type.String(), Type.Integer()]),
      verifyingContract: Type.String(),
    }),
    types: Type.Record(Type.String(), Type.Array(Type.Object({ name: Type.String(), type: Type.String() }))),
    primaryType: Type.String(),
    message: Type.Record(Type.String(), Type.Union([Type.String(), Type.Number()])),
    signature: Type.String(),
  },
  { description: "v2: EIP-712 typed data for the AttestationRegistry, present once a registry is configured" },
);

/** `GET /api/v1/pool/{pool}`: the pre-signed attestation (spec §2.1), its v2 block, the claim and its evidence. */
export const AttestationResponseSchema = Type.Object(
  {
    chainId: uint("the pool's chain (signed as a decimal string)"),
    confidence: Type.Number({ minimum: 0, maximum: 1, description: "signed with exactly two fraction digits" }),
    expiry: uint("Unix seconds (signed as expiresAt)"),
    horizon: uint("days (signed as horizonDays)"),
    issuedAt: uint("Unix seconds"),
    pool: Type.String({ pattern: "^0x[0-9a-f]{40}$", description: "lower-case pool address" }),
    signature: Type.String({ description: "EIP-191 signature of the canonical message, 65 bytes hex" }),
    attester: Type.String({ description: "informational: never use it as the expected signer" }),
    symbol: Type.String({ description: "not signed" }),
    protocol: Type.String({ description: "not signed" }),
    outcome: Type.String({ description: 'not signed; always "pending" (nothing is graded)' }),
    eip712: Type.Optional(Eip712Schema),
    claim: Type.Object({
      statement: Type.String(),
      floor: Type.Number({ description: "share of the depth at issuance the claim keeps" }),
      depthAtIssuanceUsd: Type.Number(),
      thresholdUsd: Type.Number({ description: "floor × depthAtIssuanceUsd" }),
      model: Type.String({ description: "the horizon model and its version" }),
    }),
    evidence: Type.Object({
      windowStart: uint("issuedAt"),
      windowEnd: uint("issuedAt + horizon days"),
      windowStartDate: Type.String({ description: "YYYY-MM-DD (UTC)" }),
      windowEndDate: Type.String({ description: "YYYY-MM-DD (UTC)" }),
      waiting: Type.Boolean({ description: "the horizon has not been reached" }),
      lowestDepthUsd: Type.Union([Type.Number(), Type.Null()], {
        description: "lowest depth observed inside the window so far",
      }),
      lowestDepthObservedAt: Type.Union([uint("Unix seconds"), Type.Null()]),
      lowestDepthDay: Type.Union([Type.String(), Type.Null()]),
      note: Type.String(),
    }),
  },
  { title: "Attestation" },
);

const PoolRowSchema = Type.Object({
  id: Type.String({ description: "eip155:<chainId>:<address>" }),
  chainId: uint("chain id"),
  address: Type.String(),
  symbol: Type.String(),
  protocol: Type.String(),
  kind: Type.Union([Type.Literal("amm"), Type.Literal("lending")]),
  depthUsd: Type.Union([Type.Number(), Type.Null()]),
  observedAt: Type.Union([uint("Unix seconds of the depth observation"), Type.Null()]),
  stale: Type.Boolean({ description: "older than the freshness window (or never observed): held out of totals" }),
});

/** `GET /api/v1/pools`. */
export const PoolsResponseSchema = Type.Object({
  pools: Type.Array(PoolRowSchema),
  total: Type.Object({
    depthUsd: Type.Number({ description: "sum over fresh pools only" }),
    pools: Type.Integer({ description: "fresh pools counted" }),
  }),
  heldOut: Type.Object({
    depthUsd: Type.Number({ description: "the stale depths held out of the total, published beside it" }),
    pools: Type.Array(Type.String(), { description: "ids of stale pools" }),
  }),
  freshnessWindowS: uint("seconds"),
  asOf: uint("Unix seconds"),
});

/** `GET /api/v1/attester`. */
export const AttesterResponseSchema = Type.Object({
  attester: Type.String({ description: "the expected signer of every attestation (EIP-55)" }),
  scheme: Type.Literal("eip191-v1"),
  registry: Type.Union([Type.Object({ chainId: uint("chain of the registry"), address: Type.String() }), Type.Null()]),
});

/** `POST /api/v1/verify` body: the attestation exactly as `GET /api/v1/pool/{pool}` returned it. */
export const VerifyBodySchema = Type.Object(
  {
    chainId: integerInput("the pool's chain"),
    confidence: Type.Number({ minimum: 0, description: "a JSON number (a string is rejected)" }),
    expiry: integerInput("Unix seconds"),
    horizon: integerInput("days"),
    issuedAt: integerInput("Unix seconds"),
    pool: Type.String({ pattern: "^0x[0-9a-fA-F]{40}$" }),
    signature: Type.String({ pattern: "^(0x|0X)?[0-9a-fA-F]{130}$", description: "65 bytes hex" }),
    // Informational in the payload (the library and the CLI ignore it), so any JSON value is accepted.
    attester: Type.Optional(Type.Unknown({ description: "ignored: the service checks against its own attester" })),
  },
  { additionalProperties: true },
);

/** `POST /api/v1/verify` answer. */
export const VerifyResponseSchema = Type.Object({
  valid: Type.Boolean({ description: "the signature recovers to the service's attester" }),
  attester: Type.Union([Type.String(), Type.Null()], { description: "the recovered address (null if unrecoverable)" }),
  expired: Type.Boolean({ description: "expiry <= now; independent of valid" }),
  canonical: Type.String({ description: "the canonical message that was checked" }),
});

/** `GET /api/v1/health`. */
export const HealthResponseSchema = Type.Object({
  status: Type.Literal("ok"),
  pools: Type.Integer(),
  attestations: Type.Integer(),
  lastIngest: Type.Union([
    Type.Object({
      startedAt: uint("Unix seconds"),
      finishedAt: Type.Union([uint("Unix seconds"), Type.Null()]),
      status: Type.String(),
    }),
    Type.Null(),
  ]),
});
