"""play_round: the one round function that live play and simulation share."""

from __future__ import annotations

import numpy as np

from reelforge.engine import lines as k
from reelforge.engine.gamble import gamble_offered
from reelforge.engine.outcome import (
    Bet,
    BonusSummary,
    Breakdown,
    CashValue,
    Collection,
    FreeSpinsAward,
    JackpotWin,
    LineWin,
    Outcome,
    ScatterWin,
    Spin,
    TrailStep,
)
from reelforge.engine.rng import live_generator, new_live_seed
from reelforge.errors import InvalidBet, ReelforgeError

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
        game.spec.mode(bet.mode)
    except KeyError:
        names = ", ".join(["base"] + [m.name for m in game.spec.modes if m.name != "base"])
        raise InvalidBet(f"{game.spec.id}: bet mode = {bet.mode!r}: not a mode of this game ({names})") from None
    if bet.denomination is not None and bet.denomination not in limits.denominations:
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


def _play(game, bet: Bet, rng: np.random.Generator, seed: int | None, run) -> Outcome:
    """Run a kernel with a tape long enough for the whole round, then build the Outcome."""
    model = game.model_for(bet)
    state = rng.bit_generator.state
    rows = INITIAL_TAPE_ROWS
    while True:
        stops = np.zeros(model.n_reels, dtype=np.int64)
        window = np.zeros((model.n_reels, model.n_rows), dtype=np.int16)
        tape = np.zeros((rows, k.TAPE_WIDTH + model.n_reels), dtype=np.int64)
        result = run(model, stops, window, tape)
        used = result[7]
        if used <= rows:
            break
        rows = used  # a long bonus: replay the same draws onto a tape that fits
        rng.bit_generator.state = state
    return _outcome(game, bet, result, tape[:used], seed)


def play_bonus(game, bet: Bet, start_multiplier: int, rng: np.random.Generator,
               seed: int | None = None) -> Outcome:
    """Play the trail bonus alone at a starting multiplier: the prize of the gamble's bonus
    wheel (Big, Super or Mega Big Money = 1, 2, 3). Same rules and cap as in a round."""
    check_bet(game, bet)
    model = game.model
    starts = {int(x) for x in model.trail_start if x > 0}
    if model.trail_scatter < 0 or start_multiplier not in starts:
        raise InvalidBet(f"{game.spec.id}: bonus start multiplier = {start_multiplier!r}: "
                         f"must be one of {sorted(starts)}")
    return _play(game, bet, rng, seed, lambda m, stops, window, tape: k.play_bonus_kernel(
        m, start_multiplier, bet.lines, bet.bet_per_line, rng, stops, window, tape, True))


def play_round(game, bet: Bet, rng: np.random.Generator, seed: int | None = None) -> Outcome:
    """Decide the whole round at bet time: base spin and every free spin, with its event tape.

    Simulation runs the same `play_round_kernel` without recording; this wrapper only adds the
    tape. `seed` is recorded on the outcome when the caller built `rng` from it.
    """
    check_bet(game, bet)
    if getattr(game, "family", "lines") == "clusters":
        return game.play(bet, rng, seed)
    eligible = jackpot_eligible(game, bet)
    return _play(game, bet, rng, seed, lambda m, stops, window, tape: k.play_round_kernel(
        m, bet.lines, bet.bet_per_line, eligible, rng, stops, window, tape, True))


def warmup(game) -> None:
    """Compile (or load from cache) every kernel a round uses, so that a server pays the cost
    at start and not on a player's first spin."""
    play_round(game, game.max_bet, np.random.Generator(np.random.PCG64(0)))


def play_live(game, bet: Bet) -> Outcome:
    """A live round: a fresh 256-bit seed from os.urandom keys ChaCha20; the seed is kept."""
    seed = new_live_seed()
    return play_round(game, bet, live_generator(seed), seed)


def replay(game, outcome: Outcome | dict) -> Outcome:
    """Rebuild a live round from its stored seed and bet; equal to the original outcome.

    Refused unless `game` is the very game file that played it: the id alone does not say
    (a variant, or an edited file, keeps its id), the recorded SHA-256 of the file's bytes
    (as `sha256sum` prints it) does.
    """
    data = outcome if isinstance(outcome, dict) else outcome.to_dict()
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
    return play_round(game, _stored_bet(data.get("bet")), live_generator(seed), seed)


def _stored_seed(value: object) -> int:
    """A stored outcome's seed: 1 to 64 hex digits (256 bits), as `_outcome` writes it."""
    if not (isinstance(value, str) and 0 < len(value) <= 64 and value.isascii()
            and all(c in "0123456789abcdefABCDEF" for c in value)):
        raise ReelforgeError(f"outcome seed = {value!r}: expected up to 64 hexadecimal digits")
    return int(value, 16)


