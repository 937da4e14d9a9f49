"""Puerto Rico on Board Game Arena: log notifications to actions, and actions to notifications.

Import. A role choice is recognised by its structure (``args.rol_type``, as BGA sends it);
everything else by the rendered English line, in the phrases of BGA's 2016 Puerto Rico
("got a new plantation", "bought a new building for", "victory point(s) for shipping",
"from the sale", …), with the kinds (goods, buildings, ships) read from ``args`` when
present and from the words otherwise. Notification ``type`` names are never read: BGA's
are not public, and a line whose text is clear means the same whatever its type.

* Bonus lines (the mayor's privilege colonist, a hospice or university colonist, the
  harbor's and the captain's bonus VP) attach to the decision before them in the same
  move. A line saying a bonus was declined declines it. A log that says declines outright
  anywhere (and our own export) takes every other bonus; in a log that never does, a
  decision without a kind of bonus line the log prints elsewhere declined that bonus, and
  a kind of bonus the log never prints is taken (the default).
* Chance: a plantation turned face up, or drawn with a hacienda, is taken from the line
  that states it. When a log states no row draws at all, every draw is planned ahead
  (:func:`plan_draws`: a search over the plantations' own small system of stack, discards
  and face-up row) so that each settler phase finds what the log says it took; a hacienda
  draw whose kind is unsaid is the kind the player later places more colonists on than the
  log gave them. Without a plan, draws are chosen one by one (what the next settler phase
  takes, then what the rest of the log needs least). A reshuffle is forced when the stack
  is empty. Inferred events carry ``meta.inferred`` saying why.
* A player who has a decision but is not in the log before another player's line passed
  (inferred, when the rules offer a pass).
* The end-of-game result (``gameStateChange`` 99) is compared with our final scoring.

Export: :func:`notes_for` writes each event as notifications of our own ``type`` names:

==========================  ============================================================
``roleSelected``            ``${player_name} selected the ${rol_type_tr}`` (BGA's args)
``roleDoubloons``           ``… got ${nbr} doubloon(s) from the role card``
``privilegeColonist``       ``… got 1 colonist from the supply as his privilege``
``privilegeDoubloon``       ``… got 1 doubloon as his privilege`` (prospector)
``shipColonists``           ``… got ${nbr} colonist(s) from the ship``
``plantationTaken``         ``… got a new plantation (${plantation_name})``
``quarryTaken``             ``… got a new quarry``
``haciendaPlantation``      ``… got a new plantation from the deck (${plantation_name})``
``hospiceColonist``         ``… got 1 colonist on it from his hospice``
``plantationTurnedUp``      ``A ${plantation_name} plantation is turned face up``
``plantationsReshuffled``   ``The discarded plantations are shuffled into a new stack``
``colonistPlaced``          ``… placed a colonist on his ${slot_name}``
``buildingBought``          ``… bought a new building for ${price} doubloon(s): ${building_name}``
``universityColonist``      ``… got 1 colonist on it from his university``
``extraBarrel``             ``… got an extra ${good_name} barrel as his privilege``
``barrelSold``              ``… sold a ${good_name} barrel and got ${price} doubloon(s) from the sale``
``goodsShipped``            ``… shipped ${nbr} ${good_name} on the ${capacity}-barrel ship and got ${nbr} victory point(s) for shipping``
                            (``with his wharf`` instead of the ship for the wharf)
``harborVictoryPoint``      ``… got 1 victory point from his harbor``
``privilegeVictoryPoint``   ``… got 1 victory point as his privilege``
``goodsKept``               ``… keeps ${kept_text}; the other barrels go back to the supply``
``playerPassed``            ``${player_name} passes``
``bonusDeclined``           ``… declined the colonist of his hospice`` (university, privilege),
                            ``… declined ${nbr} bonus victory point(s)``
==========================  ============================================================
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from engine.core.bgalog import (
    REFUSED,
    SKIPPED,
    USED,
    HistoryBuilder,
    LogImport,
    LogMismatchError,
    LogNote,
    Progress,
    ReportRow,
)
from engine.core.errors import NotationError
from engine.core.events import Event
from engine.core.protocol import CHANCE, Action, Rules, Setup
from engine.puerto_rico.components import BUILDING_NAMES, GOOD_NAMES, HARBOR, ROLE_NAMES, SETUP, TILE_NAMES
from engine.puerto_rico.state import BUILD, CRAFT, DRAW, HACIENDA_DRAW, LOAD, PLACE, ROLE, SETTLE, STORE, TRADE, State

# --- reading lines -------------------------------------------------------------------------------

_GOOD = r"(corn|indigo|sugar|tobacco|coffee)"
_POSSESSIVE = r"(?:his|her|their)"
_BY_LENGTH = sorted(BUILDING_NAMES, key=len, reverse=True)
_ROLE_WORDS = ("settler", "mayor", "builder", "craftsman", "trader", "captain", "prospector")

# Lines that state a bonus belonging to the decision before them.
PRIVILEGE_COLONIST, HOSPICE, UNIVERSITY = "privilege colonist", "hospice", "university"
HARBOR_VP, PRIVILEGE_VP = "harbor vp", "privilege vp"
#: A line saying the decision before it declined a bonus (our export writes one for every decline).
DECLINED = "declined"

# (kind, pattern) in the order tried; the first match decides.
_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = tuple((k, re.compile(p, re.IGNORECASE)) for k, p in (
    ("place", r"\bplaced? an? colonists? on\b"),
    (DECLINED, r"\bdeclined?s?\b"),
    (PRIVILEGE_COLONIST, rf"colonists? from the supply as {_POSSESSIVE} privilege"),
    (HOSPICE, rf"colonists?\b.*\b(?:from|with|by) {_POSSESSIVE} hospice"),
    (UNIVERSITY, rf"colonists?\b.*\b(?:from|with|by) {_POSSESSIVE} university"),
    (HARBOR_VP, rf"victory points? from {_POSSESSIVE} harbou?r"),
    (PRIVILEGE_VP, rf"victory points? as {_POSSESSIVE} privilege"),
    ("hacienda", r"got a new plantation from the deck|\bhacienda\b.*\bplantation|plantation\b.*\bhacienda"),
    ("plant", r"got an? new plantation|\btook an? .*plantation"),
    ("quarry", r"got an? new quarry|\btook a quarry"),
    ("draw", r"turned face up|face-up|new plantations? (?:is|are) (?:drawn|revealed)"),
    ("reshuffle", r"shuffled"),
    ("build", r"bought an? (?:new )?building|\bbuilt an?\b|\bbuilds an?\b"),
    ("extra", rf"\b{_GOOD}\b.*\bas {_POSSESSIVE} privilege"),
    ("sell", r"from the sale|\bsold\b|\bsells\b"),
    ("ship", r"for shipping|\bshipped\b|\bships\b"),
    ("keep", r"\bkeeps?\b|\bkept\b"),
    ("pass", r"\bpass(?:es|ed)?\b"),
    ("consequence", rf"from the role card|from the ship|from {_POSSESSIVE} factory|doubloons? as {_POSSESSIVE} privilege|"
                    r"bonus points?|produced?|"
                    r"\bgovernor\b|new round|go back to the supply|lost|discard"),
))
_BONUS_KINDS = frozenset({PRIVILEGE_COLONIST, HOSPICE, UNIVERSITY, HARBOR_VP, PRIVILEGE_VP, DECLINED})
_DECISIONS = frozenset({"role", "hacienda", "plant", "quarry", "place", "build", "extra", "sell", "ship", "keep", "pass"})


#: The phases in which each kind of decision can be taken (a pass fits any).
_PHASES_OF: dict[str, tuple[int, ...]] = {
    "role": (ROLE,), "plant": (SETTLE,), "quarry": (SETTLE,), "hacienda": (SETTLE,), "place": (PLACE,), "build": (BUILD,),
    "extra": (CRAFT,), "sell": (TRADE,), "ship": (LOAD,), "keep": (STORE,),
}


@dataclass
class Item:
    """One classified notification: what kind of line it is and the values read from it."""

    note: LogNote
    kind: str
    values: dict[str, Any] = field(default_factory=dict)
    bonuses: list[Item] = field(default_factory=list)


def _word(pattern: str, text: str) -> str | None:
    match = re.search(pattern, text, re.IGNORECASE)
    return match.group(1).lower() if match else None


def _arg_text(args: Mapping[str, Any], *names: str) -> str | None:
    for name in names:
        value = args.get(name)
        if isinstance(value, str) and value.strip():
            return value.strip().lower()
    return None


def _good(note: LogNote) -> int | None:
    name = _arg_text(note.args, "plantation_type", "good_type", "good_name", "plantation_name") or _word(rf"\b{_GOOD}\b", note.text)
    return GOOD_NAMES.index(name) if name in GOOD_NAMES else None


def _building(note: LogNote) -> int | None:
    name = _arg_text(note.args, "building_type", "building_name")
    if name in BUILDING_NAMES:
        return BUILDING_NAMES.index(name)
    text = note.text.lower()
    for candidate in _BY_LENGTH:
        if re.search(rf"\b{re.escape(candidate)}\b", text):
            return BUILDING_NAMES.index(candidate)
    return None


def _slot(note: LogNote) -> str | None:
    name = _arg_text(note.args, "slot_type")
    if name in TILE_NAMES or name in BUILDING_NAMES:
        return name
    building = _building(note)
    if building is not None:
        return BUILDING_NAMES[building]
    text = note.text.lower()
    return _word(r"\b(corn|indigo|sugar|tobacco|coffee|quarry)\b", text)


def _int(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().isdigit():
        return int(value)
    return None


def _kept(note: LogNote) -> tuple[int, ...] | None:
    raw = note.args.get("kept")
    if isinstance(raw, Mapping):
        counts = [_int(raw.get(g, 0)) for g in GOOD_NAMES]
        if all(c is not None and c >= 0 for c in counts):
            return tuple(c or 0 for c in counts)
    text = note.text.lower()
    if re.search(r"\bkeeps? nothing\b", text):
        return (0,) * 5
    found = re.findall(rf"(\d+) {_GOOD}", text)
    if not found:
        return None
    kept = [0] * 5
    for count, good in found:
        kept[GOOD_NAMES.index(good)] += int(count)
    return tuple(kept)


def classify(note: LogNote) -> Item:
    """What a public notification says, by its structure (``rol_type``) and its text."""
    args = note.args
    rol_type = args.get("rol_type")
    if isinstance(rol_type, str) and rol_type.strip().lower().rstrip("2") in _ROLE_WORDS:
        return Item(note, "role", {"role": rol_type.strip().lower().rstrip("2"), "rol_id": _int(args.get("rol_id"))})
    text = note.text
    role = _word(rf"\bselected the ({'|'.join(_ROLE_WORDS)})\b", text)
    if role:
        return Item(note, "role", {"role": role, "rol_id": None})
    for kind, pattern in _PATTERNS:
        if pattern.search(text):
            return Item(note, kind, _values(kind, note))
    return Item(note, "unknown")


def _values(kind: str, note: LogNote) -> dict[str, Any]:
    if kind in ("hacienda", "plant", "draw", "extra", "sell"):
        return {"good": _good(note)}
    if kind == "place":
        return {"slot": _slot(note)}
    if kind == "build":
        return {"building": _building(note)}
    if kind == "ship":
        capacity = _int(note.args.get("capacity")) or _int(_word(r"\b(\d)[- ]barrel ship\b", note.text))
        wharf = bool(re.search(r"\bwharf\b", note.text, re.IGNORECASE)) or note.args.get("wharf") is True
        return {"good": _good(note), "capacity": capacity, "wharf": wharf}
    if kind == "keep":
        return {"kept": _kept(note)}
    if kind == DECLINED:
        return {"vp": _int(note.args.get("nbr")) or _int(_word(r"(\d+) (?:bonus )?victory points?", note.text))}
    return {}


# --- import -------------------------------------------------------------------------------------------


def _seat_of(note: LogNote, seats: Mapping[int, int], names: Sequence[str]) -> int | None:
    pid = _int(note.args.get("player_id"))
    if pid is not None and pid in seats:
        return seats[pid]
    name = note.args.get("player_name")
    if isinstance(name, str) and name in names:
        return names.index(name)
    for seat, known in enumerate(names):  # a line without args: its first word(s) name the player
        if note.text.startswith(known + " "):
            return seat
    return None


def _parsed(rules: Rules, notation: str) -> Action | None:
    """The action for ``notation``, or None where these rules have no such action (an older rules version)."""
    try:
        return rules.parse_action(notation)
    except NotationError:
        return None


class _Importer:
    """One import: classified items, grouped decisions, and the history being built."""

    def __init__(self, rules: Rules, setup: Setup, notes: Sequence[LogNote], seats: Mapping[int, int], keep_every: int = 0) -> None:
        self.rules = rules
        self.names = list(setup.players)
        self.seats = seats
        self.builder = HistoryBuilder(rules, setup, keep_every=keep_every)
        self.decisions: list[Item] = []
        self.others: list[Item] = []
        self.bonus_kinds_seen: set[str] = set()
        self._later_at, self._later = -1, Counter[int]()
        self.position = 0
        self._group(notes)
        # Our own export says every decline outright ("declined ..."): there, a missing bonus line is no decline.
        self.explicit_declines = DECLINED in self.bonus_kinds_seen or any(n.type == "ludologSetup" for n in notes[:5])
        self.hacienda_hints = self._hint_haciendas()
        self.plan = self._plan()

    def _group(self, notes: Sequence[LogNote]) -> None:
        """Decisions in order, each with the bonus lines that follow it in its move."""
        last: Item | None = None
        for note in notes:
            if note.private:
                self.others.append(Item(note, "private"))
                continue
            item = classify(note)
            if item.kind in _BONUS_KINDS:
                self.bonus_kinds_seen.add(item.kind)
                if last is not None and last.note.move_id == note.move_id:
                    last.bonuses.append(item)
                else:
                    self.others.append(Item(note, "stray bonus"))
                continue
            if item.kind in _DECISIONS or item.kind in ("draw", "reshuffle"):
                self.decisions.append(item)
                last = item if item.kind in _DECISIONS else last
            elif item.kind == "unknown" and note.type == "gameStateChange" and _int(note.args.get("id")) == 99:
                self.decisions.append(Item(note, "result"))
            else:
                self.others.append(item)

    def _plan(self) -> DrawPlan | None:
        """Plan every draw ahead when the log states none (see :func:`plan_draws`)."""
        if any(item.kind == "draw" for item in self.decisions):
            return None
        phases: list[_Phase] = []
        current: _Phase | None = None
        for item in self.decisions:
            if item.kind == "role":
                current = None
                if item.values["role"] == "settler":
                    current = _Phase()
                    phases.append(current)
            elif current is not None and item.kind == "plant" and item.values.get("good") is not None:
                current.takes[item.values["good"]] += 1
            elif current is not None and item.kind == "hacienda":
                good = item.values.get("good")
                current.hacienda.append((item.note.index, good if good is not None else self.hacienda_hints.get(item.note.index)))
        plan = plan_draws(self.state.n, self.state.stack, phases)
        if plan is not None:
            plan.hacienda.update(self.hacienda_hints)
        return plan

    def _hint_haciendas(self) -> dict[int, int]:
        """Kinds of hacienda draws the log leaves unsaid, read from later mayor phases: a player who
        places more colonists on a kind of plantation than the log gave them drew one."""
        islands = [list(p.island[:5]) for p in self.state.players]
        pending: list[list[int]] = [[] for _ in islands]
        hints: dict[int, int] = {}
        placed: list[Counter[int]] = [Counter() for _ in islands]
        in_mayor = False
        for item in [*self.decisions, Item(self.decisions[-1].note, "role", {"role": "end"})] if self.decisions else []:
            if item.kind == "role":
                if in_mayor:
                    for owner, counts in enumerate(placed):
                        for kind, count in counts.items():
                            while count > islands[owner][kind] and pending[owner]:
                                hints[pending[owner].pop(0)] = kind
                                islands[owner][kind] += 1
                    placed = [Counter() for _ in islands]
                in_mayor = item.values["role"] == "mayor"
                continue
            seat = _seat_of(item.note, self.seats, self.names)
            if seat is None or seat >= len(islands):
                continue
            good = item.values.get("good")
            if item.kind == "plant" and good is not None:
                islands[seat][good] += 1
            elif item.kind == "hacienda":
                if good is None:
                    pending[seat].append(item.note.index)
                else:
                    islands[seat][good] += 1
            elif item.kind == "place" and in_mayor and item.values.get("slot") in GOOD_NAMES:
                placed[seat][GOOD_NAMES.index(item.values["slot"])] += 1
        return hints

    # -- chance -------------------------------------------------------------------------------------
    @property
    def state(self) -> State:
        """The state so far."""
        return self.builder.state  # type: ignore[no-any-return]

    def _settle_chance(self, position: int, note: LogNote | None) -> None:
        """Apply the chance events due now that the log does not state (forced or inferred)."""
        while self.builder.actor == CHANCE:
            outcomes = [o for o, w in self.rules.chance_outcomes(self.state) if w > 0]
            move = note.move_id if note else None
            if outcomes == [("reshuffle",)] or (len(outcomes) == 1 and self.plan is None):
                self.builder.act(CHANCE, outcomes[0], None, inferred="forced: the only possible outcome", move_id=move)
                continue
            action, why = self._infer_draw(position)
            self.builder.act(CHANCE, action, None, inferred=why, move_id=move)

    def _infer_draw(self, position: int) -> tuple[Action, str]:
        state = self.state
        stack = state.stack
        planned = self._planned_draw()
        if planned is not None:
            return ("draw", planned), "not stated in the log: planned so that every later settler phase is possible"
        row, deck = self._next_settler_needs(position)
        if state.phase == HACIENDA_DRAW:
            hint = self.hacienda_hints.get(self.decisions[self.position].note.index) if self.position < len(self.decisions) else None
            if hint is not None and stack[hint] > 0:
                return ("draw", hint), "hacienda draw not stated in the log: the kind the player later places colonists on"
            good = max(range(5), key=lambda g: (stack[g] - row[g], -g))
            return ("draw", good), "hacienda draw not stated in the log: the kind most plentiful in the stack"
        needed = row - Counter({g: c for g, c in enumerate(state.face_up) if c})
        for good in range(5):
            if needed[good] > 0 and stack[good] > 0:
                return ("draw", good), "plantation turned face up, not stated in the log: taken in the next settler phase"
        later = self._later_needs(position)
        good = max(range(5), key=lambda g: (stack[g] > 0, stack[g] - deck[g] - later[g], -g))
        return ("draw", good), "plantation turned face up, not stated in the log: a kind the rest of the log needs least"

    def _planned_draw(self) -> int | None:
        """The plan's next draw, while the game still follows it (else the plan is dropped)."""
        plan, state = self.plan, self.state
        if plan is None:
            return None
        if state.phase == HACIENDA_DRAW:
            good = plan.hacienda.get(self.decisions[self.position].note.index) if self.position < len(self.decisions) else None
        else:
            good = plan.row.pop(0) if plan.row else None
        if good is None or state.stack[good] <= 0:
            self.plan = None
            return None
        return good

    def _later_needs(self, position: int) -> Counter[int]:
        """Plantations taken anywhere in the rest of the log (cached per position)."""
        if self._later_at != position:
            later: Counter[int] = Counter()
            for item in self.decisions[position:]:
                if item.kind in ("plant", "hacienda") and item.values.get("good") is not None:
                    later[item.values["good"]] += 1
            self._later_at, self._later = position, later
        return self._later

    def _next_settler_needs(self, position: int) -> tuple[Counter[int], Counter[int]]:
        """What the next settler phase (after ``position``) takes from the face-up row, and draws with haciendas."""
        row: Counter[int] = Counter()
        deck: Counter[int] = Counter()
        in_settler = self.state.phase == HACIENDA_DRAW
        for item in self.decisions[position:]:
            if item.kind == "role":
                if in_settler:
                    break
                in_settler = item.values["role"] == "settler"
            elif in_settler and item.kind in ("plant", "hacienda") and item.values.get("good") is not None:
                (row if item.kind == "plant" else deck)[item.values["good"]] += 1
            elif item.kind == "draw" and not in_settler:
                break  # the log states the next row itself
        return row, deck

    # -- decisions ----------------------------------------------------------------------------------
    def run(self, progress: Progress | None) -> LogImport:
        result = LogImport(self.rules.name, Setup(tuple(self.names), {}), self.builder.events, self.builder.report,
                           kept_states=self.builder.kept_states)
        total = len(self.decisions)
        self.position = 0
        try:
            for position, item in enumerate(self.decisions):
                self.position = position
                self._handle(position, item)
                if progress is not None and ((position + 1) % 100 == 0 or position + 1 == total):
                    progress(position + 1, total)
            self._settle_chance(len(self.decisions), None)
        except LogMismatchError as exc:
            failing = next((i for i in self.decisions if exc.index is not None and i.note.index == exc.index), None)
            if failing is not None:
                self.builder.note_row(failing.note, REFUSED, f"{exc.reason} [rule: {exc.rule}]", action=exc.action)
            else:
                self.builder.report.append(ReportRow(REFUSED, f"{exc.reason} [rule: {exc.rule}]", move_id=exc.move_id,
                                                     seq=exc.seq, action=exc.action))
            result.error = exc
        for other in self.others:
            self._report_other(other)
        result.state = self.state
        return result

    def _report_other(self, item: Item) -> None:
        note = item.note
        if item.kind == "private":
            self.builder.note_row(note, SKIPPED, "private notification: kept for its player, no rules effect")
        elif item.kind == "stray bonus":
            self.builder.note_row(note, SKIPPED, "a bonus line with no decision before it in its move")
        elif item.kind == "consequence":
            self.builder.note_row(note, SKIPPED, "a consequence the rules compute themselves")
        elif not note.text:
            self.builder.note_row(note, SKIPPED, "silent notification: no text, no rules effect")
        else:
            self.builder.note_row(note, SKIPPED, "line not recognised as a Puerto Rico action; no rules effect")

    def _handle(self, position: int, item: Item) -> None:
        note = item.note
        if item.kind == "draw":
            self._stated_draw(position, item)
            return
        if item.kind == "reshuffle":
            if self.builder.actor == CHANCE and [o for o, w in self.rules.chance_outcomes(self.state) if w] == [("reshuffle",)]:
                event = self.builder.act(CHANCE, ("reshuffle",), note)
                self.builder.note_row(note, USED, "reshuffle", seq=event.seq, action=event.action)
            else:
                self.builder.note_row(note, SKIPPED, "reshuffle already applied (forced by an empty stack)")
            return
        if item.kind == "result":
            self._settle_chance(position, note)
            while self.builder.actor not in (None, CHANCE) and ("pass",) in self.rules.legal_actions(self.state):
                self.builder.act(self.builder.actor, ("pass",), None, move_id=note.move_id,
                                 inferred="not in the log: the player to act before the end passed")
                self._settle_chance(position, note)
            self._check_result(item)
            return
        self._settle_chance(position, note)
        seat = _seat_of(note, self.seats, self.names)
        self._implied_passes(item, seat, note)
        actor = self.builder.actor
        if seat is not None and actor != seat and actor is not None:
            who = "chance" if not isinstance(actor, int) else f"{self.names[actor]} (seat {actor})"
            raise LogMismatchError(f"{self.names[seat]} acts in the log, but {who} is to act", move_id=note.move_id,
                                   line=note.text, rule="turn order", seq=len(self.builder.events) + 1, index=note.index)
        candidates = self._candidates(item)
        legal = set(self.rules.legal_actions(self.state))
        action = self._choose(candidates, note, legal)
        event = self.builder.act(actor, action, note, legal=legal)
        self.builder.note_row(note, USED, item.kind, seq=event.seq, action=event.action)
        for bonus in item.bonuses:
            self.builder.note_row(bonus.note, USED, f"{bonus.kind}: part of {event.action!r}", seq=event.seq)
        if item.kind == "hacienda":
            good = item.values.get("good")
            if good is not None:
                draw = self.builder.act(CHANCE, ("draw", good), note)
                self.builder.report.append(ReportRow(
                    USED, "hacienda draw stated in the log", move_id=note.move_id, packet_id=note.packet_id, uid=note.uid,
                    seq=draw.seq, action=draw.action))
            else:
                self._settle_chance(position + 1, note)

    def _stated_draw(self, position: int, item: Item) -> None:
        note = item.note
        # A reshuffle the stack forces may come first.
        while self.builder.actor == CHANCE and [o for o, w in self.rules.chance_outcomes(self.state) if w] == [("reshuffle",)]:
            self.builder.act(CHANCE, ("reshuffle",), None, inferred="forced: the stack is empty", move_id=note.move_id)
        good = item.values.get("good")
        if good is None:
            self.builder.note_row(note, SKIPPED, "a plantation turned up, but its kind is not in the line")
            return
        if self.builder.actor != CHANCE or self.state.phase != DRAW:
            raise LogMismatchError("a plantation is turned up, but no draw is due", move_id=note.move_id, line=note.text,
                                   rule="settler: the face-up row is refilled after the phase", index=note.index,
                                   seq=len(self.builder.events) + 1, action=f"draw {GOOD_NAMES[good]}")
        event = self.builder.act(CHANCE, ("draw", good), note)
        self.builder.note_row(note, USED, "draw", seq=event.seq, action=event.action)

    def _implied_passes(self, item: Item, seat: int | None, note: LogNote) -> None:
        """Players with a decision the log does not show, before ``item``, passed (when they may):
        another player's line, or a line of another phase, comes first."""
        phases = _PHASES_OF.get(item.kind)
        for _ in range(100):
            actor = self.builder.actor
            if actor is None or actor == CHANCE:
                return
            if (seat is None or actor == seat) and (phases is None or self.state.phase in phases):
                return
            if ("pass",) not in self.rules.legal_actions(self.state):
                return
            self.builder.act(self.builder.actor, ("pass",), None, move_id=note.move_id,
                             inferred="not in the log: the player to act before this line passed")
            self._settle_chance(self.position, note)

    def _declines(self, item: Item, kind: str) -> bool:
        """Whether the decision declined a colonist bonus: said outright, or (in a log that prints
        such bonuses) left unsaid."""
        if any(b.kind == DECLINED for b in item.bonuses):
            return True
        if self.explicit_declines:
            return False
        return kind in self.bonus_kinds_seen and not any(b.kind == kind for b in item.bonuses)

    def _candidates(self, item: Item) -> list[str]:
        """Notations for the item, the most likely first (variants that decline a bonus when the log shows it)."""
        kind, values = item.kind, item.values
        if kind == "role":
            role = values["role"]
            if role == "prospector":
                return ["role prospector2", "role prospector"] if values.get("rol_id") == 7 else ["role prospector", "role prospector2"]
            if role == "mayor" and self._declines(item, PRIVILEGE_COLONIST):
                return ["role mayor without colonist", "role mayor"]
            return [f"role {role}"]
        if kind in ("plant", "quarry"):
            base = "quarry" if kind == "quarry" else f"plant {GOOD_NAMES[self._need(values.get('good'), item, 'plantation kind')]}"
            return [f"{base} without colonist", base] if self._declines(item, HOSPICE) else [base]
        if kind == "hacienda":
            return ["hacienda"]
        if kind == "place":
            return [f"place {self._need(values.get('slot'), item, 'plantation or building')}"]
        if kind == "build":
            base = f"build {BUILDING_NAMES[self._need(values.get('building'), item, 'building')]}"
            return [f"{base} without colonist", base] if self._declines(item, UNIVERSITY) else [base]
        if kind in ("extra", "sell"):
            return [f"{kind} {GOOD_NAMES[self._need(values.get('good'), item, 'good')]}"]
        if kind == "keep":
            kept = self._need(values.get("kept"), item, "barrels kept")
            parts = [f"{count} {GOOD_NAMES[g]}" for g, count in enumerate(kept) if count]
            return ["keep " + (" ".join(parts) if parts else "nothing")]
        if kind == "pass":
            return ["pass"]
        if kind == "ship":
            return self._ship_candidates(item)
        raise AssertionError(kind)

    def _ship_candidates(self, item: Item) -> list[str]:
        good = GOOD_NAMES[self._need(item.values.get("good"), item, "good")]
        state = self.state
        seat = state.turn
        due = (1 if state.players[seat].city[HARBOR] > 0 else 0) + (1 if seat == state.chooser and not state.captain_bonus_used else 0)
        shown = sum(1 for b in item.bonuses if b.kind in (HARBOR_VP, PRIVILEGE_VP))
        said = [b.values.get("vp") or 1 for b in item.bonuses if b.kind == DECLINED]
        if said:
            declined = min(due, sum(said))
        else:
            declined = 0 if self.explicit_declines or not self.bonus_kinds_seen & {HARBOR_VP, PRIVILEGE_VP} else max(0, due - shown)
        suffix = f" without {declined} vp" if declined else ""
        if item.values.get("wharf"):
            bases = [f"wharf {good}"]
        elif item.values.get("capacity"):
            bases = [f"load {good} {item.values['capacity']}"]
        else:  # the line does not name the ship: the ships the rules allow, smallest first
            bases = [f"load {good} {c}" for c in SETUP[state.n].ship_capacities]
        return [b + suffix for b in bases] + ([b for b in bases] if suffix else [])

    def _need(self, value: Any, item: Item, what: str) -> Any:
        if value is None:
            raise LogMismatchError(f"the line does not say which {what}", move_id=item.note.move_id, line=item.note.text,
                                   rule="log reading", index=item.note.index, seq=len(self.builder.events) + 1)
        return value

    def _choose(self, candidates: list[str], note: LogNote, legal: set[Action]) -> Action:
        """The first candidate the rules allow now; else the first that parses (its check then says why not)."""
        parsed = [a for a in (_parsed(self.rules, c) for c in candidates) if a is not None]
        for action in parsed:
            if action in legal:
                return action
        if parsed:
            return parsed[0]
        raise LogMismatchError(f"no action of these rules matches {candidates[0]!r}", move_id=note.move_id, line=note.text,
                               rule="notation", index=note.index, seq=len(self.builder.events) + 1, action=candidates[0])

    def _check_result(self, item: Item) -> None:
        note = item.note
        outcome = self.rules.outcome(self.state)
        inner = note.args.get("args")
        table = inner.get("result") if isinstance(inner, Mapping) else None
        if outcome is None or not isinstance(table, list):
            self.builder.note_row(note, SKIPPED, "end of game" + ("" if outcome is not None else ": the rules say the game goes on"))
            return
        for entry in table:
            if not isinstance(entry, Mapping):
                continue
            pid, score = _int(entry.get("player", entry.get("id"))), _int(entry.get("score"))
            seat = self.seats.get(pid) if pid is not None else None
            if seat is None and isinstance(entry.get("name"), str) and entry["name"] in self.names:
                seat = self.names.index(entry["name"])
            if seat is not None and score is not None and score != outcome.scores[seat]:
                raise LogMismatchError(f"the log's final score of {self.names[seat]} is {score}, the rules score {outcome.scores[seat]}",
                                       move_id=note.move_id, line=note.text or "final result", rule="final scoring",
                                       index=note.index)
        self.builder.note_row(note, USED, "final result agrees with the rules' scoring")


