import { initAlerts } from "./alerts";
import { initApiKeys } from "./apiKeys";
import { initCompare } from "./compare";
import { initCopyButtons } from "./copy";
import { initCrosshairs } from "./crosshair";
import { initHistoryRange } from "./historyRange";
import { initLayout } from "./layout";
import { initLiquidityRequestForm } from "./liquidityRequestForm";
import { initSignIn } from "./signIn";
import { initSignOut } from "./signOut";
import { initVerifyPool } from "./verifyPool";

/**
 * The dapp's one client script (loaded with `defer`, so the document is parsed): wires the sign-out button on every
 * page, then the parts of the page it is on (`<body data-page>`). Every page works as plain HTML without it except
 * the wallet sign-in, the in-browser verification and the key, request and alert forms.
 */
function start(): void {
  initSignOut();
  initLayout();
  initCrosshairs();
  const page = document.body.dataset.page;
  if (page === "sign-in") initSignIn();
  if (page === "pools" && document.body.dataset.poolId !== undefined) void initVerifyPool();
  if (document.querySelector("nav.range-toggles") !== null) initHistoryRange();
  if (page === "compare") initCompare();
  if (page === "keys" || page === "alerts") initCopyButtons();
  if (page === "keys") initApiKeys();
  if (page === "liquidity-requests") initLiquidityRequestForm();
  if (page === "alerts") initAlerts();
}

start();
