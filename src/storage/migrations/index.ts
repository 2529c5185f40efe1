import type { Migration } from "kysely";
import { initial } from "./001_initial";
import { issueReason } from "./002_issue_reason";
import { market } from "./003_market";
import { auth } from "./004_auth";
import { alerts } from "./005_alerts";
import { ownerIndexes } from "./006_owner_indexes";
import { alertAccounts } from "./007_alert_accounts";
import { leader } from "./008_leader";
import { modelEvaluations } from "./009_model_evaluations";
import { cursorHash } from "./010_cursor_hash";
import { campaignKey } from "./011_campaign_key";
import { modelClaims } from "./012_model_claims";
import { accuracyRecord } from "./013_accuracy_record";
import { watchlist } from "./014_watchlist";
import { apySplit } from "./015_apy_split";
import { alertPool } from "./016_alert_pool";

/** Versioned migrations, applied in key order by Kysely's Migrator. Never edit one that has shipped: add another. */
export const migrations: Record<string, Migration> = {
  "001_initial": initial,
  "002_issue_reason": issueReason,
  "003_market": market,
  "004_auth": auth,
  "005_alerts": alerts,
  "006_owner_indexes": ownerIndexes,
  "007_alert_accounts": alertAccounts,
  "008_leader": leader,
  "009_model_evaluations": modelEvaluations,
  "010_cursor_hash": cursorHash,
  "011_campaign_key": campaignKey,
  "012_model_claims": modelClaims,
  "013_accuracy_record": accuracyRecord,
  "014_watchlist": watchlist,
  "015_apy_split": apySplit,
  "016_alert_pool": alertPool,
};