def import_notes(rules: Rules, setup: Setup, notes: Sequence[LogNote], seats: Mapping[int, int],
                 progress: Progress | None = None, keep_every: int = 0) -> LogImport:
    """The Puerto Rico history the notes describe (see the module docstring)."""
    importer = _Importer(rules, setup, notes, seats, keep_every)
    return importer.run(progress)


# --- planning unstated draws -----------------------------------------------------------------------------


@dataclass
class _Phase:
    """A settler phase as the log tells it: plantations taken from the row; hacienda draws (kind or None)."""

    takes: Counter[int] = field(default_factory=Counter)
    hacienda: list[tuple[int, int | None]] = field(default_factory=list)  # (note index, kind)


@dataclass
class DrawPlan:
    """Unstated draws chosen ahead: the face-up row draws in order, and hacienda draws by note index."""

    row: list[int]
    hacienda: dict[int, int]


_PLAN_BUDGET = 2_000
_PLAN_BEAM = 8


def _multisets(total: int, limits: Sequence[int], prefix: tuple[int, ...] = ()) -> list[tuple[int, ...]]:
    """Every count vector over the remaining kinds summing to ``total`` within ``limits``."""
    if len(prefix) == len(limits) - 1:
        last = total
        return [prefix + (last,)] if last <= limits[-1] else []
    out = []
    for count in range(min(total, limits[len(prefix)]) + 1):
        out += _multisets(total - count, limits, prefix + (count,))
    return out


