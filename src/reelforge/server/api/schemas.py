"""Request bodies, checked by pydantic before any handler runs: strict types, no extra keys,
bounded sizes (a hostile body is refused in one sentence, before the database is touched)."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

RequestId = Annotated[str, StringConstraints(min_length=1, max_length=64,
                                             pattern=r"^[A-Za-z0-9_.:-]+$")]
Name = Annotated[str, StringConstraints(min_length=1, max_length=64,
                                        pattern=r"^[A-Za-z0-9_.-]+$")]
Choice = (Annotated[str, StringConstraints(max_length=32)]
          | Annotated[list[Annotated[str, StringConstraints(max_length=32)]
                           | Annotated[int, Field(ge=0, le=2**53)]],
                      Field(min_length=1, max_length=2)])


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class LaunchRequest(Strict):
    launch_token: Annotated[str, StringConstraints(min_length=3, max_length=2048)]


class BetRequest(Strict):
    request_id: RequestId
    lines: Annotated[int, Field(ge=1, le=10_000)]
    bet_per_line: Annotated[int, Field(ge=1, le=1_000_000)]
    mode: Name = "base"


class StepRequest(Strict):
    request_id: RequestId
    kind: Name  # the offer kind: gamble, wheel_gamble, spin_chance
    choice: Choice  # "red", "collect", ["cash", 0], ["amount", 40], ["bonus", 2], "play" ...