def _stored_bet(value: object) -> Bet:
    """A stored outcome's bet, its types checked here (its range is `check_bet`'s; total_bet,
    derived, is compared with the rest of the outcome after the replay)."""
    if not isinstance(value, dict) or not {"lines", "bet_per_line"} <= set(value) \
            or not set(value) <= {"lines", "bet_per_line", "mode", "denomination", "total_bet"}:
        raise ReelforgeError(f"outcome bet = {value!r}: expected an object of lines, bet_per_line, "
                             "mode, denomination and total_bet")
    mode, denomination = value.get("mode", "base"), value.get("denomination")
    if not isinstance(mode, str) or not (denomination is None or type(denomination) is int):
        raise ReelforgeError(f"outcome bet = {value!r}: mode must be a string, denomination an integer")
    return Bet(value["lines"], value["bet_per_line"], mode, denomination)


def _outcome(game, bet: Bet, result, tape: np.ndarray, seed: int | None) -> Outcome:
    (total, line_win, scatter_win, fg_win, played, retriggers, _jp, _used, guard, capped,
     collect_win, bonus_win, bonus_spins, win_capped) = result
    spec, model = game.spec, game.model
    names = spec.symbol_ids + tuple(g.name for g in spec.mixed)
    set_names = [rs.name for rs in spec.reel_sets]
    spins: list[dict] = []
    jackpots, awards = [], []
    bonus = None
    for row in tape.tolist():
        kind, spin = row[0], row[1]
        if kind == k.TAPE_SPIN:
            stops = tuple(row[k.TAPE_WIDTH:])
            reel_set = row[2]
            window = tuple(
                tuple(names[model.strips[reel_set, r, (stop + h) % model.strip_len[reel_set, r]]]
                      for h in range(model.n_rows))
                for r, stop in enumerate(stops))
            mode = "base" if spin == 0 else ("free" if spin <= played else "bonus")
            spins.append(dict(index=spin, mode=mode,
                              reel_set=set_names[reel_set], multiplier=row[3], stops=stops,
                              window=window, line_wins=[], scatter_wins=[], cash=[],
                              collection=None, trail=None))
        elif kind == k.TAPE_LINE:
            spins[-1]["line_wins"].append(LineWin(row[2] + 1, names[row[3]], row[4], row[5], row[6]))
        elif kind == k.TAPE_SCATTER:
            spins[-1]["scatter_wins"].append(ScatterWin(names[row[2]], row[3], row[4], row[5]))
        elif kind == k.TAPE_JACKPOT:
            jackpots.append(JackpotWin(spin, row[2] + 1, names[row[3]], row[4]))
        elif kind == k.TAPE_AWARD:
            awards.append(FreeSpinsAward(spin, row[5], row[2], row[3], row[4]))
        elif kind == k.TAPE_CASH:
            spins[-1]["cash"].append(CashValue(row[2], row[3], row[4]))
        elif kind == k.TAPE_COLLECT:
            spins[-1]["collection"] = Collection(row[2], row[3], row[4], row[5])
        elif kind == k.TAPE_TRAIL:
            spins[-1]["trail"] = TrailStep(row[2], row[3], row[4], row[5])
        elif kind == k.TAPE_PARADE:
            step = spins[-1]["trail"]
            spins[-1]["trail"] = TrailStep(row[3], row[4], step.robbers, step.cops,
                                           ("bert", "sid", "vic")[row[2]])
        elif kind == k.TAPE_BONUS:
            bonus = BonusSummary(row[2], row[3], int(bonus_spins))
    flags = []
    if played:
        flags.append("free_games")
    if jackpots:
        flags.append("jackpot")
    if capped:
        flags.append("free_spins_capped")
    if bonus is not None:
        flags.append("bonus")
    if win_capped:
        flags.append("win_capped")
    if guard:
        flags.append("spin_guard")
    return Outcome(
        game_id=spec.id, game_sha256=spec.sha256, seed=None if seed is None else f"{seed:064x}", bet=bet,
        total_win=int(total),
        breakdown=Breakdown(int(line_win), int(scatter_win), int(fg_win), int(collect_win),
                            int(bonus_win)),
        free_games_triggered=bool(played), free_spins_played=int(played),
        retriggers=int(retriggers), jackpots=tuple(jackpots),
        spins=tuple(Spin(s["index"], s["mode"], s["reel_set"], s["multiplier"], s["stops"],
                         s["window"], tuple(s["line_wins"]), tuple(s["scatter_wins"]),
                         tuple(s["cash"]), s["collection"], s["trail"])
                    for s in spins),
        awards=tuple(awards), spin_guard_reached=bool(guard), flags=tuple(flags),
        gamble_offered=game.gamble_rules is not None and gamble_offered(game.gamble_rules, int(total)),
        bonus=bonus, win_capped=bool(win_capped),
        uncapped_win=int(line_win + scatter_win + fg_win + collect_win + bonus_win) if win_capped else None,
    )
