// The bookmarklet's page: the button is for dragging. Clicked here it would run on ludolog itself, which our
// pages' Content-Security-Policy refuses anyway; say what to do instead.

import { t } from "./i18n.js";

const link = document.getElementById("bookmarklet");
const said = document.getElementById("bookmarklet-said");

link.addEventListener("click", (event) => {
  event.preventDefault();
  said.textContent = t("Drag this button to your bookmarks bar, then click the bookmark on a Board Game Arena page.");
});
document.body.dataset.ready = "true";
