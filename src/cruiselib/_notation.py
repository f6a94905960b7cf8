"""Move texts: how typed text names a move (``parse_move``).

:func:`normalize_move_text` puts a text in the form texts are compared in; a game lists
the texts naming each move as templates (:data:`NotationTemplate`); :class:`MoveNotation`,
a base of :class:`cruiselib.Game`, finds the move a text names, in a position or in the
plain move table, and words the errors: close matches, ambiguity, moves not legal now.
"""

from __future__ import annotations

import itertools
import re
import types
import unicodedata
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Generic

import msgspec

from cruiselib._state import MoveT
from cruiselib.errors import IllegalMoveError

if TYPE_CHECKING:
    from cruiselib._state import State

__all__ = ["MAX_MOVE_TEXT", "MoveNotation", "NotationTemplate", "normalize_move_text"]

MAX_MOVE_TEXT = 1000
"""The longest text ``parse_move`` reads (longer ones raise IllegalMoveError at once)."""

NotationTemplate = Sequence[str | tuple[str, ...]]
"""A move's text as pieces: a str, or a tuple of alternatives (the first one the full text's)."""

# (substrings that call for the rule, pattern, replacement), in order; a rule whose
# substrings are all absent is skipped (most move texts are plain ascii).
_REPLACEMENTS: tuple[tuple[tuple[str, ...], re.Pattern[str], str], ...] = tuple(
    (triggers, re.compile(pattern), repl)
    for triggers, pattern, repl in (
        (("\u2010", "\u2011", "\u2012", "\u2013", "\u2014", "\u2015", "\u2212"), r"[\u2010-\u2015\u2212]", "-"),
        (("'", "\u2018", "\u2019", "`"), r"['\u2018\u2019`]s\b", ""),  # possessives: "seat 0's side"
        (
            ("\u2192", "\u27f6", "\u2794", "\u279c", "\u21d2", "->", "=>"),
            r"\s*(?:[\u2192\u27f6\u2794\u279c\u21d2]|-+>|=+>)\s*",
            " to ",
        ),  # arrows read "to"
        (("\u2693", "anchor"), r"(\d)\s*(?:\u2693|anchor\b)", r"\1a"),  # the move-crew icon: -2⚓, -2a
        (("\u2605", "\u2606", "*", "star"), r"(\d)\s*(?:[\u2605\u2606*]|stars?\b)", r"\1*"),  # 3★, 3*, 3 stars
        ((",", ".", "'", "_", "\u2019"), r"(?<=\d)[,.'_\u2019](?=\d{3}(?!\d))", ""),  # thousands: 1,000
        (("k",), r"\b(\d+)k\b", r"\g<1>000"),  # 2k
        (("-",), r"(?<=[^\W\d_])-(?=[^\W\d_])", " "),  # face-down reads face down
        (("-", "*"), r"-(?!\d)|(?<!\d)\*", " "),  # a dash or star but in -2 or 3*
    )
)
_PUNCTUATION = re.compile(r"[^\w*-]|_")
_ASCII_PUNCTUATION = str.maketrans(
    dict.fromkeys([*"!\"#$%&'()+,./:;<=>?@[\\]^_`{|}~", *map(chr, range(32)), "\x7f"], " ")
)
_NOISE_WORDS = frozenset({"a", "an", "the", "and"})
# Letters that are no accented letter to Unicode (NFKD leaves them whole), as a keyboard
# without them writes them: "Tromso" reads "Tromsø" as "Reykjavik" reads "Reykjavík".
_LETTERS = str.maketrans({"ø": "o", "æ": "ae", "œ": "oe", "đ": "d", "ð": "d", "ł": "l", "þ": "th", "ı": "i"})


def normalize_move_text(text: str) -> str:
    """The form in which move texts are compared: case-folded, accents dropped (and ø, æ,
    œ, đ, ð, ł, þ, ı spelled o, ae, oe, d, d, l, th, i), symbols as ascii (``★`` as
    ``*``, arrows as ``to``, ``⚓`` as ``a`` after the value), no thousands separators or
    punctuation, without the words a, an, the and and, single spaces. Applied alike to a
    typed text and to every move's texts."""
    plain = text.isascii()
    text = text.lower() if plain else unicodedata.normalize("NFKC", text).casefold()
    for triggers, pattern, repl in _REPLACEMENTS:
        if any(t in text for t in triggers):
            text = pattern.sub(repl, text)
    if plain:
        text = text.translate(_ASCII_PUNCTUATION)
    else:
        text = _PUNCTUATION.sub(" ", text)
        text = unicodedata.normalize("NFKD", text).translate(_LETTERS)
        text = "".join(c for c in text if not unicodedata.combining(c))
    return " ".join(w for w in text.split() if w not in _NOISE_WORDS)


