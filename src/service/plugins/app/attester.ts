import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { getAttesterInfo, type AttesterInfo } from "../../../read/getAttesterInfo";

declare module "fastify" {
  interface FastifyInstance {
    attesterInfo: AttesterInfo;
  }
}

/** The service's own signer: the authoritative expected address of every attestation it serves. */
export type { AttesterInfo };

export type AttesterOptions = { address: string; registry: { chainId: number; address: string } | null };

/** Decorates `fastify.attesterInfo` (the body of `GET /api/v1/attester`; the expected signer of `POST /verify`). */
export default fp(
  async function attesterPlugin(fastify: FastifyInstance, { address, registry }: AttesterOptions) {
    fastify.decorate("attesterInfo", getAttesterInfo({ address, registry }));
  },
  { name: "attester" },
);