def plan_draws(n: int, start_stack: Sequence[int], phases: Sequence[_Phase]) -> DrawPlan | None:
    """Row draws (and unstated hacienda draws) under which every settler phase of the log is possible.

    The plantations form a small system of their own (stack, discards, the face-up row): a depth-first
    search over each refill's multiset finds draws consistent with everything later in the log, where
    choosing refill by refill can paint itself into a corner (the kind needed next is in the discards,
    and only emptying the stack earlier would have reshuffled it back). None when no plan is found
    within the search budget (the importer then chooses draw by draw).
    """
    budget = [_PLAN_BUDGET]
    later: list[Counter[int]] = [Counter() for _ in range(len(phases) + 1)]
    for i in range(len(phases) - 1, -1, -1):
        later[i] = later[i + 1] + phases[i].takes + Counter(g for _, g in phases[i].hacienda if g is not None)

    def refill(stack: list[int], discards: list[int], k: int) -> list[tuple[list[int], list[int], list[int], tuple[int, ...]]]:
        """(draw order, stack after, discards after, row) for every possible refill."""
        options = []
        if sum(stack) >= k:
            for row in _multisets(k, stack):
                order = [g for g in range(5) for _ in range(row[g])]
                options.append((order, [a - b for a, b in zip(stack, row, strict=True)], list(discards), row))
        else:
            rest = min(k - sum(stack), sum(discards))
            for extra in _multisets(rest, discards):
                order = [g for g in range(5) for _ in range(stack[g])] + [g for g in range(5) for _ in range(extra[g])]
                row = tuple(a + b for a, b in zip(stack, extra, strict=True))
                options.append((order, [a - b for a, b in zip(discards, extra, strict=True)], [0] * 5, row))
        return options

    def search(i: int, stack: list[int], discards: list[int]) -> DrawPlan | None:
        budget[0] -= 1
        if budget[0] < 0:
            return None
        need = phases[i].takes if i < len(phases) else Counter()
        future = later[i]
        candidates = [c for c in refill(stack, discards, n + 1) if all(c[3][g] >= need[g] for g in range(5))]
        # Until the next reshuffle every row comes from the stack as it is now: draw beyond this phase's
        # takes only from kinds the stack has to spare for the phases before that reshuffle.
        before = Counter[int]()
        for phase in phases[i: i + max(1, sum(stack) // (n + 1))]:
            before += phase.takes
        spare = [stack[g] - before[g] for g in range(5)]
        candidates.sort(key=lambda c: sum((c[3][g] - need[g]) * -spare[g] for g in range(5)))
        for order, stack_after, discards_after, row in candidates[:_PLAN_BEAM]:
            if i == len(phases):
                return DrawPlan(order, {})
            stack_now = list(stack_after)
            chosen: dict[int, int] = {}
            possible = True
            for index, good in phases[i].hacienda:
                pick = good if good is not None else max(range(5), key=lambda g: (stack_now[g] - future[g], -g))
                if stack_now[pick] <= 0:
                    possible = False
                    break
                stack_now[pick] -= 1
                if good is None:
                    chosen[index] = pick
            if not possible:
                continue
            left = [row[g] - need[g] for g in range(5)]
            rest = search(i + 1, stack_now, [d + x for d, x in zip(discards_after, left, strict=True)])
            if rest is not None:
                return DrawPlan(order + rest.row, {**chosen, **rest.hacienda})
            if budget[0] < 0:
                return None
        return None

    return search(0, list(start_stack), [0] * 5)


# --- export -------------------------------------------------------------------------------------------

#: Puerto Rico actions are tuples (see :mod:`engine.puerto_rico.notation`).
PRAction = tuple[Any, ...]

def _plural(count: int, word: str) -> str:
    return word if count == 1 else word + "s"


def notes_for(rules: Rules, state: State, event: Event, after: State, names: Sequence[str],
              ids: Sequence[int]) -> list[dict[str, Any]]:
    """The notifications that tell ``event`` (see the table in the module docstring)."""
    action = cast(PRAction, rules.parse_action(event.action or ""))
    op = action[0]
    if op == "draw":
        good = GOOD_NAMES[action[1]]
        if state.phase == HACIENDA_DRAW:
            seat = state.turn
            return [_note("haciendaPlantation", "${player_name} got a new plantation from the deck (${plantation_name})",
                          names, ids, seat, plantation_type=good, plantation_name=good)]
        return [{"type": "plantationTurnedUp", "log": "A ${plantation_name} plantation is turned face up",
                 "args": {"plantation_type": good, "plantation_name": good}}]
    if op == "reshuffle":
        return [{"type": "plantationsReshuffled", "log": "The discarded plantations are shuffled into a new stack", "args": {}}]
    seat = state.turn
    before, now = state.players[seat], after.players[seat]
    write = _WRITERS.get(op)
    return write(state, after, action, seat, before, now, names, ids) if write is not None else []


def _note(kind: str, log: str, names: Sequence[str], ids: Sequence[int], seat: int, **args: Any) -> dict[str, Any]:
    return {"type": kind, "log": log, "args": {"player_name": names[seat], "player_id": ids[seat], **args}}


def _role(state: State, after: State, action: PRAction, seat: int, before: Any, now: Any, names: Sequence[str],
          ids: Sequence[int]) -> list[dict[str, Any]]:
    card = action[1]
    word = ROLE_NAMES[card].rstrip("2")
    notes = [_note("roleSelected", "${player_name} selected the ${rol_type_tr}", names, ids, seat, i18n=["rol_type_tr"],
                   rol_id=card, rol_type=word, rol_type_tr=word.capitalize())]
    coins = state.role_coins[card]
    if coins:
        notes.append(_note("roleDoubloons", "${player_name} got ${nbr} " + _plural(coins, "doubloon") + " from the role card",
                           names, ids, seat, nbr=coins))
    if word == "prospector":
        notes.append(_note("privilegeDoubloon", "${player_name} got 1 doubloon as his privilege", names, ids, seat))
    if word == "mayor":
        if len(action) == 2 and state.colonist_supply > 0:
            notes.append(_note("privilegeColonist", "${player_name} got 1 colonist from the supply as his privilege", names, ids, seat))
        elif len(action) == 3:
            notes.append(_note("bonusDeclined", "${player_name} declined the colonist of his privilege", names, ids, seat))
        n, ship = state.n, state.colonist_ship
        for k in range(n):
            share = ship // n + (1 if k < ship % n else 0)
            if share:
                s = (seat + k) % n
                notes.append(_note("shipColonists", "${player_name} got ${nbr} " + _plural(share, "colonist") + " from the ship",
                                   names, ids, s, nbr=share))
    return notes


def _settle(state: State, after: State, action: PRAction, seat: int, before: Any, now: Any, names: Sequence[str],
            ids: Sequence[int]) -> list[dict[str, Any]]:
    if action[0] == "hacienda":
        return []  # the draw that follows says it ("got a new plantation from the deck")
    if action[0] == "quarry":
        tile = 5
        notes = [_note("quarryTaken", "${player_name} got a new quarry", names, ids, seat)]
    else:
        tile = action[1]
        good = GOOD_NAMES[tile]
        notes = [_note("plantationTaken", "${player_name} got a new plantation (${plantation_name})", names, ids, seat,
                       plantation_type=good, plantation_name=good)]
    if now.island_workers[tile] > before.island_workers[tile]:
        notes.append(_note("hospiceColonist", "${player_name} got 1 colonist on it from his hospice", names, ids, seat))
    elif len(action) == (2 if action[0] == "quarry" else 3):
        notes.append(_note("bonusDeclined", "${player_name} declined the colonist of his hospice", names, ids, seat))
    return notes


def _place(state: State, after: State, action: PRAction, seat: int, before: Any, now: Any, names: Sequence[str],
           ids: Sequence[int]) -> list[dict[str, Any]]:
    slot = (TILE_NAMES + BUILDING_NAMES)[action[1]]
    shown = f"{slot} plantation" if slot in GOOD_NAMES else slot
    return [_note("colonistPlaced", "${player_name} placed a colonist on his ${slot_name}", names, ids, seat,
                  slot_type=slot, slot_name=shown)]


def _build(state: State, after: State, action: PRAction, seat: int, before: Any, now: Any, names: Sequence[str],
           ids: Sequence[int]) -> list[dict[str, Any]]:
    building = action[1]
    price = before.doubloons - now.doubloons
    name = BUILDING_NAMES[building]
    log = "${player_name} bought a new building for ${price} " + _plural(price, "doubloon") + ": ${building_name}"
    notes = [_note("buildingBought", log,
                   names, ids, seat, price=price, building_type=name, building_name=name)]
    if now.city[building] > 0:
        notes.append(_note("universityColonist", "${player_name} got 1 colonist on it from his university", names, ids, seat))
    elif len(action) == 3:
        notes.append(_note("bonusDeclined", "${player_name} declined the colonist of his university", names, ids, seat))
    return notes


def _craft(state: State, after: State, action: PRAction, seat: int, before: Any, now: Any, names: Sequence[str],
           ids: Sequence[int]) -> list[dict[str, Any]]:
    seat = state.chooser
    good = GOOD_NAMES[action[1]]
    return [_note("extraBarrel", "${player_name} got an extra ${good_name} barrel as his privilege", names, ids, seat,
                  good_type=good, good_name=good)]


def _sell(state: State, after: State, action: PRAction, seat: int, before: Any, now: Any, names: Sequence[str],
          ids: Sequence[int]) -> list[dict[str, Any]]:
    good = GOOD_NAMES[action[1]]
    price = now.doubloons - before.doubloons
    log = "${player_name} sold a ${good_name} barrel and got ${price} " + _plural(price, "doubloon") + " from the sale"
    return [_note("barrelSold", log,
                  names, ids, seat, good_type=good, good_name=good, price=price)]


def _ship(state: State, after: State, action: PRAction, seat: int, before: Any, now: Any, names: Sequence[str],
          ids: Sequence[int]) -> list[dict[str, Any]]:
    good_index = action[1]
    good = GOOD_NAMES[good_index]
    # Counted on the state before: storage may follow at once and return barrels to the supply.
    if action[0] == "load":
        barrels = min(before.goods[good_index], action[2] - state.ship_loads[SETUP[state.n].ship_capacities.index(action[2])])
    else:
        barrels = before.goods[good_index]
    harbor = before.city[HARBOR] > 0
    privilege = seat == state.chooser and not state.captain_bonus_used
    declined = action[-1] if len(action) == (4 if action[0] == "load" else 3) else 0
    bonus = int(harbor) + int(privilege) - declined
    if action[0] == "wharf":
        log = ("${player_name} shipped ${nbr} ${good_name} with his wharf and got ${nbr} "
               + _plural(barrels, "victory point") + " for shipping")
        notes = [_note("goodsShipped", log, names, ids, seat, nbr=barrels, good_type=good, good_name=good, wharf=True)]
    else:
        log = ("${player_name} shipped ${nbr} ${good_name} on the ${capacity}-barrel ship and got ${nbr} "
               + _plural(barrels, "victory point") + " for shipping")
        notes = [_note("goodsShipped", log, names, ids, seat, nbr=barrels, good_type=good, good_name=good, capacity=action[2])]
    if harbor and bonus > 0:
        notes.append(_note("harborVictoryPoint", "${player_name} got 1 victory point from his harbor", names, ids, seat))
        bonus -= 1
    if privilege and bonus > 0:
        notes.append(_note("privilegeVictoryPoint", "${player_name} got 1 victory point as his privilege", names, ids, seat))
    if declined:
        notes.append(_note("bonusDeclined", "${player_name} declined ${nbr} bonus " + _plural(declined, "victory point"),
                           names, ids, seat, nbr=declined))
    return notes


def _keep(state: State, after: State, action: PRAction, seat: int, before: Any, now: Any, names: Sequence[str],
          ids: Sequence[int]) -> list[dict[str, Any]]:
    kept = action[1]
    text = ", ".join(f"{c} {GOOD_NAMES[g]}" for g, c in enumerate(kept) if c) or "nothing"
    return [_note("goodsKept", "${player_name} keeps ${kept_text}; the other barrels go back to the supply", names, ids, seat,
                  kept_text=text, kept={GOOD_NAMES[g]: c for g, c in enumerate(kept) if c})]


def _pass(state: State, after: State, action: PRAction, seat: int, before: Any, now: Any, names: Sequence[str],
          ids: Sequence[int]) -> list[dict[str, Any]]:
    return [_note("playerPassed", "${player_name} passes", names, ids, seat)]


_WRITERS: dict[str, Any] = {
    "role": _role, "plant": _settle, "quarry": _settle, "hacienda": _settle, "place": _place, "build": _build,
    "extra": _craft, "sell": _sell, "load": _ship, "wharf": _ship, "keep": _keep, "pass": _pass,
}