def _expand_template(template: NotationTemplate) -> list[tuple[int, str]]:
    """Every text of a template with its cost (the alternatives other than the first)."""
    choices = [((piece,) if isinstance(piece, str) else piece) for piece in template]
    return [
        (sum(1 for i, _ in combo if i), "".join(part for _, part in combo))
        for combo in itertools.product(*(tuple(enumerate(c)) for c in choices))
    ]


def _quoted(texts: Any, last: str = "and") -> str:
    items = [repr(t) for t in dict.fromkeys(texts)]
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {last} {items[-1]}"


def _by_normalized(texts: Any) -> dict[str, str]:
    by_norm: dict[str, str] = {}
    for t in texts:
        by_norm.setdefault(normalize_move_text(t), t)
    return by_norm


_HINT_POOL = 120
"""How many texts difflib compares for a hint: of a longer table (Dream Cruise has 15,975
moves), those that share the most words and word pairs with the text typed."""


def _tokens(norm: str) -> set[str | tuple[str, str]]:
    words = norm.split()
    return {*words, *itertools.pairwise(words)}


def _hint(norm: str, by_norm: dict[str, str]) -> str:
    """The hint "; did you mean …?" with up to three texts close to the normalized ``norm``
    (``by_norm``: texts by their normalized form): difflib's closest, then those that
    begin with it."""
    import difflib
    import heapq

    pool: Any = by_norm
    if len(by_norm) > _HINT_POOL:
        tokens, size = _tokens(norm), len(norm)
        pool = heapq.nlargest(
            _HINT_POOL, by_norm, key=lambda k: (len(tokens.intersection(_tokens(k))), -abs(len(k) - size))
        )
    close = difflib.get_close_matches(norm, pool, n=3, cutoff=0.6)
    if len(close) < 3:
        close += [k for k in by_norm if k.startswith(norm + " ") and k not in close][: 3 - len(close)]
    if not close:
        return ""
    return f"; did you mean {_quoted((by_norm[k] for k in close), 'or')}?"


def _ambiguous(text: str, candidates: list[str], what: str) -> str:
    shown = _quoted(candidates[:6], "or")
    more = f" (and {len(candidates) - 6} more)" if len(candidates) > 6 else ""
    return f"{text!r} is ambiguous: it reads as {len(candidates)} {what}, {shown}{more}; write more of the one you mean"


_NOTATION_TABLES: dict[tuple[type, int, str], tuple[tuple[Any, ...], Any]] = {}


