"""Issue 15 item 4 in the browser: no two labels overlap on any board at a laptop's 1366 x 768 and a phone's 390 px
(every text's boxes compared, SVG and HTML, clipped to what an overflow-hidden box shows), Die goldene Stadt's river
labels clear of the harbours and every caption inside the map, and Amerigo's player sheets in words."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.ui.conftest import LiveServer, Watched
from tests.ui.helpers import open_game

pytestmark = pytest.mark.browser

BOARDS = {"demo-puerto-rico-1": 300, "demo-amerigo-1": 300, "demo-entdecker-1": 200, "demo-golden-city-1": 300}

#: [how many text boxes, the overlapping pairs] of the board's labels.
OVERLAPS = """() => {
  const labels = [...document.querySelectorAll('#board *')]
    .filter((e) => [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim()));
  const boxes = [];
  for (const e of labels) {
    const range = document.createRange(); range.selectNodeContents(e);
    const style = getComputedStyle(e), clip = style.overflow !== 'visible' ? e.getBoundingClientRect() : null;
    for (let r of range.getClientRects()) {
      if (clip) {
        const left = Math.max(r.left, clip.left), top = Math.max(r.top, clip.top);
        r = new DOMRect(left, top, Math.min(r.right, clip.right) - left, Math.min(r.bottom, clip.bottom) - top);
      }
      if (r.width > 0.5 && r.height > 0.5) boxes.push({ e, r, t: e.textContent.trim().slice(0, 20) });
    }
  }
  const out = [];
  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
    const a = boxes[i], b = boxes[j];
    if (a.e === b.e || a.e.contains(b.e) || b.e.contains(a.e)) continue;
    const w = Math.min(a.r.right, b.r.right) - Math.max(a.r.left, b.r.left);
    const h = Math.min(a.r.bottom, b.r.bottom) - Math.max(a.r.top, b.r.top);
    if (w > 1 && h > 1) out.push(`${a.t} x ${b.t} ${w.toFixed(1)}x${h.toFixed(1)}`);
  }
  return [boxes.length, out];
}"""


def _overlaps(page: Any) -> tuple[int, list[str]]:
    count, pairs = page.evaluate(OVERLAPS)
    return int(count), list(pairs)


@pytest.mark.parametrize("width", [1366, 390])
def test_no_labels_overlap_on_any_board(live_server: LiveServer, watched: Watched, artifacts: Path, width: int) -> None:
    watched.page.set_viewport_size({"width": width, "height": 768 if width > 1000 else 844})
    for gid, seq in BOARDS.items():
        for at in (seq, None):
            page = open_game(watched, live_server, at, gid=gid)
            count, pairs = _overlaps(page)
            assert count > 20, f"{gid}: only {count} labels found"
            assert not pairs, f"{gid} at {width} px, move {at or 'end'}: overlapping labels {pairs[:6]}"
        page.locator("#board").screenshot(path=str(artifacts / f"labels-{gid}-{width}.png"))
    watched.assert_clean()


def test_golden_city_rivers_clear_the_harbours_and_captions_stay_on_the_map(live_server: LiveServer, watched: Watched) -> None:
    page = open_game(watched, live_server, 300, gid="demo-golden-city-1")
    inside = page.evaluate("""() => { const map = document.querySelector('svg.gc-map').getBoundingClientRect();
        return [...document.querySelectorAll('svg.gc-map text')].filter(t => { const r = t.getBoundingClientRect();
          return r.top < map.top - 0.5 || r.bottom > map.bottom + 0.5 || r.left < map.left - 0.5 || r.right > map.right + 0.5; })
          .map(t => t.textContent); }""")
    assert inside == [], f"captions cut by the map's edge: {inside}"
    box = "s => document.querySelector(`.gc-site[data-site='${s}']`).getBoundingClientRect().toJSON()"
    for river, harbour in (("R-NW", "HA01"), ("R-SE", "HA09")):
        label = page.evaluate("t => [...document.querySelectorAll('text.gc-river-label')].find(e => e.textContent === t)"
                              ".getBoundingClientRect().toJSON()", river)
        site = page.evaluate(box, harbour)
        apart = (label["right"] < site["left"] or site["right"] < label["left"]
                 or label["bottom"] < site["top"] or site["bottom"] < label["top"])
        assert apart, f"{river} covers {harbour}"
    watched.assert_clean()


def test_amerigo_player_sheets_say_it_in_words(live_server: LiveServer, watched: Watched) -> None:
    page = open_game(watched, live_server, 420, gid="demo-amerigo-1")
    sheet = page.inner_text(".am-player")
    for words in ("cotton", "makes", "tiles to build", "villages left", "ship 1 "):
        assert words in sheet, (words, sheet)
    assert not re.search(r"\b[a-z]{3} \d+×\d+", sheet), "abbreviated goods (cot 0×1)"
    assert not re.search(r"\bv [A-Z]\d\b", sheet), "abbreviated village tiles (v M1)"
    assert not re.search(r"\b\d: \d+,\d+\b", sheet), "ships as bare coordinates (1: 7,26)"
    assert re.search(r"ship \d (at row \d+, column \d+|on frame space F\d+|not placed yet)", sheet), sheet
    assert page.locator(".am-player svg.am-shape").count() > 0, "tiles drawn as their shapes"
    watched.assert_clean()
