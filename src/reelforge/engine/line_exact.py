"""Exact-analysis kernels of the line game: one line's expectation by enumeration, the base
game's hit probability, pairwise and count moments of line wins, the largest spin win, and the
free-game chain's moments and maximum under a retrigger cap.

They evaluate lines with the round's own `evaluate_line`, so the analysis pays exactly what
play pays. That callee lives in `engine/lines.py`: numba's cache does not notice it edited,
so run `make clean-cache` after editing it. Callers: `analysis/spin.py`, `analysis/exact.py`,
`analysis/moments.py`.
"""

from __future__ import annotations

from reelforge.engine.jit import inline_kernel, kernel
from reelforge.engine.lines import evaluate_line, substituted_run


@kernel
def line_expectation(model, line, symbols, probs, counts, multiplier, jackpot_eligible, window,
                     digit, award_value, award_probability, draws, wild_means):
    """Exact expectation of one payline by enumerating every symbol combination it can show.

    symbols: (R, S) int64, the symbols reel r can show on this line's row (first counts[r]);
    probs: (R, S) float64, their probabilities. Uses `evaluate_line`, so the analysis pays
    exactly what play pays. Returns (expected win in multiples of the bet per line,
    probability of the jackpot, probability of a paying line). window (R, H) int16 and
    digit (R,) int64 are work buffers; award_value and award_probability (S, R+1) float64
    receive, per paid (symbol, count), its expected value and its probability.
    With `draws` (the wilds draw their multipliers, [wild_multipliers]), a paid award's value
    is its pay times wild_means[k] (R+1,) float64: the expected combined multiplier of the k
    wilds in its paid run. The draws are independent of the window and of each other, and
    the award is chosen before them, so this is the award's exact expectation.
    """
    n = model.n_reels
    digit[:] = 0
    for r in range(n):
        for h in range(model.n_rows):
            window[r, h] = symbols[r, 0]
    expected = 0.0
    p_jackpot = 0.0
    p_win = 0.0
    while True:
        p = 1.0
        for r in range(n):
            p *= probs[r, digit[r]]
        award = evaluate_line(model, window, line, multiplier, jackpot_eligible)
        if award.jackpot:
            p_jackpot += p
        elif award.win > 0:
            value = p * award.win
            if draws:
                value *= wild_means[wilds_in_run(model, window, line, award.length)]
            expected += value
            p_win += p
            award_value[award.symbol, award.length] += value
            award_probability[award.symbol, award.length] += p
        r = n - 1  # next combination, odometer style
        while r >= 0:
            digit[r] += 1
            if digit[r] < counts[r]:
                break
            digit[r] = 0
            r -= 1
        if r < 0:
            break
        for rr in range(r, n):
            for h in range(model.n_rows):
                window[rr, h] = symbols[rr, digit[rr]]
    return expected, p_jackpot, p_win


@inline_kernel
def wilds_in_run(model, window, line, length):
    """How many wilds the cells of reels 1..length of a payline show."""
    rows = model.paylines[line]
    k = 0
    for r in range(length):
        if model.is_wild[window[r, rows[r]]]:
            k += 1
    return k


@kernel
def base_hit_probability(model, reel_set, depth, lines, jackpot_eligible, scatter,
                         scatter_pays_given, window, stops):
    """P(the spin pays anything), exactly, by enumerating the stops of the first `depth` reels.

    `model` must carry a breaker symbol (the last index) that nothing matches or substitutes;
    reels from `depth` on show it, so a line pays here exactly when it pays at all, provided
    every award that pays keeps paying for longer runs and no run needs more than `depth`
    reels (the caller checks both). `scatter_pays_given[c]`: P(the scatters pay | c of them in
    the first `depth` reels, counted as scatter index `scatter` counts; -1: no paying
    scatter), from the other reels. window (R, H) int16, stops (R,) int64.
    """
    breaker = model.line_pay.shape[0] - 1
    for r in range(model.n_reels):
        for h in range(model.n_rows):
            window[r, h] = breaker
        stops[r] = 0
    total = 0.0
    while True:
        p = 1.0
        scatters = 0
        for r in range(depth):
            n = model.strip_len[reel_set, r]
            if model.weighted[reel_set]:
                before = model.cum_weights[reel_set, r, stops[r] - 1] if stops[r] > 0 else 0
                p *= (model.cum_weights[reel_set, r, stops[r]] - before) / model.cum_weights[reel_set, r, n - 1]
            else:
                p /= n
            at = stops[r]
            on_reel = 0
            for h in range(model.n_rows):
                s = model.strips[reel_set, r, at]
                window[r, h] = s
                if scatter >= 0 and s == model.scatter_symbol[scatter]:
                    on_reel += 1
                at += 1
                if at == n:
                    at = 0
            if scatter >= 0 and on_reel > 0:
                scatters += on_reel if model.scatter_by_cells[scatter] else 1
        pays = False
        for line in range(lines):
            award = evaluate_line(model, window, line, 1, jackpot_eligible)
            if award.win > 0 or award.jackpot:
                pays = True
                break
        total += p if pays else p * scatter_pays_given[scatters]
        r = depth - 1  # next combination of stops, odometer style
        while r >= 0:
            stops[r] += 1
            if stops[r] < model.strip_len[reel_set, r]:
                break
            stops[r] = 0
            r -= 1
        if r < 0:
            break
    return total


