import { BaseError } from "@attestation-registry/sdk/errors";

/**
 * Errors of the alerts (`src/alerts`: subscriptions, the target rules, delivery). Every surface (the keyed REST routes,
 * the dapp) maps them by `code`; the HTTP statuses are in `src/service/errorBodies.ts`.
 */

const DOCS = "docs/alerts.md";

export type InvalidAlertSubscriptionErrorType = InvalidAlertSubscriptionError & {
  name: "InvalidAlertSubscriptionError";
};
/**
 * A subscription's member breaks a rule (`kinds` empty, repeated or unknown; an owner that is not `key:<id>` or
 * `wallet:<address>`): `field` names it. The code is the API's `INVALID_REQUEST` (HTTP 400).
 */
export class InvalidAlertSubscriptionError extends BaseError {
  /** The member that is wrong. */
  readonly field: string;
  constructor({ field, message }: { field: string; message: string }) {
    super(message, { code: "INVALID_REQUEST", docsPath: `${DOCS}#subscribing`, name: "InvalidAlertSubscriptionError" });
    this.field = field;
  }
}

export type AlertTargetRefusedErrorType = AlertTargetRefusedError & { name: "AlertTargetRefusedError" };
/**
 * A target URL the delivery rules refuse (HTTP 400 `ALERT_TARGET_REFUSED` at subscribe time; a failed attempt at
 * delivery time): not `https`, credentials in the URL, an IP address in a non-standard spelling, a name that does not
 * resolve, or an address that is not public (loopback, private, link-local, CGNAT, multicast, reserved, …).
 * `ALERTS_ALLOW_PRIVATE_TARGETS=1` lifts the address rule and allows `http` (demo and tests only).
 */
export class AlertTargetRefusedError extends BaseError {
  readonly field = "url";
  /** Why, in a few words (also the whole message after "Target refused: "). */
  readonly reason: string;
  constructor({ reason }: { reason: string }) {
    super(`Target refused: ${reason}.`, {
      code: "ALERT_TARGET_REFUSED",
      docsPath: `${DOCS}#target-rules`,
      name: "AlertTargetRefusedError",
    });
    this.reason = reason;
  }
}

export type AlertSubscriptionNotFoundErrorType = AlertSubscriptionNotFoundError & {
  name: "AlertSubscriptionNotFoundError";
};
/** No subscription with this id belongs to the caller (another owner's id answers the same: HTTP 404). */
export class AlertSubscriptionNotFoundError extends BaseError {
  constructor() {
    super("No alert subscription with this id belongs to you; GET /api/v1/alert-subscriptions lists yours.", {
      code: "ALERT_SUBSCRIPTION_NOT_FOUND",
      docsPath: `${DOCS}#subscribing`,
      name: "AlertSubscriptionNotFoundError",
    });
  }
}

export type AlertSubscriptionLimitErrorType = AlertSubscriptionLimitError & { name: "AlertSubscriptionLimitError" };
/**
 * The owner already has the most subscriptions one owner may hold (HTTP 409 `ALERT_SUBSCRIPTION_LIMIT`). A wallet
 * and every API key it created count as one owner; a configured key (`API_KEYS`) is one owner alone.
 */
export class AlertSubscriptionLimitError extends BaseError {
  readonly limit: number;
  constructor({ limit }: { limit: number }) {
    super(
      `An owner (a wallet with all its API keys) may hold at most ${limit} alert subscriptions; delete one first.`,
      {
        code: "ALERT_SUBSCRIPTION_LIMIT",
        docsPath: `${DOCS}#subscribing`,
        name: "AlertSubscriptionLimitError",
      },
    );
    this.limit = limit;
  }
}

export type AlertSubscriptionKeyRevokedErrorType = AlertSubscriptionKeyRevokedError & {
  name: "AlertSubscriptionKeyRevokedError";
};
/**
 * A resume of a subscription made with an API key that is now revoked (HTTP 409 `ALERT_SUBSCRIPTION_KEY_REVOKED`): it
 * stays paused; the wallet may delete it and subscribe again.
 */
export class AlertSubscriptionKeyRevokedError extends BaseError {
  constructor() {
    super(
      "This subscription was made with an API key that is now revoked: it stays paused; delete it and subscribe again.",
      {
        code: "ALERT_SUBSCRIPTION_KEY_REVOKED",
        docsPath: `${DOCS}#subscribing`,
        name: "AlertSubscriptionKeyRevokedError",
      },
    );
  }
}

export type AlertSubscriptionPausedErrorType = AlertSubscriptionPausedError & { name: "AlertSubscriptionPausedError" };
/** A test event asked of a paused subscription (HTTP 409 `ALERT_SUBSCRIPTION_PAUSED`): nothing is sent to it. */
export class AlertSubscriptionPausedError extends BaseError {
  constructor() {
    super("This subscription is paused: nothing is sent to it until it is resumed; resume it, then send the test.", {
      code: "ALERT_SUBSCRIPTION_PAUSED",
      docsPath: `${DOCS}#test-events`,
      name: "AlertSubscriptionPausedError",
    });
  }
}

export type AlertTestPendingErrorType = AlertTestPendingError & { name: "AlertTestPendingError" };
/**
 * A test event asked of a subscription whose previous test event is not delivered yet (HTTP 409 `ALERT_TEST_PENDING`):
 * one test at a time per subscription.
 */
export class AlertTestPendingError extends BaseError {
  constructor() {
    super("A test event for this subscription is still waiting to be delivered; one test at a time per subscription.", {
      code: "ALERT_TEST_PENDING",
      docsPath: `${DOCS}#test-events`,
      name: "AlertTestPendingError",
    });
  }
}
