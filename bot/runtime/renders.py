"""What a table's messages show, rendered once per change and shared (issue 15 item 4).

Every change of what a table's board or hands show gives the table a new *version*
(:meth:`Renders.changed`): a change under the table's lock (a click, a timeout, an AI move,
a lobby step: :meth:`bot.runtime.registry.TableRegistry._changing` counts one when it begins
and one when its commit succeeded), the ratings read after the last commit, each note of
the board's runtime log (:meth:`bot.runtime.table.Table.note`). A change that is undone
puts the version back to the one it began at (the table is as it was then). Versions are
never used twice.

:class:`Renders` keeps the renders of the table's current version, keyed by what was
rendered (the board, a seat's hand) and the language it was rendered in: the answer to a
click, the board edit that follows it and the hand messages kept current share one render,
and the fingerprint of each (:func:`fingerprint`, which decides whether an edit would
change anything) is computed once, and kept as a hash. The renders of an older version are
dropped when the first render of a newer one is asked for, and all of them once the
table's board edit and hand messages are published or an interaction with it is answered
(:meth:`Renders.drop`: a render holds kilobytes, and a quiet table then holds none); what a
message shows is then compared by where it was rendered (:meth:`Renders.at`), which needs
no render.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field

from bot.i18n import Language
from bot.runtime.spec import Rendered

_ENCODER = json.JSONEncoder(sort_keys=True, default=str, check_circular=False)
""":func:`fingerprint`'s JSON, made once (``json.dumps`` with options builds an encoder per
call); an embed's and a view's dicts hold no cycle."""


def fingerprint(rendered: Rendered, content: str | None = None) -> str:
    """What a message shows (text, embed and components) as one comparable string."""
    view = rendered.view.to_components() if rendered.view is not None else []
    return _ENCODER.encode([content, rendered.embed.to_dict(), view])


def language_key(lang: Language) -> Hashable:
    """What a render depends on of its language: the catalog's code and the client whose
    command names it writes (:meth:`bot.i18n.Language.for_client`)."""
    return lang.code, lang.client


@dataclass(eq=False)
class Shown:
    """One render of a table at one version.

    Attributes
    ----------
    rendered
        The message's content (shared: nobody changes it once rendered).
    at
        The version and key it was rendered at (:meth:`Renders.at`).
    """

    rendered: Rendered
    at: Hashable = None
    _digest: int | None = field(default=None, repr=False)

    def digest(self, content: str | None = None) -> int:
        """A hash of the :func:`fingerprint` of :attr:`rendered` with ``content`` above it
        (computed once for no content; a hash, not the text, is kept)."""
        if content is not None:
            return hash(fingerprint(self.rendered, content))
        if self._digest is None:
            self._digest = hash(fingerprint(self.rendered))
        return self._digest


class Renders:
    """A table's version and the renders of it (module docstring).

    Attributes
    ----------
    version
        The current version (1 for a table just opened or restored).
    """

    def __init__(self) -> None:
        self.version = 1
        self._last = 1
        self._of = 1
        self._shown: dict[tuple[str, int | None, Hashable], Shown] = {}

    def changed(self) -> int:
        """Note that what the table shows may have changed: a new version, returned."""
        self._last += 1
        self.version = self._last
        return self.version

    def undone(self, begun: int, made: int) -> None:
        """The change that began at version ``begun`` and made version ``made`` was undone:
        the table is as it was at ``begun`` again, unless something else changed since
        (then a new version)."""
        if self.version == made:
            self.version = begun
        else:
            self.changed()

    def drop(self) -> None:
        """Forget the renders kept (the version stays): once the table's messages are
        published they are not needed again before its next change, and a table holds
        none while nothing happens at it."""
        self._shown.clear()

    def get(self, what: str, seat: int | None, lang: Language,
            render: Callable[[], Rendered]) -> Shown:
        """The render of ``what`` (``"board"``, ``"hand"``) for ``seat`` in ``lang`` at the
        current version: ``render()`` the first time it is asked for."""
        if self._of != self.version:
            self._shown.clear()
            self._of = self.version
        key = (what, seat, language_key(lang))
        shown = self._shown.get(key)
        if shown is None:
            shown = self._shown[key] = Shown(render(), (self.version, key))
        return shown

    def at(self, what: str, seat: int | None, lang: Language) -> Hashable:
        """Where a render of ``what`` for ``seat`` in ``lang`` would be now (the current
        version and the key): equal to a :attr:`Shown.at` when that render is still what
        the table shows, without rendering anything."""
        return self.version, (what, seat, language_key(lang))