# ---------------------------------------------------------------------------------------------
# Exact moments and maxima (analysis.moments): enumerations that stop as soon as the lines
# they follow are settled.


@inline_kernel
def line_reach(model, window, line):
    """How many reels from the left `evaluate_line` reads on this line, and the target.

    Cells of reels at or beyond the reach cannot change the line's result, so a line whose
    reach is at most d is settled by the first d reels. Mirrors the reads of `evaluate_line`
    (the pure-wild run, the search for the first non-wild symbol, the substituted and mixed
    runs, each read up to the cell that breaks it). Returns (reach, target, target's reel):
    the first non-wild symbol and its reel, (-1, n) when every cell is wild.
    """
    n = model.n_reels
    rows = model.paylines[line]
    first = window[0, rows[0]]
    reach = 1
    if model.is_wild[first]:
        k = 1
        while k < n and window[k, rows[k]] == first:
            k += 1
        reach = k + 1
    target = -1
    at = n
    for r in range(n):
        s = window[r, rows[r]]
        if not model.is_wild[s]:
            target = s
            at = r
            break
    if target < 0:
        return n, -1, n
    reach = max(reach, at + 1)
    count, _m = substituted_run(model, window, rows, target, -1)
    reach = max(reach, count + 1)
    group = model.mixed_group[target]
    if group >= 0:
        count, _m = substituted_run(model, window, rows, target, group)
        reach = max(reach, count + 1)
    return min(reach, n), target, at


@kernel
def line_pair_moment(model, line_a, line_b, syms_a, syms_b, probs, counts, multiplier,
                     jackpot_eligible, window, digit, prob_at, budget):
    """E[value_a x value_b] of two paylines (the same line twice: E[value**2]), exactly.

    Enumerates, reel by reel, what the two lines' cells can show together: syms_a, syms_b
    (R, K) int64 and probs (R, K) float64, the first counts[r] entries of reel r (joint over
    the reel's stops). A branch stops as soon as either line is settled at zero (it adds
    nothing) or both are settled. `model` must carry a breaker symbol (the last index) and
    window (R, H) int16 must show it everywhere; values in multiples of the bet per line,
    jackpots count 0 (the pool pays them). digit (R,) int64, prob_at (R+1,) float64: work.
    Returns (the moment, nodes visited); past `budget` nodes it stops and returns
    (-1.0, nodes): the worst case grows like the product of the reels' joint sizes.
    """
    breaker = model.line_pay.shape[0] - 1
    rows_a = model.paylines[line_a]
    rows_b = model.paylines[line_b]
    total = 0.0
    nodes = 0
    depth = 0
    digit[0] = 0
    prob_at[0] = 1.0
    while depth >= 0:
        if digit[depth] >= counts[depth]:
            window[depth, rows_a[depth]] = breaker
            window[depth, rows_b[depth]] = breaker
            depth -= 1
            if depth >= 0:
                digit[depth] += 1
            continue
        nodes += 1
        if nodes > budget:
            for r in range(window.shape[0]):
                window[r, rows_a[r]] = breaker
                window[r, rows_b[r]] = breaker
            return -1.0, nodes
        k = digit[depth]
        window[depth, rows_a[depth]] = syms_a[depth, k]
        window[depth, rows_b[depth]] = syms_b[depth, k]
        p = prob_at[depth] * probs[depth, k]
        d = depth + 1
        reach_a, _t, _at = line_reach(model, window, line_a)
        reach_b, _t, _at = line_reach(model, window, line_b)
        value_a = 1
        value_b = 1
        if reach_a <= d:
            value_a = evaluate_line(model, window, line_a, multiplier, jackpot_eligible).win
        if reach_b <= d:
            value_b = evaluate_line(model, window, line_b, multiplier, jackpot_eligible).win
        if value_a == 0 or value_b == 0:
            digit[depth] += 1
        elif reach_a <= d and reach_b <= d:
            total += p * value_a * value_b
            digit[depth] += 1
        else:
            prob_at[d] = p
            digit[d] = 0
            depth = d
    return total, nodes


