"""Your move in one screen, in one tap: at every turn arrival of the browser walks, whether
the phone's first control (the first thing below "Your move" to tap) is wholly in view
above the turn bar, and how many taps each move took. Each walk adds its figures to
test-artifacts/one-tap.json (walks run in several test workers: the file is locked)."""

from __future__ import annotations

import fcntl
import json
from collections import defaultdict
from typing import Any

from playwright.sync_api import Page

from test_browser import ARTIFACTS

FIRST_CONTROL = """() => {
  const table = document.querySelector('#table'), actions = table && table.querySelector('#actions'), bar = document.querySelector('.turnbar');
  if (!actions) return {inView: false, control: null};
  const control = [...table.querySelectorAll('button, select, input:not([type=hidden]), label.pick')].find(e =>
    e.getClientRects().length && (actions.compareDocumentPosition(e) & Node.DOCUMENT_POSITION_FOLLOWING) && !(bar && bar.contains(e)));
  if (!control) return {inView: false, control: null};
  const r = control.getBoundingClientRect(), bottom = innerHeight - (bar ? bar.getBoundingClientRect().height : 0);
  return {inView: r.top >= -1 && r.left >= -1 && r.right <= innerWidth + 1 && r.bottom <= bottom + 1,
          control: control.textContent.trim().slice(0, 40), bar: Math.round(bar ? bar.getBoundingClientRect().height : 0)};
}"""


class OneTap:
    """The figures of one walk: each turn arrival (in view or not) and the taps per move."""

    def __init__(self, walk: str) -> None:
        self.walk = walk
        self.arrivals: list[dict[str, Any]] = []
        self.taps: dict[str, list[int]] = defaultdict(list)

    def arrive(self, page: Page, seq: int) -> bool:
        """The turn has come to this phone at event `seq`: is its first control in view?"""
        page.evaluate("() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")  # table.js has scrolled
        seen = page.evaluate(FIRST_CONTROL)
        self.arrivals.append({"seq": seq, **seen})
        if not seen["inView"]:  # what the phone showed instead
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / f"one-tap-missed-{self.walk or 'walk'}-{seq}.png"))
        return bool(seen["inView"])

    def tapped(self, move: str, count: int) -> None:
        self.taps[move].append(count)

    def share(self) -> float:
        return sum(a["inView"] for a in self.arrivals) / len(self.arrivals)

    def save(self) -> dict[str, Any]:
        """Adds this walk to test-artifacts/one-tap.json, with the totals over every walk so far."""
        ARTIFACTS.mkdir(exist_ok=True)
        figures = {"turn arrivals": len(self.arrivals), "first control in view": sum(a["inView"] for a in self.arrivals),
                   "taps per move": {move: {"moves": len(counts), "most": max(counts), "mean": round(sum(counts) / len(counts), 2)}
                                     for move, counts in self.taps.items()},
                   "not in view": [a for a in self.arrivals if not a["inView"]]}
        with (ARTIFACTS / "one-tap.lock").open("w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            path = ARTIFACTS / "one-tap.json"
            kept = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
            walks = {**kept.get("walks", {}), self.walk: figures}
            arrivals = sum(w["turn arrivals"] for w in walks.values())
            in_view = sum(w["first control in view"] for w in walks.values())
            total = {"turn arrivals": arrivals, "first control in view": in_view, "share": round(in_view / max(arrivals, 1), 3)}
            path.write_text(json.dumps({"all walks": total, "walks": walks}, indent=1, ensure_ascii=False), encoding="utf-8")
        return figures
