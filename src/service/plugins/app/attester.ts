import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { getAddress, type Address } from "viem";

declare module "fastify" {
  interface FastifyInstance {
    attesterInfo: AttesterInfo;
  }
}

/** The service's own signer: the authoritative expected address of every attestation it serves. */
export type AttesterInfo = {
  attester: Address;
  scheme: "eip191-v1";
  registry: { chainId: number; address: Address } | null;
};

export type AttesterOptions = { address: string; registry: { chainId: number; address: string } | null };

/** Decorates `fastify.attesterInfo` (the body of `GET /api/v1/attester`; the expected signer of `POST /verify`). */
export default fp(
  async function attesterPlugin(fastify: FastifyInstance, { address, registry }: AttesterOptions) {
    fastify.decorate("attesterInfo", {
      attester: getAddress(address.toLowerCase()),
      scheme: "eip191-v1",
      registry:
        registry === null ? null : { chainId: registry.chainId, address: getAddress(registry.address.toLowerCase()) },
    } satisfies AttesterInfo);
  },
  { name: "attester" },
);
