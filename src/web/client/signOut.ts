import { errorMessage, requestJson, say } from "./http";

/** The header's sign-out button: `POST /auth/logout` (the server ends the session), then the sign-in page. */
export function initSignOut(): void {
  const button = document.querySelector<HTMLButtonElement>('[data-action="sign-out"]');
  const status = document.querySelector("[data-sign-out-status]");
  if (button === null) return;
  const signOut = async (): Promise<void> => {
    button.disabled = true;
    try {
      const response = await requestJson("/auth/logout", { method: "POST" });
      // 401: the session had already ended; either way the browser holds no working session now.
      if (!response.ok && response.status !== 401) {
        say(status, "error", errorMessage(response, "Sign-out failed"));
        return;
      }
      window.location.assign("/app/sign-in");
    } catch (error) {
      say(status, "error", `Sign-out failed: ${(error as Error).message}`);
    } finally {
      button.disabled = false;
    }
  };
  button.addEventListener("click", () => void signOut());
}