@kernel
def line_count_moment(model, line, syms, adds, probs, counts, multiplier, jackpot_eligible,
                      rest, window, digit, prob_at, count_at, out):
    """out[c] += E[value x 1{count = c}] of one payline, exactly: `count` is a per-reel sum
    (a scatter's count) that the line's cells share stops with.

    syms, adds (R, K) int64, probs (R, K) float64: what the line's cell shows on reel r, what
    the reel adds to the count, jointly (first counts[r] entries). rest (R+1, C) float64:
    P(the reels from d on add x). A branch stops when the line is settled: at zero, or
    spreading its value over the counts the other reels may add. Values in multiples of the
    bet per line; same model and window conventions as `line_pair_moment`.
    """
    breaker = model.line_pay.shape[0] - 1
    rows = model.paylines[line]
    depth = 0
    digit[0] = 0
    prob_at[0] = 1.0
    count_at[0] = 0
    while depth >= 0:
        if digit[depth] >= counts[depth]:
            window[depth, rows[depth]] = breaker
            depth -= 1
            if depth >= 0:
                digit[depth] += 1
            continue
        k = digit[depth]
        window[depth, rows[depth]] = syms[depth, k]
        p = prob_at[depth] * probs[depth, k]
        c = count_at[depth] + adds[depth, k]
        d = depth + 1
        reach, _t, _at = line_reach(model, window, line)
        if reach <= d:
            value = evaluate_line(model, window, line, multiplier, jackpot_eligible).win
            if value > 0:
                for x in range(rest.shape[1]):
                    if rest[d, x] > 0 and c + x < out.shape[0]:
                        out[c + x] += p * value * rest[d, x]
            digit[depth] += 1
        else:
            prob_at[d] = p
            count_at[d] = c
            digit[d] = 0
            depth = d


@kernel
def max_spin_win(model, reel_set, lines, bet_per_line, multiplier, jackpot_eligible, reps,
                 n_reps, top_pure, top_sub, top_any, count_most, best, best_stops, stops,
                 window, digit, scatters, collect_value, cash_most, cash, budget):
    """The largest win of one spin (lines + scatters + collection, credits) for every count
    of the free-game trigger, by branch and bound over the stops of the reels, left to right.

    reps (R, N) int64: one stop of each distinct column of reel r (first n_reps[r]). A branch
    is cut when an upper bound on its wins (lines settled so far at their value, unsettled
    lines at the top pay of their pure-wild run (top_pure[first]) or of their target
    (top_sub[target], or top_any while no target is seen), each scatter at its best count
    still reachable, count_most (C, R+1): the most the reels from d on can add to scatter k)
    cannot beat the best win already found for any trigger count still reachable.
    A spin that collects (collect_value > 0: the largest cash value x the stake) wins
    collectors x cash symbols x collect_value at most, and exactly that with every value at
    its largest; cash_most (2, R+1): the most collectors and cash symbols the reels from d on
    can show. best (T,) int64 (-1: none found) and best_stops (T, R) receive the maxima and
    a window reaching each; `model` must carry a breaker symbol. stops (R,), digit (R,)
    int64, scatters (C, R+1), cash (2, R+1) int64: work. Returns the nodes visited, or -1
    once past `budget` (the bound may cut little: the worst case is every window).
    """
    n = model.n_reels
    total_bet = lines * bet_per_line
    breaker = model.line_pay.shape[0] - 1
    n_scatter = model.scatter_symbol.shape[0]
    fg = model.fg_scatter
    for r in range(n):
        for h in range(model.n_rows):
            window[r, h] = breaker
    for k in range(n_scatter):
        scatters[k, 0] = 0
    cash[0, 0] = 0
    cash[1, 0] = 0
    nodes = 0
    depth = 0
    digit[0] = 0
    while depth >= 0:
        if digit[depth] >= n_reps[depth]:
            for h in range(model.n_rows):
                window[depth, h] = breaker
            depth -= 1
            if depth >= 0:
                digit[depth] += 1
            continue
        nodes += 1
        if nodes > budget:
            return -1
        stop = reps[depth, digit[depth]]
        stops[depth] = stop
        length = model.strip_len[reel_set, depth]
        at = stop
        for h in range(model.n_rows):
            window[depth, h] = model.strips[reel_set, depth, at]
            at += 1
            if at == length:
                at = 0
        d = depth + 1
        for k in range(n_scatter):
            on_reel = 0
            for h in range(model.n_rows):
                if window[depth, h] == model.scatter_symbol[k]:
                    on_reel += 1
            if not model.scatter_by_cells[k] and on_reel > 0:
                on_reel = 1
            scatters[k, d] = scatters[k, depth] + on_reel
        bound = 0
        for line in range(lines):
            reach, target, t_at = line_reach(model, window, line)
            if reach <= d:
                bound += evaluate_line(model, window, line, multiplier,
                                       jackpot_eligible).win * bet_per_line
                continue
            first = window[0, model.paylines[line, 0]]
            top = top_pure[first] if model.is_wild[first] else 0
            sub = top_any if t_at >= d else top_sub[target]
            bound += max(top, sub) * bet_per_line
        scatter_win = 0
        for k in range(n_scatter):
            most = 0
            for x in range(count_most[k, d] + 1):
                pay = model.scatter_pay[k, scatters[k, d] + x]
                most = max(most, pay)
            scatter_win += most * total_bet * multiplier
        bound += scatter_win
        if collect_value > 0:
            robbers = 0
            values = 0
            for h in range(model.n_rows):
                s = window[depth, h]
                if s == model.collector:
                    robbers += 1
                elif model.is_cash[s]:
                    values += 1
            cash[0, d] = cash[0, depth] + robbers
            cash[1, d] = cash[1, depth] + values
            bound += ((cash[0, d] + cash_most[0, d]) * (cash[1, d] + cash_most[1, d])
                      * collect_value)
        low = 0
        high = 0
        if fg >= 0:
            low = scatters[fg, d]
            high = low + count_most[fg, d]
            high = min(high, best.shape[0] - 1)
        improves = False
        for c in range(low, high + 1):
            if bound > best[c]:
                improves = True
        if not improves:
            digit[depth] += 1
            continue
        if d == n:
            c = low  # every reel is set: the bound is the win, the count is known
            if bound > best[c]:
                best[c] = bound
                for r in range(n):
                    best_stops[c, r] = stops[r]
            digit[depth] += 1
            continue
        digit[d] = 0
        depth = d
    return nodes


