// Worker-thread entry of `attest verify --batch` (started by verifyPool.ts): verifies the chunks it is sent.
import { parentPort, workerData } from "node:worker_threads";
import { setVerifyBackend } from "@attestation-registry/sdk";
import { type ChunkJob, verifyChunk } from "./verifyChunk";
import type { VerifyWorkerData } from "./verifyPool";

const data = workerData as VerifyWorkerData;
// The main thread's choice (setVerifyBackend or ATTEST_VERIFY_BACKEND), so every thread verifies the same way.
setVerifyBackend({ backend: data.backend });
const time = new Date(data.nowSeconds * 1000);

parentPort!.on("message", (job: ChunkJob) => {
  parentPort!.postMessage(verifyChunk(job, data.address, time));
});
