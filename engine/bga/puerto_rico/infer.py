"""Puerto Rico on Board Game Arena, import: log notifications to checked actions.

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
  (:func:`engine.bga.puerto_rico.draws.plan_draws`: a search over the plantations' own small system of stack, discards
  and face-up row) so that each settler phase finds what the log says it took; a hacienda
  draw whose kind is unsaid is the kind the player later places more colonists on than the
  log gave them. Without a plan, draws are chosen one by one (what the next settler phase
  takes, then what the rest of the log needs least). A reshuffle is forced when the stack
  is empty. Inferred events carry ``meta.inferred`` saying why.
* A player who has a decision but is not in the log before another player's line passed
  (inferred, when the rules offer a pass).
* The end-of-game result (``gameStateChange`` 99) is compared with our final scoring.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from engine.bga.history import REFUSED, SKIPPED, USED, HistoryBuilder, LogImport, LogNote, Progress, ReportRow
from engine.bga.puerto_rico.draws import DrawPlan, Phase, plan_draws
from engine.bga.puerto_rico.lines import (
    BONUS_KINDS,
    DECISIONS,
    DECLINED,
    HARBOR_VP,
    HOSPICE,
    PHASES_OF,
    PRIVILEGE_COLONIST,
    PRIVILEGE_VP,
    UNIVERSITY,
    Item,
    as_int,
    classify,
)
from engine.core.errors import LogMismatchError, NotationError
from engine.core.protocol import CHANCE, Action, Rules, Setup
from engine.puerto_rico.components import BUILDING_NAMES, GOOD_NAMES, HARBOR, SETUP
from engine.puerto_rico.state import DRAW, HACIENDA_DRAW, State


def _seat_of(note: LogNote, seats: Mapping[int, int], names: Sequence[str]) -> int | None:
    pid = as_int(note.args.get("player_id"))
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
        self.note_count = len(notes)
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
            if item.kind in BONUS_KINDS:
                self.bonus_kinds_seen.add(item.kind)
                if last is not None and last.note.move_id == note.move_id:
                    last.bonuses.append(item)
                else:
                    self.others.append(Item(note, "stray bonus"))
                continue
            if item.kind in DECISIONS or item.kind in ("draw", "reshuffle"):
                self.decisions.append(item)
                last = item if item.kind in DECISIONS else last
            elif item.kind == "unknown" and note.type == "gameStateChange" and as_int(note.args.get("id")) == 99:
                self.decisions.append(Item(note, "result"))
            else:
                self.others.append(item)

    def _plan(self) -> DrawPlan | None:
        """Plan every draw ahead when the log states none (see :func:`plan_draws`)."""
        if any(item.kind == "draw" for item in self.decisions):
            return None
        phases: list[Phase] = []
        current: Phase | None = None
        for item in self.decisions:
            if item.kind == "role":
                current = None
                if item.values["role"] == "settler":
                    current = Phase()
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
                    _hint_from_mayor(placed, islands, pending, hints)
                    placed = [Counter() for _ in islands]
                in_mayor = item.values["role"] == "mayor"
                continue
            seat = _seat_of(item.note, self.seats, self.names)
            if seat is not None and seat < len(islands):
                _count_plantation(item, seat, islands, pending, placed[seat] if in_mayor else None)
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
        # Progress in log entries (every notification, as the other importers count), not in decisions: the upload
        # says "N of M log entries read", and the report's entries add up to the same M.
        total = self.note_count
        self.position = 0
        try:
            for position, item in enumerate(self.decisions):
                self.position = position
                self._handle(position, item)
                if progress is not None and (position + 1) % 100 == 0:
                    progress(item.note.index + 1, total)
            self._settle_chance(len(self.decisions), None)
            if progress is not None:
                progress(total, total)
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
        phases = PHASES_OF.get(item.kind)
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
            pid, score = as_int(entry.get("player", entry.get("id"))), as_int(entry.get("score"))
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


def _hint_from_mayor(placed: list[Counter[int]], islands: list[list[int]], pending: list[list[int]],
                     hints: dict[int, int]) -> None:
    """At the end of a mayor phase: colonists placed beyond a player's known plantations of a kind
    name the kind of that player's oldest unsaid hacienda draws."""
    for owner, counts in enumerate(placed):
        for kind, count in counts.items():
            while count > islands[owner][kind] and pending[owner]:
                hints[pending[owner].pop(0)] = kind
                islands[owner][kind] += 1


def _count_plantation(item: Item, seat: int, islands: list[list[int]], pending: list[list[int]],
                      placed: Counter[int] | None) -> None:
    """Count one decision of ``seat``: a plantation taken (an unsaid hacienda draw waits for its kind),
    or, in a mayor phase (``placed`` given), a colonist placed on a plantation."""
    good = item.values.get("good")
    if item.kind == "plant" and good is not None:
        islands[seat][good] += 1
    elif item.kind == "hacienda":
        if good is None:
            pending[seat].append(item.note.index)
        else:
            islands[seat][good] += 1
    elif item.kind == "place" and placed is not None and item.values.get("slot") in GOOD_NAMES:
        placed[GOOD_NAMES.index(item.values["slot"])] += 1
