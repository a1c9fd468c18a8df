"""``python -m bench``: run every ``bench/*_bench.py`` module's ``main()`` in name order."""

from __future__ import annotations

import importlib
import pkgutil

import bench


def main() -> None:
    names = sorted(
        m.name for m in pkgutil.iter_modules(bench.__path__) if m.name.endswith("_bench")
    )
    for name in names:
        print(f"== bench.{name}")
        importlib.import_module(f"bench.{name}").main()


if __name__ == "__main__":
    main()
