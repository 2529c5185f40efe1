import { expect } from "chai";
import { loadConfig } from "../../src/config/loadConfig";
import { ConfigError } from "../../src/errors/config";
import { ALERT_KINDS, isAlertKind } from "../../src/alerts/alertKinds";
import { retryDelayMs } from "../../src/alerts/retryDelay";

const load = (env: Record<string, string>) => loadConfig({ env: { ...env } });

describe("alerts configuration and schedule", function () {
  it("defaults to docs/alerts.md's retry schedule, private targets refused", function () {
    expect(load({}).alerts).to.deep.equal({
      retryScheduleS: [5, 30, 120, 600, 1800, 7200, 21600],
      allowPrivateTargets: false,
    });
  });

  it("reads a shorter schedule (fractions of a second allowed) and ALERTS_ALLOW_PRIVATE_TARGETS=1", function () {
    const { alerts } = load({ ALERTS_RETRY_SCHEDULE_S: "0.05, 0.1,2", ALERTS_ALLOW_PRIVATE_TARGETS: "1" });
    expect(alerts).to.deep.equal({ retryScheduleS: [0.05, 0.1, 2], allowPrivateTargets: true });
  });

  for (const [name, value, message] of [
    ["ALERTS_RETRY_SCHEDULE_S", "5,,30", /wrong format/],
    ["ALERTS_RETRY_SCHEDULE_S", "5,-1", /wrong format/],
    ["ALERTS_RETRY_SCHEDULE_S", "1e3", /wrong format/],
    ["ALERTS_RETRY_SCHEDULE_S", "0", /above 0 and at most 604800/],
    ["ALERTS_RETRY_SCHEDULE_S", "5,604801", /above 0 and at most 604800/],
    ["ALERTS_RETRY_SCHEDULE_S", Array(21).fill("1").join(","), /1 to 20 delays/],
    ["ALERTS_ALLOW_PRIVATE_TARGETS", "yes", /must be one of 0, 1/],
  ] as const) {
    it(`refuses ${name}=${value.length > 20 ? `${value.slice(0, 20)}…` : value} in one line naming it`, function () {
      let thrown: unknown;
      try {
        load({ [name]: value });
      } catch (error) {
        thrown = error;
      }
      expect(thrown).to.be.instanceOf(ConfigError);
      expect((thrown as ConfigError).shortMessage)
        .to.match(new RegExp(`^${name}: `))
        .and.match(message);
    });
  }

  it("retry delays follow the schedule with ±10 % jitter, and run out after the last", function () {
    const scheduleS = [5, 30, 120];
    expect(retryDelayMs({ scheduleS, failedAttempt: 1, random: () => 0 })).to.equal(4500);
    expect(retryDelayMs({ scheduleS, failedAttempt: 1, random: () => 0.5 })).to.equal(5000);
    expect(retryDelayMs({ scheduleS, failedAttempt: 2, random: () => 0.999999 })).to.equal(33_000);
    expect(retryDelayMs({ scheduleS, failedAttempt: 3, random: () => 0.25 })).to.equal(114_000);
    expect(retryDelayMs({ scheduleS, failedAttempt: 4, random: () => 0.5 })).to.equal(null);
    for (let i = 0; i < 200; i++) {
      const delay = retryDelayMs({ scheduleS, failedAttempt: 2 })!;
      expect(delay).to.be.within(27_000, 33_000);
    }
  });

  it("subscribes to the activity kinds the service writes, registry events included", function () {
    expect(ALERT_KINDS).to.include.members([
      "ingest.pass",
      "attestation.issued",
      "pool.stale",
      "pool.fresh",
      "campaign.started",
      "campaign.ended",
      "liquidity_request.created",
      "registry.Registered",
      "registry.Revoked",
      "registry.Slashed",
    ]);
    expect(isAlertKind("pool.stale")).to.equal(true);
    expect(isAlertKind("registry.Nope")).to.equal(false);
    expect(isAlertKind(7)).to.equal(false);
  });
});
