"""What one catalog text costs: microseconds per :meth:`bot.i18n.Language.t` call.

``python -m bench.i18n_bench [calls]`` times, in English and in Persian (right to left: every
value an isolate, every line a right-to-left one), ``t`` of a message without placeholders,
with one int (grouped digits), with one str (an isolate in Persian), with a nested
:class:`bot.i18n.Msg` and two values, and a plural message; then ``directed`` of a
ten-line board text (names, amounts, a quote, a list, a code span). Each figure is the best
of five runs of ``calls`` calls (default 20,000), in microseconds per call.
"""

from __future__ import annotations

import sys
import timeit
from collections.abc import Callable

from bot.i18n import LANGUAGES, Language, Msg

CASES: dict[str, Callable[[Language], Callable[[], str]]] = {
    "no placeholder": lambda lang: lambda: lang.t("button.hand"),
    "one int": lambda lang: lambda: lang.t("seat.ai", number=3),
    "one str": lambda lang: lambda: lang.t("board.time_left", when="<t:1800000000:R>"),
    "nested Msg": lambda lang: lambda: lang.t("table.title", game=Msg("game.tripoli"),
                                             table="4k2x9a"),
    "plural": lambda lang: lambda: lang.t("lobby.ranked_buy_in", count=1500),
}


def board_text(lang: Language) -> str:
    """Ten lines as a board's description puts them together from catalog texts."""
    lines = [lang.t("table.title", game=Msg("game.tripoli"), table="4k2x9a"),
             "> " + lang.t("board.time_left", when="<t:1800000000:R>"),
             "- " + lang.join(["Alice", "Bob", "علی"]),
             lang.t("seat.ai", number=2) + " · " + lang.grouped(12_500),
             lang.t("button.hand"),
             "`/tripoli rules`",
             lang.t("lobby.ranked_buy_in", count=100),
             "1. " + lang.t("seat.ai", number=1),
             "",
             lang.join(["A♥ 10", "K♥ 5"], " · ")]
    return "\n".join(lines)


def per_call(call: Callable[[], str], calls: int) -> float:
    """Best of five runs of ``calls`` calls, in microseconds per call."""
    return min(timeit.repeat(call, number=calls, repeat=5)) / calls * 1e6


def main(calls: int = 20_000) -> None:
    codes = ("en", "fa")
    print(f"{'µs per call':<22}" + "".join(f"{code:>8}" for code in codes))
    for name, case in CASES.items():
        print(f"{'t, ' + name:<22}" + "".join(
            f"{per_call(case(LANGUAGES[code]), calls):8.2f}" for code in codes))
    texts = {code: board_text(LANGUAGES[code]) for code in codes}
    print(f"{'directed, 10 lines':<22}" + "".join(
        f"{per_call(lambda c=code: LANGUAGES[c].directed(texts[c]), calls):8.2f}"
        for code in codes))


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20_000)
