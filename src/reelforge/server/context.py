"""What every request handler holds: the database engine, the settings and the wallet clients."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Engine

from reelforge.server.errors import ApiError
from reelforge.server.settings import OperatorSettings, Settings


@dataclass
class Context:
    engine: Engine
    settings: Settings
    wallets: dict[str, Any] = field(default_factory=dict)  # operator id -> seamless client

    def begin(self):
        return self.engine.begin()

    def operator(self, operator_id: str) -> OperatorSettings:
        found = self.settings.operator(operator_id)
        if found is None:
            raise ApiError("UNKNOWN_OPERATOR", f"operator {operator_id!r}: not configured here")
        return found