@kernel
def free_chain_moments(probs, win, win_by_count, win_square, again, cap, lowest, starts,
                       m1, m2, out1, out2):
    """First and second moments of the free-game win under a retrigger cap, exactly.

    The chain's state is (spins left l, spins awarded a); a spin wins X and shows a trigger
    count c (probs[c]); a retrigger adds e = min(again[c], cap - a) spins. With m1, m2 the
    moments of what is still to come: m1(l, a) = E[X] + sum_c p_c m1(l-1+e, a+e) and
    m2(l, a) = E[X^2] + 2 sum_c E[X 1{c}] m1(l-1+e, a+e) + sum_c p_c m2(l-1+e, a+e).
    win = E[X], win_square = E[X^2], win_by_count[c] = E[X 1{c}]. Rows a = cap down to
    `lowest` are filled into the ring buffers m1, m2 (E+1, cap+1) float64, E the largest
    award; out1[i], out2[i] receive the moments at (starts[i], starts[i]).
    """
    ring = m1.shape[0]
    for a in range(cap, lowest - 1, -1):
        row = a % ring
        m1[row, 0] = 0.0
        m2[row, 0] = 0.0
        for left in range(1, a + 1):
            first = win
            second = win_square
            for c in range(probs.shape[0]):
                p = probs[c]
                if p == 0.0 and win_by_count[c] == 0.0:
                    continue
                e = 0
                if again[c] > 0:
                    e = min(again[c], cap - a)
                nxt = (a + e) % ring
                f = m1[nxt, left - 1 + e]
                first += p * f
                second += 2.0 * win_by_count[c] * f + p * m2[nxt, left - 1 + e]
            m1[row, left] = first
            m2[row, left] = second
        for i in range(starts.shape[0]):
            if starts[i] == a:
                out1[i] = m1[row, a]
                out2[i] = m2[row, a]


@kernel
def free_chain_max(possible, best, again, cap, lowest, starts, fmax, out):
    """The largest free-game win under a retrigger cap, exactly: fmax(l, a) = the best over
    the trigger counts c a spin can show (possible[c]) of best[c] + fmax(l-1+e, a+e), e as in
    `free_chain_moments`. fmax (E+1, cap+1) int64 ring buffer; out[i] = fmax(starts[i],
    starts[i]). Credits."""
    ring = fmax.shape[0]
    for a in range(cap, lowest - 1, -1):
        row = a % ring
        fmax[row, 0] = 0
        for left in range(1, a + 1):
            top = -1
            for c in range(possible.shape[0]):
                if not possible[c]:
                    continue
                e = 0
                if again[c] > 0:
                    e = min(again[c], cap - a)
                value = best[c] + fmax[(a + e) % ring, left - 1 + e]
                top = max(top, value)
            fmax[row, left] = top
        for i in range(starts.shape[0]):
            if starts[i] == a:
                out[i] = fmax[row, a]
