"""The operator-wide policies of the server's configuration file, beside its [[operators]]:
jackpot pools' ceilings (standards.md G2) and the retention of transaction ids per
jurisdiction (J9).

    [[jackpots]]
    pool = "Cluedo MegaJackpots/EUR"   # "<game name>/<currency>": the pool every variant shares
    ceiling_minor = 150000000          # the meter stops here; the rest goes to the overflow

    [retention]                        # days each jurisdiction's records are kept, at least
    default = 400                      # REQUIRED_DAYS is the floor: less is refused
    GB = 2000

A jurisdiction the file leaves out keeps its REQUIRED_DAYS.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from reelforge.errors import InvalidArgument

# J9: transaction ids are kept at least 4 months (Hub88's TransferWallet, on both sides); 123
# days is the longest 4 calendar months (July to October). No profile here asks for less; a
# licence that asks for more says so in the file's [retention].
# settings.py checks that every jurisdiction profile is here.
REQUIRED_DAYS: dict[str, int] = {"default": 123, "GB": 123, "DE": 123, "MT": 123}
MAX_DAYS = 100 * 366


@dataclass(frozen=True)
class Policies:
    jackpot_ceilings: dict[str, int] = field(default_factory=dict)  # pool key -> minor units
    retention_days: dict[str, int] = field(default_factory=lambda: dict(REQUIRED_DAYS))

    def days(self, jurisdiction: str) -> int:
        """Days a jurisdiction's transaction ids are kept (an unknown one: the longest)."""
        return self.retention_days.get(jurisdiction, max(self.retention_days.values()))


def parse_policies(path: Path | str, data: dict[str, Any]) -> Policies:
    """The policies of a loaded configuration file; an error names the key and value."""
    return Policies(_ceilings(path, data.get("jackpots", [])),
                    _retention(path, data.get("retention", {})))


def _ceilings(path: Path | str, raw: Any) -> dict[str, int]:
    if not isinstance(raw, list):
        raise InvalidArgument(f"{path}: jackpots = {raw!r}: expected a list of [[jackpots]]")
    found: dict[str, int] = {}
    for i, entry in enumerate(raw):
        where = f"{path}: jackpots[{i}]"
        if not isinstance(entry, dict) or set(entry) != {"pool", "ceiling_minor"}:
            raise InvalidArgument(f"{where} = {entry!r}: expected pool and ceiling_minor")
        pool, ceiling = entry["pool"], entry["ceiling_minor"]
        if not isinstance(pool, str) or not 0 < len(pool) <= 96:
            raise InvalidArgument(f"{where}.pool = {pool!r}: expected a pool key, "
                                  "'<game name>/<currency>'")
        if type(ceiling) is not int or not 0 < ceiling < 2**53:
            raise InvalidArgument(f"{where}.ceiling_minor = {ceiling!r}: expected a positive "
                                  "integer, in minor units")
        if pool in found:
            raise InvalidArgument(f"{where}.pool = {pool!r}: given twice")
        found[pool] = ceiling
    return found


def _retention(path: Path | str, raw: Any) -> dict[str, int]:
    if not isinstance(raw, dict):
        raise InvalidArgument(f"{path}: retention = {raw!r}: expected a table of days per "
                              f"jurisdiction ({', '.join(REQUIRED_DAYS)})")
    days = dict(REQUIRED_DAYS)
    for name, value in raw.items():
        where = f"{path}: retention.{name}"
        if name not in REQUIRED_DAYS:
            raise InvalidArgument(f"{where}: not a jurisdiction ({', '.join(REQUIRED_DAYS)})")
        floor = REQUIRED_DAYS[name]
        if type(value) is not int or not floor <= value <= MAX_DAYS:
            raise InvalidArgument(f"{where} = {value!r}: expected whole days from {floor} (what "
                                  f"{name} requires: standards.md J9) to {MAX_DAYS}")
        days[name] = value
    return days
