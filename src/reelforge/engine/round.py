"""play_round: the one round function that live play and simulation share."""

from __future__ import annotations

import numpy as np

from reelforge.engine import lines as k
from reelforge.engine.capabilities import BONUS
from reelforge.engine.game_parts import live_stats
from reelforge.engine.outcome import (
    SCHEMA_VERSION,
    Bet,
    BetRecord,
    Cash,
    Collection,
    Counters,
    Event,
    Flag,
    FreeSpinsAward,
    LineWin,
    Outcome,
    ProgressiveJackpot,
    ScatterWin,
    Spin,
    StickyWild,
    WildMultiplier,
    Window,
)
from reelforge.engine.rng import live_generator, new_live_seed
from reelforge.engine.tape import TAPE_WIDTH, TapeKind
from reelforge.errors import InvalidBet, ReelforgeError, quote

INITIAL_TAPE_ROWS = 256


def check_bet(game, bet: Bet) -> Bet:
    """Refuse a bet outside the game's bet structure, naming the bad value."""
    limits = game.spec.bet
    for name, value, low, high in (
            ("lines", bet.lines, limits.min_lines, limits.max_lines),
            ("bet_per_line", bet.bet_per_line, 1, limits.max_bet_per_line)):
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise InvalidBet(f"{game.spec.id}: bet {name} = {value!r}: must be an integer {low}..{high}")
    try:
        mode = game.spec.mode(bet.mode)
    except KeyError:
        names = ", ".join(["base"] + [m.name for m in game.spec.modes if m.name != "base"])
        raise InvalidBet(f"{game.spec.id}: bet mode = {bet.mode!r}: not a mode of this game ({names})") from None
    if mode.cost(bet.total) is None:
        raise InvalidBet(f"{game.spec.id}: bet mode = {bet.mode!r} at a stake of {bet.total} credits "
                         f"would cost {bet.total * mode.price} credits (modes.{mode.name}.price = "
                         f"{str(mode.price)!r} x the stake), not a whole number of credits; stakes "
                         f"that are multiples of {mode.price.denominator} credits play it")
    if bet.denomination is not None and (isinstance(bet.denomination, bool)
                                         or bet.denomination not in limits.denominations):
        raise InvalidBet(f"{game.spec.id}: bet denomination = {bet.denomination!r}: "
                         f"must be one of {list(limits.denominations)}")
    return bet


def jackpot_eligible(game, bet: Bet) -> bool:
    jp = game.spec.jackpot
    if jp is None:
        return False
    if not jp.requires_max_bet:
        return True
    top = game.max_bet
    return (bet.lines, bet.bet_per_line) == (top.lines, top.bet_per_line)


def _play(game, bet: Bet, rng: np.random.Generator, seed: int | None, run, cost: int) -> Outcome:
    """Run a kernel with a tape long enough for the whole round, then build the Outcome
    (`cost`: what the player paid for it)."""
    model = game.model_for(bet)
    state = rng.bit_generator.state
    rows = INITIAL_TAPE_ROWS
    while True:
        stops = np.zeros(model.n_reels, dtype=np.int64)
        window = np.zeros((model.n_reels, model.n_rows), dtype=np.int16)
        tape = np.zeros((rows, TAPE_WIDTH + model.n_reels), dtype=np.int64)
        result = run(model, stops, window, tape)
        used = result.tape_rows
        if used <= rows:
            break
        rows = used  # a long bonus: replay the same draws onto a tape that fits
        rng.bit_generator.state = state
    return _outcome(game, bet, result, tape[:used], seed, cost)


def bonus_starts(game) -> tuple[int, ...]:
    """The start multipliers of the bonus the game's rules play alone; () without BONUS."""
    return game.rules.bonus_starts(game) if BONUS in game.capabilities else ()


def play_bonus(game, bet: Bet, start_multiplier: int, rng: np.random.Generator,
               seed: int | None = None) -> Outcome:
    """Play the trail bonus alone at a starting multiplier: the prize of the gamble's bonus
    wheel (Big, Super or Mega Big Money = 1, 2, 3). Same rules and cap as in a round; the
    outcome's cost is 0 (the prize was paid for by the gambled win). The game's rules play
    it (`bonus_starts`, `play_bonus`: games/cops_n_robbers/game.py), where they declare the
    BONUS capability; a game without it has no start multiplier to offer."""
    check_bet(game, bet)
    starts = bonus_starts(game)
    if start_multiplier not in starts:
        raise InvalidBet(f"{game.spec.id}: bonus start multiplier = {start_multiplier!r}: "
                         f"must be one of {sorted(starts)}")
    bits = rng.bit_generator  # what kernels take (engine/rng.py)
    return _play(game, bet, rng, seed, lambda m, stops, window, tape: game.rules.play_bonus(
        game, m, bet, start_multiplier, bits, stops, window, tape, True), 0)


