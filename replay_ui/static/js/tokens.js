// The tokens page: the new token is copied with one click, and revoking asks first (on the button itself, no dialog:
// the first click arms it, the second revokes), as deleting a branch does.

import { t } from "./i18n.js";

const copyButton = document.getElementById("copy-token");

async function copyToken() {
  const token = document.getElementById("new-token").textContent.trim(), status = document.getElementById("copy-status");
  try {
    await navigator.clipboard.writeText(token);
    status.textContent = t("Copied.");
  } catch {
    // No clipboard access (an insecure origin, or refused): select the token, so that the keyboard's copy takes it.
    window.getSelection().selectAllChildren(document.getElementById("new-token"));
    status.textContent = t("Selected: copy it with Ctrl+C (⌘C).");
  }
}

function askBeforeRevoking(event) {
  const form = event.currentTarget, button = form.querySelector("button[type=submit]");
  if (form.dataset.armed === "true") return;
  event.preventDefault();
  form.dataset.armed = "true";
  button.textContent = t("Revoke “%(name)s” for good? Click again", { name: form.dataset.name });
}

if (copyButton) copyButton.addEventListener("click", copyToken);
for (const form of document.querySelectorAll("form.revoke-form")) form.addEventListener("submit", askBeforeRevoking);
