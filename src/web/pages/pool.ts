import type { GetPoolAttestationReturnType } from "../../read/getPoolAttestation";
import { evidenceChart } from "../charts/evidenceChart";
import { chainLabel, notice } from "../components";
import { formatTime, formatUsd } from "../format";
import { html } from "../html";
import { renderPage, type PageChrome } from "../layout";

export type PoolPageParameters = {
  attestation: GetPoolAttestationReturnType;
  /** The expected signer: what `GET /api/v1/attester` serves (never the payload's `attester` field). */
  attester: string;
  now: number;
};

/**
 * A pool's page: its signed attestation (the reader of `GET /api/v1/pool/{pool}`), a panel that the client bundle
 * fills by fetching that same API answer and verifying it IN THE BROWSER with the library's `verifyAttestation`
 * against the pinned attester, and the claim's evidence window drawn as a chart with the floor line.
 */
export function renderPoolPage({ attestation: a, attester, now }: PoolPageParameters, chrome: PageChrome): string {
  const id = `eip155:${a.chainId}:${a.pool}`;
  const body = html`<p class="lead"><code class="id">${id}</code> · ${a.protocol} · ${chainLabel(a.chainId)}</p>
    <section aria-labelledby="claim-heading">
      <h2 id="claim-heading">The claim</h2>
      <p>
        This pool's depth stays at or above
        <strong>${a.claim.floor} × ${formatUsd(a.claim.depthAtIssuanceUsd)}</strong> (=
        ${formatUsd(a.claim.thresholdUsd)}) for <strong>${a.horizon} days</strong>, with confidence
        <strong>${a.confidence.toFixed(2)}</strong>. Outcome: <span class="tag">${a.outcome}</span> (nothing grades a
        claim).
      </p>
      <dl class="facts">
        <div>
          <dt>Issued</dt>
          <dd>${formatTime(a.issuedAt)}</dd>
        </div>
        <div>
          <dt>Expires</dt>
          <dd>${formatTime(a.expiry)}</dd>
        </div>
        <div>
          <dt>Settles</dt>
          <dd>${formatTime(a.claim.settlesAt)}</dd>
        </div>
        <div>
          <dt>Model</dt>
          <dd><code>${a.claim.model}</code></dd>
        </div>
      </dl>
    </section>
    <section aria-labelledby="verify-heading" class="verify" data-verify>
      <h2 id="verify-heading">Signature, verified in your browser</h2>
      <p>
        Your browser fetches this attestation from <code>GET /api/v1/pool/${id}</code>, rebuilds the canonical message
        from its fields and recovers the signer with the same library as <code>npx attest verify</code>. The expected
        signer is pinned to the service's attester, never taken from the payload.
      </p>
      <p class="status" role="status" data-verify-status>Verifying… (this needs JavaScript)</p>
      <dl class="facts">
        <div>
          <dt>Signature</dt>
          <dd data-verify-valid>—</dd>
        </div>
        <div>
          <dt>Expiry</dt>
          <dd data-verify-expired>—</dd>
        </div>
        <div>
          <dt>Expected attester (pinned)</dt>
          <dd><code class="address">${attester}</code></dd>
        </div>
        <div>
          <dt>Recovered signer</dt>
          <dd><code class="address" data-verify-recovered>—</code></dd>
        </div>
      </dl>
      <details>
        <summary>Canonical message that was checked</summary>
        <pre data-verify-canonical>—</pre>
      </details>
    </section>
    <section aria-labelledby="evidence-heading">
      <h2 id="evidence-heading">Evidence inside the claim's window</h2>
      ${evidenceChart(a, now)}
    </section>`;
  return renderPage({
    page: "pools",
    title: `${a.symbol}`,
    chrome,
    body,
    data: { "pool-id": id, attester },
  });
}

/** A tracked pool without an attestation yet: the reason the reader gives (`NO_ATTESTATION`). */
export function renderNoAttestationPage(pool: string, reason: string, chrome: PageChrome): string {
  const body = html`<p class="lead"><code class="id">${pool}</code></p>
    ${notice("info", html`<p><strong>No attestation yet.</strong> ${reason}</p>`)}
    <p><a href="/app/pools">Back to the pools</a></p>`;
  return renderPage({ page: "pools", title: "No attestation yet", chrome, body });
}