def play_round(game, bet: Bet, rng: np.random.Generator, seed: int | None = None) -> Outcome:
    """Decide the whole round at bet time, with its event tape: the game's own `play`.
    `seed` is recorded on the outcome when the caller built `rng` from it."""
    return game.play(bet, rng, seed)


def play_lines(game, bet: Bet, rng: np.random.Generator, seed: int | None = None) -> Outcome:
    """A line game's round (`LineGame.play`): base spin and every free spin or bonus spin.

    Simulation runs the same kernel (`lines.play_rounds`) for many rounds without recording;
    this wrapper plays one with its tape.
    """
    check_bet(game, bet)
    eligible = jackpot_eligible(game, bet)
    rules = game.rules
    bits = rng.bit_generator  # what kernels take (engine/rng.py)
    if rules is not None:  # the rules' round: the generic one and what they add
        return _play(game, bet, rng, seed, lambda m, stops, window, tape: rules.play(
            game, m, bet, eligible, bits, stops, window, tape, True), game.price(bet))
    return _play(game, bet, rng, seed, lambda m, stops, window, tape: k.play_rounds(
        m, bet.lines, bet.bet_per_line, eligible, bits, 1, True, *live_stats(), stops, window,
        tape),
        game.price(bet))


def warmup(game) -> None:
    """Compile (or load from cache) every kernel a round uses, so that a server pays the cost
    at start and not on a player's first spin: the round, and the bonus a gamble can win."""
    play_round(game, game.max_bet, np.random.Generator(np.random.PCG64(0)))
    starts = bonus_starts(game)
    if starts:
        play_bonus(game, game.max_bet, starts[0], np.random.Generator(np.random.PCG64(0)))


def play_live(game, bet: Bet) -> Outcome:
    """A live round: a fresh 256-bit seed from os.urandom keys ChaCha20; the seed is kept."""
    seed = new_live_seed()
    return play_round(game, bet, live_generator(seed), seed)


def replay(game, outcome: Outcome | dict) -> Outcome:
    """Rebuild a live round from its stored seed and bet; equal to the original outcome.

    `outcome` is an Outcome or its dict (`to_dict`, or its JSON read back): each field replay
    reads is checked where it is read, then the whole dict against the schema
    (`Outcome.from_dict`). Refused unless `game` is the very game file that played it: the id
    alone does not say (a variant, or an edited file, keeps its id), the recorded SHA-256 of
    the file's bytes (as `sha256sum` prints it) does.
    """
    data = outcome.to_dict() if isinstance(outcome, Outcome) else outcome
    if not isinstance(data, dict):
        raise ReelforgeError(f"outcome = {quote(data)}: expected an Outcome or its dict")
    if data.get("seed") is None:
        raise ReelforgeError(f"outcome of {data.get('game_id')!r} has no seed to replay")
    if data.get("game_id") != game.spec.id:
        raise ReelforgeError(f"outcome is of game {data.get('game_id')!r}, not {game.spec.id!r}")
    recorded = data.get("game_sha256")
    if recorded != game.spec.sha256:
        raise ReelforgeError(
            f"outcome of {data['game_id']!r} records no game_sha256: which game file played it is unknown"
            if "game_sha256" not in data or recorded is None else
            f"outcome of {data['game_id']!r} records an empty game_sha256: which game file played it "
            "is unknown" if recorded == "" else
            f"outcome of {data['game_id']!r} was played by the game file with SHA-256 {recorded!r}, "
            f"not by {game.spec.source} (SHA-256 {game.spec.sha256!r})")
    seed = _stored_seed(data["seed"])
    bet = check_bet(game, _stored_bet(data.get("bet")))
    if not isinstance(outcome, Outcome):
        Outcome.from_dict(data)
    return play_round(game, bet, live_generator(seed), seed)


def _stored_seed(value: object) -> int:
    """A stored outcome's seed: 1 to 64 hex digits (256 bits), as `_outcome` writes it."""
    if not (isinstance(value, str) and 0 < len(value) <= 64 and value.isascii()
            and all(c in "0123456789abcdefABCDEF" for c in value)):
        raise ReelforgeError(f"outcome seed = {value!r}: expected up to 64 hexadecimal digits")
    return int(value, 16)


def _stored_bet(value: object) -> Bet:
    """A stored outcome's bet, its types checked here (its range is `check_bet`'s; stake and
    cost, derived, are compared with the rest of the outcome after the replay)."""
    if not isinstance(value, dict) or not {"lines", "bet_per_line"} <= set(value) \
            or not set(value) <= {"lines", "bet_per_line", "mode", "denomination", "stake", "cost"}:
        raise ReelforgeError(f"outcome bet = {value!r}: expected an object of lines, bet_per_line, "
                             "mode, denomination, stake and cost")
    mode, denomination = value.get("mode", "base"), value.get("denomination")
    if not isinstance(mode, str) or not (denomination is None or type(denomination) is int):
        raise ReelforgeError(f"outcome bet = {value!r}: mode must be a string, denomination an integer")
    return Bet(value["lines"], value["bet_per_line"], mode, denomination)


