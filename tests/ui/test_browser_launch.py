"""The test browser as launched: our ``--disable-features`` keeps Playwright's own and drops the unused browser UI.

Chromium keeps only the last ``--disable-features`` switch, and Playwright passes its own before ours
(tests/ui/conftest.py); a Playwright upgrade that disables one more feature must be followed here, or that
feature would quietly come back on.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from tests.ui.conftest import PLAYWRIGHT_DISABLED_FEATURES, UNUSED_BROWSER_UI


def _ancestors(pid: str) -> set[int]:
    """The process ids above ``pid`` (its parent, the parent's parent, …)."""
    found: set[int] = set()
    while pid not in ("0", "1"):
        stat = Path(f"/proc/{pid}/stat").read_text()
        pid = stat.rsplit(")", 1)[1].split()[1]
        found.add(int(pid))
    return found


def _our_browser_switches() -> list[str]:
    """The command line of the Chromium browser process this test process launched (not one of another worker's)."""
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            argv = Path(f"/proc/{entry}/cmdline").read_bytes().decode(errors="replace").split("\0")
            if argv[0].endswith(("chromium", "chromium-headless-shell")) and not any(a.startswith("--type=") for a in argv) \
                    and os.getpid() in _ancestors(entry):
                return argv
        except (OSError, IndexError):
            continue
    raise AssertionError("no Chromium browser process below this test process")


def test_our_disabled_features_are_the_last_switch_and_keep_playwrights(browser: Any) -> None:
    switches = [a.split("=", 1)[1].split(",") for a in _our_browser_switches() if a.startswith("--disable-features=")]
    assert len(switches) >= 2, "Playwright's switch and ours"
    playwrights, ours = switches[0], switches[-1]
    assert set(ours) == set(PLAYWRIGHT_DISABLED_FEATURES) | set(UNUSED_BROWSER_UI)
    missing = set(playwrights) - set(ours)
    assert not missing, f"Playwright now disables {sorted(missing)}: add them to PLAYWRIGHT_DISABLED_FEATURES"


def test_a_page_opens_no_browser_ui_beside_it(browser: Any) -> None:
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto("about:blank")
        targets = browser.new_browser_cdp_session().send("Target.getTargets")["targetInfos"]
        assert [t["url"] for t in targets if t["type"] == "browser_ui"] == [], "no omnibox popup pages"
    finally:
        context.close()
