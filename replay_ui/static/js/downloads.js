// The branch's downloads (BGA log, JSON lines, text) follow the view the board is shown in: a download in a seat's
// view holds what that seat may see, as the board does (the export route applies the view on the server).

import { t } from "./i18n.js";

/** Point every download link at `view` and say which view that is (the view select's words for it). */
export function followView(view) {
  for (const link of document.querySelectorAll("a[data-download]")) {
    const url = new URL(link.getAttribute("href"), location.href);
    url.searchParams.set("view", view);
    link.setAttribute("href", url.pathname + url.search);
  }
  const said = document.getElementById("download-view"), select = document.getElementById("view-select");
  const option = select ? [...select.options].find((o) => o.value === view) : null;
  const words = { full: t("in full"), spectator: t("by a spectator") };
  if (said) said.textContent = words[view] || (option ? option.textContent : view);
}