def _outcome(game, bet: Bet, result: k.RoundResult, tape: np.ndarray, seed: int | None,
             cost: int) -> Outcome:
    """The Outcome of a line-game round from its kernel result and tape: each row becomes an
    event of the spin before it (a row before any spin, the bonus alone's start, goes to the
    first spin)."""
    played = result.played
    spec, model = game.spec, game.model
    names = spec.symbol_ids + tuple(g.name for g in spec.mixed)
    set_names = [rs.name for rs in spec.reel_sets]
    rows = tape.tolist()
    spins: list[dict] = []
    pending: list = []
    for row in rows:
        kind, spin = row[0], row[1]
        if kind == TapeKind.SPIN:
            stops = tuple(row[TAPE_WIDTH:])
            reel_set = row[2]
            window = tuple(
                tuple(names[model.strips[reel_set, r, (stop + h) % model.strip_len[reel_set, r]]]
                      for h in range(model.n_rows))
                for r, stop in enumerate(stops))
            spins.append({"index": spin, "kind": _line_spin_kind(spin, played),
                          "reel_set": set_names[reel_set], "multiplier": row[3], "stops": stops,
                          "events": [*pending, Window(symbols=window)]})
            pending = []
            continue
        event: Event
        if kind == TapeKind.LINE:
            event = LineWin(line=row[2] + 1, symbol=names[row[3]], count=row[4], multiplier=row[5],
                            win=row[6])
        elif kind == TapeKind.SCATTER:
            event = ScatterWin(symbol=names[row[2]], count=row[3], multiplier=row[4], win=row[5])
        elif kind == TapeKind.PROGRESSIVE_JACKPOT:
            event = ProgressiveJackpot(line=row[2] + 1, symbol=names[row[3]], count=row[4])
        elif kind == TapeKind.AWARD:
            event = FreeSpinsAward(trigger_count=row[5], spins_awarded=row[2],
                                   spins_requested=row[3], total_awarded=row[4])
        elif kind == TapeKind.CASH:
            event = Cash(reel=row[2], row=row[3], value=row[4])
        elif kind == TapeKind.WILD_MULTIPLIER:
            event = WildMultiplier(reel=row[2], row=row[3], value=row[4])
        elif kind == TapeKind.STICKY_WILD:
            event = StickyWild(reel=row[2], symbol=names[model.sticky_wild], value=row[3],
                               held=bool(row[4]))
        elif kind == TapeKind.COLLECT:
            event = Collection(collectors=row[2], values=row[3], multiplier=row[4], win=row[5])
        elif game.rules is not None:  # a row the rules' kernel wrote: they decode it
            event = game.rules.decode_row(game, row)
        else:
            raise ValueError(f"unknown tape row kind {kind}")
        (spins[-1]["events"] if spins else pending).append(event)
    kinds = {row[0] for row in rows}
    flagged: tuple[tuple[Flag, object], ...] = (
        ("free_spins", played), ("jackpot", TapeKind.PROGRESSIVE_JACKPOT in kinds),
        ("free_spins_capped", result.spins_capped), ("bonus", TapeKind.BONUS in kinds),
        ("win_capped", result.win_capped), ("spin_guard", result.guard))
    breakdown = {"base_lines": int(result.line_win), "base_scatter": int(result.scatter_win),
                 "free_games": int(result.free_win), "base_collect": int(result.collect_win),
                 "bonus": int(result.bonus_win)}
    return Outcome(
        schema_version=SCHEMA_VERSION, game_id=spec.id, game_sha256=spec.sha256,
        seed=None if seed is None else f"{seed:064x}", bet=BetRecord.of(bet, int(cost)),
        total_win=int(result.total), win_capped=bool(result.win_capped),
        uncapped_win=sum(breakdown.values()) if result.win_capped else None, breakdown=breakdown,
        flags=tuple(name for name, on in flagged if on), modifiers=(),
        counters=Counters(free_spins_played=int(played), super_spins_played=0,
                          retriggers=int(result.retriggers),
                          bonus_spins=int(result.bonus_spins)),
        spins=tuple(Spin(win=_line_spin_win(s["events"]), **{**s, "events": tuple(s["events"])})
                    for s in spins))


def _line_spin_kind(index: int, free_spins: int) -> str:
    return "base" if index == 0 else ("free" if index <= free_spins else "bonus")


def _line_spin_win(events: list) -> int:
    """A line-game spin's credits: its line and scatter wins and its collection."""
    return sum(e.win for e in events if e.type in ("line_win", "scatter_win", "collection"))