class MoveNotation(Generic[MoveT]):
    """The move-text machinery of :class:`cruiselib.Game`; per game, the three hooks
    ``_notation_state_kinds``, ``_notation_templates`` and ``_notation_key``."""

    title: ClassVar[str]
    _all_moves: tuple[MoveT, ...]

    # --- per game: the three hooks ------------------------------------------------

    _notation_state_kinds: ClassVar[Mapping[str, str]] = types.MappingProxyType({})
    """Move kinds (the first word of their text) whose legal-move texts name what the
    position shows, with what they name: ``parse_move`` without a state says so."""

    def _notation_templates(self, move: MoveT) -> Sequence[NotationTemplate]:
        """The texts that name ``move``, as templates: a piece is a str or a tuple of
        alternatives, the first the one ``str(move)`` uses; each other alternative (an
        abbreviation, a part left out) costs 1, and template i costs i more. Where texts
        of several moves match, the cheapest wins (a tie is ambiguous). ``str(move)``
        itself always names it at cost 0."""
        return ((str(move),),)

    def _notation_key(self, key: str) -> str:
        """A normalized text in its comparison form, for parts whose order or split does
        not matter (applied alike to what is typed and to every move's texts)."""
        return key

    # --- shared: reading a text ----------------------------------------------------

    def _move_forms(self, move: MoveT) -> dict[str, int]:
        """The comparison keys of every text naming ``move``, each with its cost (cached)."""
        cache: dict[tuple[Any, ...], dict[str, int]] = self.__dict__.setdefault("_notation_forms", {})
        ident = (type(move), msgspec.structs.astuple(move))  # type: ignore[arg-type]  # a move Struct
        forms = cache.get(ident)
        if forms is None:
            if len(cache) >= 100_000:
                cache.clear()
            forms = cache[ident] = self._compute_forms(move)
        return forms

    def _compute_forms(self, move: MoveT) -> dict[str, int]:
        full = str(move)
        keys = {full: self._notation_key(normalize_move_text(full))}
        forms = {keys[full]: 0}
        for base, template in enumerate(self._notation_templates(move)):
            for cost, text in _expand_template(template):
                key = keys.get(text)
                if key is None:
                    key = keys[text] = self._notation_key(normalize_move_text(text))
                if key and forms.get(key, cost + base + 1) > cost + base:
                    forms[key] = cost + base
        return forms

    def _plain_index(self) -> dict[str, tuple[int, tuple[int, ...]]]:
        """Per comparison key of a plain text (``action_to_move``), its cost and the
        actions it names at that cost (built once per move table)."""
        index: dict[str, tuple[int, tuple[int, ...]]] = self._notation_table("index", self._build_plain_index)
        return index

    def _build_plain_index(self) -> dict[str, tuple[int, tuple[int, ...]]]:
        index: dict[str, tuple[int, tuple[int, ...]]] = {}
        for a, move in enumerate(self._all_moves):
            for key, cost in self._compute_forms(move).items():
                old = index.get(key)
                if old is None or cost < old[0]:
                    index[key] = (cost, (a,))
                elif cost == old[0]:
                    index[key] = (cost, (*old[1], a))
        return index

    def _plain_texts(self) -> dict[str, str]:
        """The plain texts of every action by their normalized form (for close matches)."""
        texts: dict[str, str] = self._notation_table("texts", lambda: _by_normalized(str(m) for m in self._all_moves))
        return texts

    def _notation_table(self, name: str, build: Any) -> Any:
        """A table of the plain moves, built once: games of one class with one move table
        (Dream Islands and Dream Cruise cache theirs per card set) share it."""
        table = self.__dict__.get(f"_notation_{name}")
        if table is None:
            key = (type(self), id(self._all_moves), name)
            shared = _NOTATION_TABLES.get(key)
            if shared is not None and shared[0] is self._all_moves:
                table = shared[1]
            else:
                table = build()
                if len(_NOTATION_TABLES) >= 32:
                    _NOTATION_TABLES.clear()
                _NOTATION_TABLES[key] = (self._all_moves, table)
            self.__dict__[f"_notation_{name}"] = table
        return table

    def _read_text(self, text: object) -> tuple[str, str]:
        """``text`` normalized and as its comparison key (IllegalMoveError if no text)."""
        if not isinstance(text, str):
            raise IllegalMoveError(f"a {self.title} move's text is a str, not {type(text).__name__}")
        if len(text) > MAX_MOVE_TEXT:
            raise IllegalMoveError(
                f"no {self.title} move reads a text of {len(text):,} characters (at most {MAX_MOVE_TEXT:,})"
            )
        norm = normalize_move_text(text)
        if not norm:
            raise IllegalMoveError(f"no {self.title} move reads {text!r}: the text has no words")
        return norm, self._notation_key(norm)

    def _parse_plain(self, text: str) -> MoveT:
        norm, key = self._read_text(text)
        hit = self._plain_index().get(key)
        if hit is not None:
            if len(hit[1]) == 1:
                return self._all_moves[hit[1][0]]
            raise IllegalMoveError(_ambiguous(text, [str(self._all_moves[a]) for a in hit[1]], "moves"))
        hint = _hint(norm, self._plain_texts())
        kind = norm.split(" ", 1)[0]
        needs = self._notation_state_kinds.get(kind)
        if needs is not None:
            raise IllegalMoveError(
                f"no {self.title} move reads {text!r} without a position: {kind} texts naming {needs} need the "
                f"state (state.parse_move(text) or game.parse_move(text, state)){hint}"
            )
        raise IllegalMoveError(f"no {self.title} move reads {text!r}{hint}")

    def _parse_in(self, text: str, state: State[MoveT, Any, Any]) -> MoveT:
        actions = state.legal_actions()
        moves: list[MoveT] = state.legal_moves()
        if isinstance(text, str):
            exact = text.strip()
            for move in moves:
                if str(move) == exact:
                    return move
        norm, key = self._read_text(text)
        found: dict[int, list[int]] = {}  # cost -> indices into moves
        for i, (a, move) in enumerate(zip(actions, moves, strict=True)):
            cost = self._move_forms(move).get(key)
            plain = self._all_moves[a]
            if plain is not move and str(plain) != str(move):
                other = self._move_forms(plain).get(key)
                if other is not None and (cost is None or other + 1 < cost):
                    cost = other + 1
            if cost is not None:
                found.setdefault(cost, []).append(i)
        if found:
            best = found[min(found)]
            if len(best) == 1:
                return moves[best[0]]
            raise IllegalMoveError(_ambiguous(text, [str(moves[i]) for i in best], "legal moves"))
        hint = _hint(norm, _by_normalized(str(m) for m in moves))
        if not moves:
            hint = "; the game is over"
        elif not hint and len(moves) <= 8:
            hint = f"; the legal moves are {_quoted(str(m) for m in moves)}"
        hit = self._plain_index().get(key)
        if hit is not None:
            named = _quoted((str(self._all_moves[a]) for a in hit[1]), "or")
            moves_word = "move" if len(hit[1]) == 1 else "moves"
            raise IllegalMoveError(f"{text!r} names the {self.title} {moves_word} {named}, not legal now{hint}")
        raise IllegalMoveError(f"no legal {self.title} move reads {text!r}{hint}")
