# cython: language_level=3, wraparound=False, cdivision=True, nonecheck=False
# boundscheck and initializedcheck are off as well, but setup.py sets those two (on under
# ALLFIVES_DEBUG=1): a directive in this header would win over the ones setup.py passes.
#
# The double-dummy engine.
#
# - Positions are card masks; a search asks for the *future* value for side X: the points still
#   to come in the tricks not yet completed, and Game.
# - Fail-soft alpha-beta, driven by MTD(f) (null-window searches that each move a bound) to an
#   exact value; every root card is valued the same way on the shared table, then an optimal
#   line is followed with null-window checks.
# - A transposition table stored at trick boundaries holds bounds on the future value.  Its key
#   names each card by its owner, suit, rank among the cards still out and kind (points and
#   pips), so positions that differ only in which lower cards are gone are one position.  Game
#   makes the value depend on the pips won so far; the value can only grow with X's lead in
#   them, so a stored lower bound holds at any lead at least the one it was found at, an upper
#   bound at any lead at most it.
# - Game moves the value by one point at most (two with margin), so the points alone, which
#   are cheaper to search, settle most questions: an exact value starts from them, and their
#   table bounds are consulted wherever Game is still open.  Once Game is decided (a side's
#   lead beyond the pips it could lose) the rest is searched on points alone.  Near the top of
#   the tree, where Game is open and the table knows nothing of the points, they are searched
#   first, on the window Game's bounds shift the node's to (_points_probe).
# - Cards of one hand that play alike are searched once; bounds from who can still win which
#   trump, the Game pips each side is sure of, and, at a trick's start, what the side on lead
#   banks by cashing its sure winners first (tricks, points and Game pips, on that line); a
#   last trick is played out directly.
# - The search runs without the GIL.  Every 1024 nodes it looks at the clock; in the main
#   thread it also runs Python's signal handlers now and then, so that Ctrl-C (or a handler that
#   raises) stops it at once: Engine.solve then raises what the handler raised.
# See _search.pxd for the data it works on and the functions' contract.

from collections import namedtuple
import os
import threading

from solver.errors import AllFivesError

from libc.stdint cimport int16_t, int64_t, uint8_t, uint64_t
from libc.stdlib cimport free
from libc.string cimport memset
from posix.time cimport CLOCK_MONOTONIC, clock_gettime, timespec

cdef extern from *:
    int popcount64 "__builtin_popcountll"(unsigned long long) nogil
    void prefetch "__builtin_prefetch"(const void*) nogil
    int ctz64 "__builtin_ctzll"(unsigned long long) nogil
    int clz64 "__builtin_clzll"(unsigned long long) nogil

cdef extern from "<stdlib.h>" nogil:
    int posix_memalign(void** memptr, size_t alignment, size_t size)

cdef extern from *:
    """
    #include <sys/mman.h>
    #ifndef MADV_HUGEPAGE  /* Linux's; elsewhere the table keeps the system's pages */
    #define MADV_HUGEPAGE MADV_NORMAL
    #endif
    """
    int madvise(void* addr, size_t length, int advice) nogil
    int MADV_HUGEPAGE

# The table is aligned to and advised into 2 MiB pages where the system allows it: a probe is
# a miss in the cache whatever its size, but with small pages it is a miss in the TLB as well.
cdef size_t HUGE_PAGE = 2 * 1024 * 1024

cdef extern from "Python.h":
    # Declared without an exception value on purpose: -1 leaves the handler's exception set
    # for Engine.solve to raise once the search has unwound.
    int PyErr_CheckSignals()
    unsigned long PyThread_get_thread_ident() nogil

cdef uint64_t SUIT_LANE = 0x1FFF

# How often the main thread's search runs the signal handlers.  Each time takes the GIL, which
# takes a microsecond unless another thread is running Python code: then it waits for that
# thread's switch interval (5 ms), and the search polls ten times less often: it loses some 2%
# of its speed that way, not half.
# The points alone are searched first where Game is open only with this many cards or more in
# the hands: nearer the end, where most nodes are, the points are nearly always exactly at the
# window and settle nothing (measured on 4 x 9 deals: from 12 cards on it doubles the nodes,
# from 28 saves 7%; on 2 x 9 deals from 14 cards on it adds a third)
cdef int PROBE_CARDS = 28
cdef double POLL_SECONDS = 0.01
cdef double SLOW_POLL_SECONDS = 0.1

cdef unsigned long MAIN_THREAD = threading.main_thread().ident
#: Per thread, the stop check ``set_stop_check`` gave (``check``) and what it raised (``error``).
_stopping = threading.local()


def set_stop_check(check):
    """In the calling thread, ``check()`` is called while the engine searches, as often as the
    main thread's signal handlers are run (every hundredth of a second or so), and where it
    raises the search stops and its exception comes out of ``solve``; None: no check.  Outside
    the main thread signals never come, so this is how a search in a worker's thread (a Dask
    worker's) is stopped."""
    if check is not None and not callable(check):
        raise TypeError(f"a stop check is a function, not {check!r}")
    _stopping.check = check
    _stopping.error = None


cdef inline uint64_t _mix(uint64_t x) noexcept nogil:
    x ^= x >> 30
    x *= <uint64_t>0xBF58476D1CE4E5B9
    x ^= x >> 27
    x *= <uint64_t>0x94D049BB133111EB
    x ^= x >> 31
    return x


# Random words for the table keys, one per (seat, suit, rank among the cards out, kind of card).
cdef uint64_t ZKEY[MAX_SEATS * 4 * 16 * KINDS]
cdef uint64_t ZCHECK[MAX_SEATS * 4 * 16 * KINDS]


cdef void _init_keys() noexcept nogil:
    cdef uint64_t seed = 0x2545F4914F6CDD1D
    cdef int i
    for i in range(MAX_SEATS * 4 * 16 * KINDS):
        seed += <uint64_t>0x9E3779B97F4A7C15
        ZKEY[i] = _mix(seed)
        seed += <uint64_t>0x9E3779B97F4A7C15
        ZCHECK[i] = _mix(seed)

_init_keys()


# Seconds the process spent stopped (Ctrl-Z), left out of the clock the time limits are kept by.
cdef double _stopped = 0.0


def add_stopped(double seconds):
    """Leave ``seconds`` more out of the clock the time limits are kept by: the process was
    stopped for them (``solver.clock``), and a search under way keeps the time it had left."""
    global _stopped
    _stopped += seconds


cdef inline double _now() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9 - _stopped


cdef inline int _highest(uint64_t m) noexcept nogil:
    return 63 - clz64(m)


# ---- playing and taking back cards ------------------------------------------------------------

cdef inline void _play(State* s, int card) noexcept nogil:
    cdef int seat = s.seat_at[s.leader][s.trick_len]
    s.hand[seat] &= ~((<uint64_t>1) << card)
    s.points_left -= s.points[card]
    s.pips_left -= s.pips[card]
    s.trick[s.trick_len] = card
    s.trick_len += 1


cdef inline void _unplay(State* s) noexcept nogil:
    s.trick_len -= 1
    cdef int card = s.trick[s.trick_len]
    cdef int seat = s.seat_at[s.leader][s.trick_len]
    s.hand[seat] |= (<uint64_t>1) << card
    s.points_left += s.points[card]
    s.pips_left += s.pips[card]


cdef inline int _winning_index(State* s, int count) noexcept nogil:
    """Index in the trick of the card winning it so far."""
    cdef int best = 0, i, c, b
    for i in range(1, count):
        c = s.trick[i]
        b = s.trick[best]
        if (c >> 4) == (b >> 4):
            if c > b:
                best = i
        elif (c >> 4) == s.trump:
            best = i
    return best


cdef inline int _close_trick(State* s, Undo* u) noexcept nogil:
    """Score the full trick on the table, start the next; returns the signed gain for X."""
    cdef int i, gain = s.trick_bonus, tp = 0, c
    cdef int winner = s.seat_at[s.leader][_winning_index(s, s.seats)]
    for i in range(s.seats):
        c = s.trick[i]
        u.trick[i] = c
        gain += s.points[c]
        tp += s.pips[c]
    u.leader = s.leader
    u.winner_side = s.side[winner]
    u.trick_pips = tp
    s.won_pips[u.winner_side] += tp
    s.leader = winner
    s.trick_len = 0
    if u.winner_side == s.xside:
        return gain
    return -gain if s.margin else 0


cdef inline void _reopen_trick(State* s, Undo* u) noexcept nogil:
    cdef int i
    s.won_pips[u.winner_side] -= u.trick_pips
    s.leader = u.leader
    for i in range(s.seats):
        s.trick[i] = u.trick[i]
    s.trick_len = s.seats


# ---- values and bounds -------------------------------------------------------------------------

cdef inline int _game_value(State* s) noexcept nogil:
    """The Game point for X at the end of play: 1 if X won it; with margin -1 if the other did."""
    cdef int x, a, b
    if not s.game:
        return 0
    x = s.won_pips[s.xside]
    if s.sides == 2:
        a = s.won_pips[1 - s.xside]
        if x > a:
            return 1
        return -1 if (s.margin and a > x) else 0
    a = s.won_pips[(s.xside + 1) % 3]
    b = s.won_pips[(s.xside + 2) % 3]
    return 1 if (x > a and x > b) else 0


cdef inline int _tricks_left(State* s) noexcept nogil:
    cdef int i, cards = s.trick_len
    for i in range(s.seats):
        cards += popcount64(s.hand[i])
    return cards // s.seats


cdef inline int _total(int* per_card, uint64_t m) noexcept nogil:
    """The sum of ``per_card`` (points or pips) over the cards of ``m``."""
    cdef int total = 0
    while m:
        total += per_card[ctz64(m)]
        m &= m - 1
    return total


cdef inline uint64_t _up_to(uint64_t m) noexcept nogil:
    """The cards up to and including the highest card of ``m`` (nothing if ``m`` is empty)."""
    if m == 0:
        return 0
    cdef int h = _highest(m)
    return ~(<uint64_t>0) if h == 63 else ((<uint64_t>2) << h) - 1


cdef inline int _run(uint64_t mine, uint64_t partner, uint64_t opponents) noexcept nogil:
    """How many of ``mine`` (a suit's cards), led from the top, win in turn: those above every
    opponent's, as long as the partner, following with its lowest, can stay under them."""
    cdef uint64_t tops = mine & ~_up_to(opponents)
    cdef int n = 0, top
    if partner == 0 or tops == 0 or _highest(partner) < ctz64(tops):
        return popcount64(tops)
    while tops:
        top = _highest(tops)
        if partner:
            if ctz64(partner) > top:
                break  # the partner would have to overtake
            partner &= partner - 1
        tops &= ~((<uint64_t>1) << top)
        n += 1
    return n


cdef int _cash_plan(State* s, int seat, int* k) noexcept nogil:
    """At a trick's start: how many sure winners ``seat``, leading, could cash in each suit
    (``k``, by suit), one after another, keeping the lead; returns their number.  Its winners
    are its cards above every opponent's in the suit, while its partner can play under them.
    Trumps come first: they cannot be ruffed, and an opponent holding no more trumps than that
    has none left after them.  A side suit's winners are sure only where no opponent with
    trumps left can ruff them: under strict follow as long as each such opponent still holds
    the suit, under trump-anytime not at all."""
    cdef int i, suit, n, count = 0
    cdef uint64_t mine = s.hand[seat], partner = 0, opponents = 0, lane, t_lane = 0
    cdef bint ruffers[MAX_SEATS]
    cdef bint any_ruffer = False
    k[0] = k[1] = k[2] = k[3] = 0
    for i in range(s.seats):
        ruffers[i] = False
        if i != seat:
            if s.side[i] == s.side[seat]:
                partner |= s.hand[i]
            else:
                opponents |= s.hand[i]
    if s.trump != NO_TRUMP:
        t_lane = SUIT_LANE << (16 * s.trump)
        if mine & t_lane:
            k[s.trump] = _run(mine & t_lane, partner & t_lane, opponents & t_lane)
            count = k[s.trump]
        for i in range(s.seats):
            if s.side[i] != s.side[seat] and popcount64(s.hand[i] & t_lane) > k[s.trump]:
                ruffers[i] = any_ruffer = True
    if any_ruffer and not s.strict:
        return count
    for suit in range(4):
        if suit == s.trump:
            continue
        lane = SUIT_LANE << (16 * suit)
        if not (mine & lane):
            continue
        n = _run(mine & lane, partner & lane, opponents & lane)
        if any_ruffer:
            # each opponent with trumps left must follow while it holds the suit
            for i in range(s.seats):
                if ruffers[i] and popcount64(s.hand[i] & lane) < n:
                    n = popcount64(s.hand[i] & lane)
        k[suit] = n
        count += n
    return count


cdef int _cash_line(State* s, int* k, int* cashier) noexcept nogil:
    """At a trick's start: the sure winners the side on lead can cash one after another
    (``k`` by suit, of the seat ``cashier``); returns their number.  The leader's own, or with
    four players its partner's when the leader can reach them: by leading a card of a suit in
    which the partner's winners are sure before trumps are drawn (trumps; or a side suit no
    opponent holding trumps is void in, under strict follow; or one where no opponent holds a
    trump at all): the leader's lowest card of the suit, under the partner's winner (see _run),
    which takes that trick, and the partner cashes the rest."""
    cdef int count, partner_count, i, suit, partner
    cdef int kp[4]
    cdef uint64_t lane, t_lane, opponents
    cdef bint safe
    count = _cash_plan(s, s.leader, k)
    cashier[0] = s.leader
    if s.seats != 4:
        return count
    partner = s.seat_at[s.leader][2]
    # only where the partner holds a card above the opponents' in a suit the leader holds
    opponents = s.hand[s.seat_at[s.leader][1]] | s.hand[s.seat_at[s.leader][3]]
    safe = False
    for suit in range(4):
        lane = SUIT_LANE << (16 * suit)
        if s.hand[s.leader] & lane and s.hand[partner] & lane & ~_up_to(opponents & lane):
            safe = True
    if not safe:
        return count
    partner_count = _cash_plan(s, partner, kp)
    if partner_count <= count:
        return count
    t_lane = SUIT_LANE << (16 * s.trump) if s.trump != NO_TRUMP else 0
    for suit in range(4):
        lane = SUIT_LANE << (16 * suit)
        if kp[suit] == 0 or not (s.hand[s.leader] & lane):
            continue
        safe = True
        if suit != s.trump:
            for i in range(s.seats):
                if s.side[i] != s.side[s.leader] and s.hand[i] & t_lane \
                        and (not s.strict or not (s.hand[i] & lane)):
                    safe = False
        if safe:
            for i in range(4):
                k[i] = kp[i]
            cashier[0] = partner
            return partner_count
    return count


cdef int _least(int* per_card, uint64_t counted, uint64_t cards, int m,
                uint64_t* chosen) noexcept nogil:
    """The least total of ``per_card`` over ``m`` of ``cards`` (those in ``counted`` count 0),
    and which cards make it (added to ``chosen``)."""
    cdef int total = 0, best, v, c, best_card
    cdef uint64_t rest
    while m > 0 and cards:
        best = BIG
        best_card = ctz64(cards)
        rest = cards
        while rest:
            c = ctz64(rest)
            rest &= rest - 1
            v = 0 if (counted >> c) & 1 else per_card[c]
            if v < best:
                best = v
                best_card = c
                if v == 0:
                    break
        total += best
        cards &= ~((<uint64_t>1) << best_card)
        chosen[0] |= (<uint64_t>1) << best_card
        m -= 1
    return total


cdef int _banked(State* s, int cashier, int* k, int count, int* per_card, uint64_t valued,
                 uint64_t counted) noexcept nogil:
    """The least total of ``per_card`` (points or pips) that the leader's side banks by cashing
    the plan ``k`` of ``count`` winners of ``cashier``, whatever the other seats play to them
    (``valued``: the cards worth anything; cards in ``counted``, already counted elsewhere,
    count 0): the winners' own, and from each other seat (the leader's first card included)
    its least-valued cards of each suit cashed, as many as it must follow with (a seat that
    holds n cards of a suit cashed k times plays at least min(n, k) of them, following or
    having thrown them), the rest of its count of cards its least-valued of any suit."""
    cdef int i, suit, total = 0, forced
    cdef uint64_t lane, cashed = 0, chosen, hand, mine = s.hand[cashier], all_cards = 0
    for i in range(s.seats):
        all_cards |= s.hand[i]
    if not (all_cards & valued & ~counted):
        return 0
    for suit in range(4):
        lane = mine & (SUIT_LANE << (16 * suit))
        for i in range(k[suit]):
            cashed |= (<uint64_t>1) << _highest(lane)
            lane &= ~((<uint64_t>1) << _highest(lane))
    total = _total(per_card, cashed & ~counted)
    for i in range(s.seats):
        if i == cashier or not (s.hand[i] & valued & ~counted):
            continue
        hand = s.hand[i]
        chosen = 0
        forced = 0
        for suit in range(4):
            if k[suit]:
                lane = hand & (SUIT_LANE << (16 * suit))
                total += _least(per_card, counted, lane, k[suit], &chosen)
        forced = popcount64(chosen)
        if forced < count:
            total += _least(per_card, counted, hand & ~chosen, count - forced, &chosen)
    return total


cdef void _trick_bounds(State* s, int* lower, int* upper) noexcept nogil:
    """Bounds on the tricks still to come: at a trick's start the quick tricks of the side on
    lead (see _cash_line), and on every line those of each side's trumps above all the other
    side's.  Without cashing, the leader's quick tricks alone:
    cards higher than any other seat holds in their suit win while the lead stays put, trumps
    always, side cards as long as no opponent holding trumps can be void in the suit."""
    cdef int tricks = _tricks_left(s), quick = 0, i, suit, winners, least, sure_x, sure_o
    cdef uint64_t others = 0, lane, mine, opp_trumps = 0, t_lane, x_trumps = 0
    cdef int k[4]
    cdef int cashier
    lower[0] = 0
    upper[0] = s.trick_bonus * tricks
    if s.trick_len or tricks < 2:
        return
    if s.use_cashing:
        quick = _cash_line(s, k, &cashier)
        # and on every line, each trump above all the other side's wins a trick of its own
        # when it is played, so a side is sure of as many tricks as one of its seats holds
        sure_x = sure_o = 0
        if s.trump != NO_TRUMP:
            t_lane = SUIT_LANE << (16 * s.trump)
            for i in range(s.seats):
                if s.side[i] == s.xside:
                    x_trumps |= s.hand[i] & t_lane
                else:
                    opp_trumps |= s.hand[i] & t_lane
            for i in range(s.seats):
                if s.side[i] == s.xside:
                    least = popcount64(s.hand[i] & t_lane & ~_up_to(opp_trumps))
                    sure_x = least if least > sure_x else sure_x
                else:
                    least = popcount64(s.hand[i] & t_lane & ~_up_to(x_trumps))
                    sure_o = least if least > sure_o else sure_o
        if s.side[s.leader] == s.xside:
            sure_x = quick if quick > sure_x else sure_x
        else:
            sure_o = quick if quick > sure_o else sure_o
        lower[0] = s.trick_bonus * sure_x
        upper[0] = s.trick_bonus * (tricks - sure_o)
        return
    mine = s.hand[s.leader]
    for i in range(s.seats):
        if i != s.leader:
            others |= s.hand[i]
    if s.trump != NO_TRUMP:
        t_lane = SUIT_LANE << (16 * s.trump)
        for i in range(s.seats):
            if s.side[i] != s.side[s.leader]:
                opp_trumps |= s.hand[i] & t_lane
    for suit in range(4):
        lane = SUIT_LANE << (16 * suit)
        if others & lane:
            winners = popcount64(mine & lane & ~_up_to(others & lane))
        else:
            winners = popcount64(mine & lane)
        if winners == 0:
            continue
        if suit != s.trump and opp_trumps:
            if not s.strict:
                continue
            # an opponent with trumps must follow while it still holds the suit
            for i in range(s.seats):
                if s.side[i] != s.side[s.leader] and s.hand[i] & t_lane:
                    least = popcount64(s.hand[i] & lane)
                    if least < winners:
                        winners = least
        quick += winners
    if quick > tricks:
        quick = tricks
    if s.side[s.leader] == s.xside:
        lower[0] = s.trick_bonus * quick
    else:
        upper[0] = s.trick_bonus * (tricks - quick)


cdef void _bounds(State* s, int alpha, int beta, int* lower, int* upper, int* game_lower,
                  int* game_upper) noexcept nogil:
    """Bounds on the future value, and on the part of it that is Game whatever is played (the
    other cuts add that to bounds on the points alone).  A trump can be won only by a side
    holding it or a higher trump (or with a higher trump already on the table), so the points a
    side cannot reach go to the other; the current trick's points may go either way, and so may
    Game.  At a trick's start the side on lead may cash its sure winners first: on that line
    what they bank is its, points and Game pips, which bounds the value (not the Game part:
    other lines may give Game otherwise); worked out only where the other bounds do not
    settle the window ``(alpha, beta)`` already."""
    cdef int i, c, total, in_trick = 0, cap_x, cap_o, open_points, count, sure_x, sure_o
    cdef int cashier, line_lower, line_upper, side
    cdef uint64_t tx = 0, to = 0, held = 0, lane = 0, scoring, trumps = 0, top = 0
    cdef int k[4]
    cdef int sure[3]
    cdef bint ours
    game_lower[0] = game_upper[0] = 0
    if s.trick_bonus:
        _trick_bounds(s, lower, upper)
        return
    for i in range(s.trick_len):
        c = s.trick[i]
        in_trick += s.points[c]
        if s.side[s.seat_at[s.leader][i]] == s.xside:
            tx |= (<uint64_t>1) << c
        else:
            to |= (<uint64_t>1) << c
    for i in range(s.seats):
        held |= s.hand[i]
        if s.side[i] == s.xside:
            tx |= s.hand[i]
        else:
            to |= s.hand[i]
    total = s.points_left + in_trick
    scoring = held & s.scoring
    if s.trump == NO_TRUMP:
        cap_x = cap_o = total
    else:
        lane = SUIT_LANE << (16 * s.trump)
        trumps = scoring & lane
        open_points = in_trick + _total(s.points, scoring & ~lane)  # either side may win these
        cap_x = open_points + _total(s.points, trumps & _up_to(tx & lane))
        cap_o = open_points + _total(s.points, trumps & _up_to(to & lane))
    # the points X is sure of, and those it cannot reach
    sure_x = total - cap_o
    sure_o = total - cap_x
    if s.game:
        _sure_pips(s, sure, &top)
        _game_from(s, sure, game_lower, game_upper)
    line_lower = game_lower[0]
    line_upper = game_upper[0]
    _value_bounds(s, total, sure_x, sure_o, line_lower, line_upper, lower, upper)
    if not s.use_cashing or s.trick_len:
        return
    if lower[0] >= beta or upper[0] <= alpha:
        return  # settled already
    side = s.side[s.leader]
    ours = side == s.xside
    count = _cash_line(s, k, &cashier)
    if count == 0:
        return
    # a line of X's side bounds the value from below, one of the others' from above
    if ours:
        sure_x += _banked(s, cashier, k, count, s.points, s.scoring, trumps & ~_up_to(to & lane))
    else:
        sure_o += _banked(s, cashier, k, count, s.points, s.scoring, trumps & ~_up_to(tx & lane))
    if s.game and game_lower[0] < game_upper[0]:
        # no card counted twice: the top trumps are their holders' already (and no side's top
        # trumps can fall to another's winners: they stop its cashing)
        sure[side] += _banked(s, cashier, k, count, s.pips, s.pipping, top)
        if ours:
            _game_from(s, sure, &line_lower, &c)
        else:
            _game_from(s, sure, &c, &line_upper)
    _value_bounds(s, total, sure_x, sure_o, line_lower, line_upper, lower, upper)


cdef inline void _value_bounds(State* s, int total, int sure_x, int sure_o, int game_lower,
                               int game_upper, int* lower, int* upper) noexcept nogil:
    """Bounds on the future value from the points each side is sure of (of ``total`` still to
    come) and Game's part."""
    if s.margin:
        upper[0] = total - 2 * sure_o + game_upper
        lower[0] = 2 * sure_x - total + game_lower
    else:
        upper[0] = total - sure_o + game_upper
        lower[0] = sure_x + game_lower


cdef inline void _sure_pips(State* s, int* sure, uint64_t* top) noexcept nogil:
    """The pips each side is sure to win at a trick's start: those of its trumps higher than
    any other side's (``top``), which win whenever they are played."""
    cdef uint64_t lane, trumps = 0, mine
    cdef uint64_t held[3]
    cdef int side, i
    sure[0] = sure[1] = sure[2] = 0
    top[0] = 0
    if s.trick_len or s.trump == NO_TRUMP:
        return
    lane = SUIT_LANE << (16 * s.trump)
    held[0] = held[1] = held[2] = 0
    for i in range(s.seats):
        held[s.side[i]] |= s.hand[i] & lane
        trumps |= s.hand[i] & lane
    for side in range(s.sides):
        mine = held[side] & ~_up_to(trumps & ~held[side])
        top[0] |= mine
        sure[side] = _total(s.pips, mine)


cdef inline void _game_bounds(State* s, int* lower, int* upper) noexcept nogil:
    """The least and most Game can give X, from the pips won so far, those each side is sure
    to win, and the rest still to win."""
    cdef int sure[3]
    cdef uint64_t top
    _sure_pips(s, sure, &top)
    _game_from(s, sure, lower, upper)


cdef inline void _game_from(State* s, int* sure, int* lower, int* upper) noexcept nogil:
    """Game's bounds when each side is sure of ``sure`` more pips (no card counted twice)."""
    cdef int left = s.pips_left, x = s.won_pips[s.xside], a, b, i, sx, sa, sb
    for i in range(s.trick_len):
        left += s.pips[s.trick[i]]
    sx = sure[s.xside]
    if s.sides == 2:
        a = s.won_pips[1 - s.xside]
        sa = sure[1 - s.xside]
        # X's lead over the other side ends between (x - a) - (left - 2 sx) and
        # (x - a) + (left - 2 sa)
        upper[0] = _sign(x - a + left - 2 * sa, s.margin)
        lower[0] = _sign(x - a - left + 2 * sx, s.margin)
    else:
        a = s.won_pips[(s.xside + 1) % 3]
        b = s.won_pips[(s.xside + 2) % 3]
        sa = sure[(s.xside + 1) % 3]
        sb = sure[(s.xside + 2) % 3]
        upper[0] = 1 if (x + left - sa - sb > a + sa and x + left - sa - sb > b + sb) else 0
        lower[0] = 1 if (x + sx > a + left - sx - sb and x + sx > b + left - sx - sa) else 0


cdef inline int _sign(int lead, bint margin) noexcept nogil:
    """Game for X at a final lead in pips: 1 ahead, 0 level, -1 behind (0 without margin)."""
    if lead > 0:
        return 1
    return -1 if (lead < 0 and margin) else 0


cdef inline int _clamp(int lead, int reach) noexcept nogil:
    if lead > reach:
        return reach + 1
    if lead < -reach:
        return -reach - 1
    return lead


cdef inline void _game_leads(State* s, int* lead_a, int* lead_b) noexcept nogil:
    """X's lead in Game pips over each other side, clamped to the pips left (+-1 beyond):
    past that Game is decided whatever happens."""
    cdef int x, r = s.pips_left
    lead_a[0] = lead_b[0] = 0
    if s.game:
        x = s.won_pips[s.xside]
        if s.sides == 2:
            lead_a[0] = _clamp(x - s.won_pips[1 - s.xside], r)
        else:
            lead_a[0] = _clamp(x - s.won_pips[(s.xside + 1) % 3], r)
            lead_b[0] = _clamp(x - s.won_pips[(s.xside + 2) % 3], r)


# ---- the transposition table -------------------------------------------------------------------

cdef inline void _table_keys(State* s, uint64_t* key, uint64_t* check, uint64_t* points_key,
                             uint64_t* points_check) noexcept nogil:
    """The hash of the cards by owner and the leader, and a second one for the search on points
    alone (``points_key``), where cards are told apart by points only; while Game is set aside
    the two are one.  Not the Game leads, which the entry itself qualifies (the value can only
    grow with X's lead)."""
    cdef uint64_t extra = (<uint64_t>(s.leader + 1)) << 40
    cdef uint64_t k1 = 0, k2 = 0, p1 = 0, p2 = 0, all_cards = 0, lane
    cdef uint64_t m
    cdef int i, c, token, points_token
    # Cards are named by their rank among the cards still in the hands, not their own rank:
    # positions that differ only in which lower cards have gone are the same position.
    for i in range(s.seats):
        all_cards |= s.hand[i]
    for i in range(s.seats):
        m = s.hand[i]
        while m:
            c = ctz64(m)
            m &= m - 1
            lane = all_cards & (SUIT_LANE << (c & 48)) & ~(((<uint64_t>2) << c) - 1)
            token = ((i << 2 | (c >> 4)) << 4 | popcount64(lane)) << 5
            points_token = token | s.points_kind[c]
            token |= s.kind[c]
            k1 += ZKEY[token]
            k2 ^= ZCHECK[token]
            p1 += ZKEY[points_token]
            p2 ^= ZCHECK[points_token]
    points_key[0] = _mix(p1 ^ _mix(extra))
    points_check[0] = p2 ^ _mix(extra ^ <uint64_t>0x5851F42D4C957F2D)
    if s.game:
        extra |= (<uint64_t>1) << 48
        key[0] = _mix(k1 ^ _mix(extra))
        check[0] = k2 ^ _mix(extra ^ <uint64_t>0x5851F42D4C957F2D)
    else:
        key[0] = points_key[0]
        check[0] = points_check[0]


cdef inline int _encode(State* s, int card) noexcept nogil:
    """A card as its suit and rank among the cards still in the hands (higher ones counted)."""
    cdef uint64_t all_cards = 0, lane
    cdef int i
    for i in range(s.seats):
        all_cards |= s.hand[i]
    lane = all_cards & (SUIT_LANE << (card & 48)) & ~(((<uint64_t>2) << card) - 1)
    return (card & 48) | popcount64(lane)


cdef inline int _decode(State* s, int code) noexcept nogil:
    cdef uint64_t all_cards = 0, lane
    cdef int i, c
    for i in range(s.seats):
        all_cards |= s.hand[i]
    lane = all_cards & (SUIT_LANE << (code & 48))
    for i in range(code & 15):
        if lane == 0:
            return -1
        lane &= ~((<uint64_t>1) << _highest(lane))
    return _highest(lane) if lane else -1


cdef inline Entry* _probe(State* s, uint64_t key, uint64_t check) noexcept nogil:
    cdef Entry* bucket = s.table + (key & s.table_mask & ~(<uint64_t>3))
    cdef int i
    for i in range(4):
        if bucket[i].key == key and bucket[i].check == check \
                and bucket[i].generation == s.generation:
            return &bucket[i]
    return NULL


cdef inline void _store(State* s, uint64_t key, uint64_t check, int depth, int alpha, int beta,
                 int value, int best, int lead_a, int lead_b) noexcept nogil:
    """Record what a search with window (alpha, beta) that returned ``value`` proved at Game
    leads (lead_a, lead_b).  The future value never falls as X's leads grow, so a lower bound
    holds at any leads at least these, an upper bound at any leads at most these."""
    cdef Entry* bucket = s.table + (key & s.table_mask & ~(<uint64_t>3))
    cdef Entry* e = NULL
    cdef int i
    for i in range(4):
        if bucket[i].key == key and bucket[i].check == check \
                and bucket[i].generation == s.generation:
            e = &bucket[i]
            break
    if e == NULL:
        for i in range(4):
            if bucket[i].generation != s.generation:
                e = &bucket[i]
                break
        if e == NULL:
            e = &bucket[0]
            for i in range(1, 4):
                if bucket[i].depth < e.depth:
                    e = &bucket[i]
        e.key = key
        e.check = check
        e.generation = s.generation
        e.lower = -BIG
        e.upper = BIG
        e.best = NO_CARD
    e.depth = <uint8_t>depth
    if value > alpha and not (e.lower >= value and lead_a >= e.lower_a
                              and lead_b >= e.lower_b):
        e.lower = <int16_t>value
        e.lower_a = <int16_t>lead_a
        e.lower_b = <int16_t>lead_b
    if value < beta and not (e.upper <= value and lead_a <= e.upper_a
                             and lead_b <= e.upper_b):
        e.upper = <int16_t>value
        e.upper_a = <int16_t>lead_a
        e.upper_b = <int16_t>lead_b
    if best >= 0:
        e.best = <uint8_t>best


# ---- moves --------------------------------------------------------------------------------------

cdef inline uint64_t _legal(State* s, int seat) noexcept nogil:
    cdef uint64_t hand = s.hand[seat], follow
    cdef int led
    if s.trick_len == 0:
        return hand
    led = s.trick[0] >> 4
    follow = hand & (SUIT_LANE << (16 * led))
    if follow == 0:
        return hand
    if s.strict or led == s.trump or s.trump == NO_TRUMP:
        return follow
    return follow | (hand & (SUIT_LANE << (16 * s.trump)))


cdef inline uint64_t _cards_out(State* s) noexcept nogil:
    cdef uint64_t out = 0
    cdef int i
    for i in range(s.seats):
        out |= s.hand[i]
    for i in range(s.trick_len):
        out |= (<uint64_t>1) << s.trick[i]
    return out


cdef inline bint _same(State* s, int a, int b) noexcept nogil:
    return s.points[a] == s.points[b] and (s.pips[a] == s.pips[b] or not s.game) \
        and not ((s.special >> a) & 1 or (s.special >> b) & 1)


cdef inline uint64_t _others(State* s, int seat) noexcept nogil:
    """The cards still out that are not in ``seat``'s hand: the other hands and the table."""
    return _cards_out(s) & ~s.hand[seat]


cdef inline bint _equivalent(State* s, int a, int b, uint64_t others) noexcept nogil:
    """Two cards of one hand that play alike: same suit, same points and pips, and no card of
    another hand (or on the table) between them.  The hand's own cards between them do not
    matter: whichever is played, the other still stands in the same place among the rest."""
    cdef int high_card = a if a > b else b, low_card = b if a > b else a
    if (a >> 4) != (b >> 4) or not _same(s, a, b):
        return False
    return others & ((((<uint64_t>1) << high_card) - 1)
                     & ~(((<uint64_t>2) << low_card) - 1)) == 0


cdef inline int _representatives(State* s, uint64_t legal, uint64_t others, int* cards) noexcept nogil:
    """The legal cards less those equivalent to one already taken (``others``: the cards out
    in other hands and on the table).  Highest first."""
    cdef int n = 0, c, i
    while legal:
        c = _highest(legal)
        legal &= ~((<uint64_t>1) << c)
        # cards come highest first, so the same suit's representatives are the last ones taken
        i = n - 1
        while i >= 0 and (cards[i] >> 4) == (c >> 4) and not _equivalent(s, c, cards[i], others):
            i -= 1
        if i < 0 or (cards[i] >> 4) != (c >> 4):
            cards[n] = c
            n += 1
    return n


cdef inline bint _beats(State* s, int c, int w) noexcept nogil:
    if (c >> 4) == (w >> 4):
        return c > w
    return (c >> 4) == s.trump


cdef inline bint _ruffable(State* s, int seat, int suit) noexcept nogil:
    """Whether an opponent of ``seat`` is void in ``suit`` and holds a trump."""
    cdef int i
    if s.trump == NO_TRUMP:
        return False
    for i in range(s.seats):
        if s.side[i] != s.side[seat] and not (s.hand[i] & (SUIT_LANE << (16 * suit))) \
                and s.hand[i] & (SUIT_LANE << (16 * s.trump)):
            return True
    return False


cdef inline bint _opponents_hold(State* s, int seat, uint64_t cards) noexcept nogil:
    """Whether an opponent of ``seat`` holds one of ``cards``."""
    cdef int i
    for i in range(s.seats):
        if s.side[i] != s.side[seat] and s.hand[i] & cards:
            return True
    return False


cdef inline bint _partner_holds(State* s, int seat, int card) noexcept nogil:
    """Whether another seat of ``seat``'s side holds ``card``."""
    cdef int i
    for i in range(s.seats):
        if i != seat and s.side[i] == s.side[seat] and (s.hand[i] >> card) & 1:
            return True
    return False


cdef inline bint _may_beat(State* s, int seat, int card) noexcept nogil:
    """Whether ``seat``, still to play to the trick, holds a card it may play that beats
    ``card``."""
    cdef int led = s.trick[0] >> 4
    cdef uint64_t follow = s.hand[seat] & (SUIT_LANE << (16 * led)), trumps
    if follow:
        if (card >> 4) == led and _highest(follow) > card:
            return True
        if s.strict or led == s.trump or s.trump == NO_TRUMP:
            return False
    if s.trump == NO_TRUMP:
        return False
    trumps = s.hand[seat] & (SUIT_LANE << (16 * s.trump))
    if not trumps:
        return False
    return (card >> 4) != s.trump or _highest(trumps) > card


cdef inline int _strongest(State* s, int seat) noexcept nogil:
    """The strongest card ``seat`` may play to the trick (-1: none; it holds no card)."""
    cdef int led = s.trick[0] >> 4
    cdef uint64_t follow = s.hand[seat] & (SUIT_LANE << (16 * led)), trumps = 0
    if s.trump != NO_TRUMP:
        trumps = s.hand[seat] & (SUIT_LANE << (16 * s.trump))
    if trumps and led != s.trump and (not follow or not s.strict):
        return _highest(trumps)
    return _highest(follow) if follow else -1


cdef inline bint _beaten_later(State* s, int seat, int card) noexcept nogil:
    """Whether an opponent of ``seat`` still to play to the trick may beat ``card``."""
    cdef int k, other
    for k in range(s.trick_len + 1, s.seats):
        other = s.seat_at[s.leader][k]
        if s.side[other] != s.side[seat] and _may_beat(s, other, card):
            return True
    return False


cdef inline bint _partner_wins_later(State* s, int seat, int w) noexcept nogil:
    """Whether a partner of ``seat`` still to play holds a card that beats the winning card
    ``w`` and that no opponent still to play may beat: the side wins the trick whatever the
    seat plays."""
    cdef int k, partner, card
    for k in range(s.trick_len + 1, s.seats):
        partner = s.seat_at[s.leader][k]
        if s.side[partner] == s.side[seat]:
            card = _strongest(s, partner)
            if card >= 0 and _beats(s, card, w) and not _beaten_later(s, seat, card):
                return True
    return False


cdef inline void _order(State* s, int seat, int* cards, int n, int first, uint64_t out) noexcept nogil:
    """Sort the moves, most promising for the seat to move first."""
    cdef int score[MAX_MOVES]
    cdef int i, j, c, sc, w = -1, trick_value = 0, rank, winning
    cdef bint is_top, partner_wins = False, last = s.trick_len == s.seats - 1
    cdef bint partner_later = False, partner_beaten = False
    cdef uint64_t lane
    if s.trick_len > 0:
        winning = _winning_index(s, s.trick_len)
        w = s.trick[winning]
        partner_wins = s.side[s.seat_at[s.leader][winning]] == s.side[seat]
        for i in range(s.trick_len):
            trick_value += s.points[s.trick[i]] + s.pips[s.trick[i]]
        if s.seats_after and not last:
            # what the seats still to play hold: a partner's card no opponent can beat, or an
            # opponent's that beats the partner winning now
            partner_later = _partner_wins_later(s, seat, w)
            partner_beaten = partner_wins and _beaten_later(s, seat, w)
    for i in range(n):
        c = cards[i]
        rank = c & 15
        if c == first:
            sc = 100000
        elif s.trick_len == 0:
            lane = out & (SUIT_LANE << (16 * (c >> 4)))
            is_top = _highest(lane) == c
            if is_top:
                # lead a winner: a top trump first while the other side has trumps to draw
                # (else it wins whenever it comes: keep it), a side suit's top card only where
                # no opponent can trump it
                sc = 400 + rank
                if (c >> 4) == s.trump:
                    if _opponents_hold(s, seat, lane):
                        sc += 100
                    else:
                        sc -= 450
                elif _ruffable(s, seat, c >> 4):
                    sc -= 350
            else:
                # else lead low, from a short suit (soon void, ready to trump), keeping the
                # cards that count
                sc = 100 - 8 * s.points[c] - 2 * s.pips[c] - rank \
                    - 5 * popcount64(s.hand[seat] & (SUIT_LANE << (c & 48)))
                if s.partner_lead and _partner_holds(s, seat, _highest(lane)) \
                        and ((c >> 4) == s.trump if not s.trick_bonus
                             else (c >> 4) == s.trump or not _ruffable(s, seat, c >> 4)):
                    # a low card to the partner's winner, where no opponent can trump it:
                    # the lead stays with the side, and a lead to cash next is tried soon (on
                    # points in trumps only: in side suits it costs nodes, measured on 4 x 9)
                    sc += 250
        elif partner_later or (partner_wins and not (partner_beaten and _beats(s, c, w))):
            # feed points to a partner who is winning, or who will win whatever the opponents
            # still to play do; do not overtake needlessly (but a partner an opponent may
            # still beat is overtaken where that helps: those cards are weighed as below)
            sc = 200 + 8 * s.points[c] + 2 * s.pips[c] - rank
            if _beats(s, c, w):
                sc -= 150
        elif _beats(s, c, w):
            # win, the more keenly the more the trick is worth: in the last seat with the
            # card whose own points and pips it banks (but a top trump, which wins whenever it
            # comes, only as cheaply as possible), with a high card where a later seat could
            # overtake
            if not last and s.seats_after and not _beaten_later(s, seat, c):
                # a winner no opponent still to play may beat, as in the last seat: on tricks
                # the cheapest first, on points the one that banks the most
                if s.trick_bonus:
                    sc = 320 + 4 * trick_value - 4 * s.points[c] - rank
                else:
                    sc = 320 + 4 * trick_value + 8 * s.points[c] + 2 * s.pips[c] - rank
            elif not last:
                sc = 300 + 4 * trick_value - 4 * s.points[c] + rank
            elif (c >> 4) == s.trump and _highest(out & (SUIT_LANE << (c & 48))) == c:
                sc = 300 + 4 * trick_value - 4 * s.points[c] - rank
            else:
                sc = 300 + 4 * trick_value + 8 * s.points[c] + 2 * s.pips[c] - rank
            if trick_value < 3 and not s.trick_bonus and (c >> 4) == s.trump \
                    and (w >> 4) != s.trump:
                # ruffing a trick worth less than a king spends a trump for little
                sc = 140 - rank
        else:
            # duck with the least valuable card
            sc = 150 - 8 * s.points[c] - 2 * s.pips[c] - rank
        score[i] = sc
    # insertion sort, descending
    for i in range(1, n):
        c = cards[i]
        sc = score[i]
        j = i - 1
        while j >= 0 and score[j] < sc:
            cards[j + 1] = cards[j]
            score[j + 1] = score[j]
            j -= 1
        cards[j + 1] = c
        score[j + 1] = sc


cdef inline int _moves(State* s, int* cards, int first) noexcept nogil:
    cdef int seat = s.seat_at[s.leader][s.trick_len]
    cdef uint64_t out = _cards_out(s), legal
    cdef int n = 0, c
    if s.use_classes:
        n = _representatives(s, _legal(s, seat), out & ~s.hand[seat], cards)
    else:
        legal = _legal(s, seat)
        while legal:
            c = _highest(legal)
            legal &= ~((<uint64_t>1) << c)
            cards[n] = c
            n += 1
    if s.use_order:
        _order(s, seat, cards, n, first, out)
    return n


# ---- the search ---------------------------------------------------------------------------------

cdef bint _signalled() noexcept nogil:
    """Run Python's pending signal handlers, holding the GIL for the while, and the thread's
    stop check; whether one raised (a handler's exception is left set, the check's kept for
    ``solve`` to raise)."""
    with gil:
        if PyErr_CheckSignals() < 0:
            return True
        return _checked()


cdef bint _checked() noexcept:
    """Whether the thread's stop check raised (its exception kept in ``_stopping.error``)."""
    check = getattr(_stopping, "check", None)
    if check is None:
        return False
    try:
        check()
    except BaseException as error:
        _stopping.error = error
        return True
    return False


cdef inline bint _check_limits(State* s) noexcept nogil:
    """Whether the search must stop: the node limit is checked at every node; every 1024 nodes
    the clock, and in the main thread (every POLL_SECONDS, or SLOW_POLL_SECONDS while the GIL
    is in demand) Python's signal handlers."""
    cdef double now
    if s.node_limit and s.nodes > s.node_limit:
        s.nodes = s.node_limit      # (the node refused is neither searched nor counted)
        s.aborted = True
    elif (s.nodes & 1023) == 0 and (s.deadline > 0 or s.poll_signals) and not s.aborted:
        now = _now()
        if s.deadline > 0 and now > s.deadline:
            s.aborted = True
        elif s.poll_signals and now >= s.next_poll:
            if _signalled():
                s.aborted = True
                s.interrupted = True
            elif _now() - now < 0.001:
                s.next_poll = now + POLL_SECONDS
            else:
                s.next_poll = now + SLOW_POLL_SECONDS  # the GIL was busy
    return s.aborted


cdef inline int _last_trick(State* s) noexcept nogil:
    """The value of a last trick, each seat holding one card: no choice is left."""
    cdef Undo undo
    cdef int i, gain, v
    for i in range(s.seats):
        _play(s, ctz64(s.hand[s.seat_at[s.leader][i]]))
    gain = _close_trick(s, &undo)
    v = gain + _game_value(s)
    _reopen_trick(s, &undo)
    for i in range(s.seats):
        _unplay(s)
    return v


cdef int _points_alone(State* s, int alpha, int beta, int game) noexcept nogil:
    """The value once Game is decided (``game`` is what it gives X): the rest is a matter of
    points alone."""
    cdef int v
    s.game = False
    v = _search(s, alpha - game, beta - game)
    s.game = True
    return v + game


cdef inline bint _table_cut(State* s, Entry* e, int alpha, int beta, Node* node,
                            int* value) noexcept nogil:
    """Whether the position's entry settles the node (its value then in ``value``); else its
    best card is to be tried first.  A bound found at other Game leads holds less the most Game
    can move the value."""
    if e == NULL:
        return False
    if e.lower >= beta:
        if node.lead_a >= e.lower_a and node.lead_b >= e.lower_b:
            value[0] = e.lower
            return True
        if e.lower - s.game_swing >= beta:
            value[0] = e.lower - s.game_swing
            return True
    if e.upper <= alpha:
        if node.lead_a <= e.upper_a and node.lead_b <= e.upper_b:
            value[0] = e.upper
            return True
        if e.upper + s.game_swing <= alpha:
            value[0] = e.upper + s.game_swing
            return True
    if e.best != NO_CARD:
        node.first = _decode(s, e.best)
    return False


cdef inline bint _points_table_cut(State* s, Entry* e, int alpha, int beta, int game_lower,
                                   int game_upper, Node* node, int* value) noexcept nogil:
    """Whether a bound on the points alone, left in the table by the searches that set Game
    aside, settles the node: it does when Game cannot move it across the window."""
    if e == NULL:
        return False
    if e.upper + game_upper <= alpha:
        value[0] = e.upper + game_upper
        return True
    if e.lower + game_lower >= beta:
        value[0] = e.lower + game_lower
        return True
    if node.first < 0 and e.best != NO_CARD:
        node.first = _decode(s, e.best)
    return False


cdef inline bint _trick_start(State* s, int alpha, int beta, Node* node,
                              int* value) noexcept nogil:
    """The cuts where a trick starts: the static bounds, a last trick played out, the table,
    Game decided, the table on points alone.  True with the node's value in ``value`` when one
    settles the node; else ``node`` holds what the move loop and the store need."""
    cdef int game_lower, game_upper, i
    cdef uint64_t points_key, points_check
    node.depth = 0
    for i in range(s.seats):
        node.depth += popcount64(s.hand[i])
    if node.depth <= s.seats:
        value[0] = _last_trick(s) if node.depth else _game_value(s)
        return True
    # the keys first, so that the table's buckets are on their way into the cache while the
    # bounds are worked out
    _table_keys(s, &node.key, &node.check, &points_key, &points_check)
    prefetch(s.table + (node.key & s.table_mask & ~(<uint64_t>3)))
    if s.game:
        prefetch(s.table + (points_key & s.table_mask & ~(<uint64_t>3)))
    # bounds pay for themselves where a trick starts; inside a trick they rarely cut
    if s.use_bounds:
        _bounds(s, alpha, beta, &node.lower, &node.upper, &game_lower, &game_upper)
        if node.upper <= alpha:
            value[0] = node.upper
            return True
        if node.lower >= beta:
            value[0] = node.lower
            return True
    else:
        node.lower = -BIG
        node.upper = BIG
        game_lower = game_upper = 0
        if s.game:
            _game_bounds(s, &game_lower, &game_upper)
    _game_leads(s, &node.lead_a, &node.lead_b)
    if _table_cut(s, _probe(s, node.key, node.check), alpha, beta, node, value):
        return True
    if s.game:
        if game_lower == game_upper:
            value[0] = _points_alone(s, alpha, beta, game_upper)
            return True
        if _points_table_cut(s, _probe(s, points_key, points_check), alpha, beta, game_lower,
                             game_upper, node, value):
            return True
        if s.points_probe and node.depth >= s.probe_cards:
            return _points_probe(s, alpha, beta, game_lower, game_upper, node, value)
    return False


cdef bint _points_probe(State* s, int alpha, int beta, int game_lower, int game_upper,
                        Node* node, int* value) noexcept nogil:
    """Where Game is open and the table says nothing on the points alone: search them, on
    the window Game's bounds shift the node's to.  Far cheaper than the search with Game, it
    settles the node when Game cannot bring the points across the window; else the points are
    exact, and with Game's bounds they narrow the node's."""
    cdef int v
    s.game = False
    v = _search(s, alpha - game_upper, beta - game_lower)
    s.game = True
    if s.aborted:
        value[0] = 0
        return True
    if v <= alpha - game_upper:
        value[0] = v + game_upper
        return True
    if v >= beta - game_lower:
        value[0] = v + game_lower
        return True
    if v + game_lower > node.lower:
        node.lower = v + game_lower
    if v + game_upper < node.upper:
        node.upper = v + game_upper
    return False


cdef int _search(State* s, int alpha, int beta) noexcept nogil:
    """Fail-soft alpha-beta on the future value for X.  A result <= alpha is an upper bound,
    >= beta a lower bound, and in between exact.  An aborted search stores nothing."""
    cdef int cards[MAX_MOVES]
    cdef int n, i, gain, seat, best_card = -1, v, best, value
    cdef int a = alpha, b = beta
    cdef bint maximiser
    cdef Node node
    cdef Undo undo
    s.nodes += 1
    if _check_limits(s):
        return 0
    node.first = -1
    if s.trick_len == 0:
        s.trick_nodes += 1
        if _trick_start(s, alpha, beta, &node, &value):
            return value
    else:
        node.lower = -BIG
        node.upper = BIG
    seat = s.seat_at[s.leader][s.trick_len]
    maximiser = s.side[seat] == s.xside
    n = _moves(s, cards, node.first)
    best = node.lower - 1 if maximiser else node.upper + 1
    for i in range(n):
        _play(s, cards[i])
        if s.trick_len == s.seats:
            gain = _close_trick(s, &undo)
            v = gain + _search(s, a - gain, b - gain)
            _reopen_trick(s, &undo)
        else:
            v = _search(s, a, b)
        _unplay(s)
        if s.aborted:
            return 0
        if maximiser:
            if v > best:
                best = v
                best_card = cards[i]
                if v > a:
                    a = v
                    if a >= beta:
                        break
        elif v < best:
            best = v
            best_card = cards[i]
            if v < b:
                b = v
                if b <= alpha:
                    break
    if s.trick_len == 0:
        _store(s, node.key, node.check, node.depth, alpha, beta, best,
               _encode(s, best_card) if best_card >= 0 else -1, node.lead_a, node.lead_b)
    return best


cdef inline bint _at_least(State* s, int beta) noexcept nogil:
    """Can X be sure of a future value of at least ``beta`` from here?"""
    return _search(s, beta - 1, beta) >= beta


cdef int _exact(State* s, int guess, int gain, int* lower, int* upper) noexcept nogil:
    """The exact value of ``gain`` plus the future value, by MTD(f): null-window searches from
    ``guess``, each moving a bound.  ``lower`` and ``upper``, on that sum, narrow as the bounds
    are proved, and the root's with them; on a limit they hold what was.  Only the root's value
    and its cards' are found this way."""
    cdef int g, beta, game_lower, game_upper, points_lower, points_upper, no_game
    _bounds(s, -BIG, BIG, lower, upper, &game_lower, &game_upper)
    lower[0] += gain
    upper[0] += gain
    _root_bounds(s)
    if s.game and lower[0] < upper[0] and s.points_first:
        # the value on points alone, cheaper to find, leaves only Game's swing to settle
        s.game = False
        _bounds(s, -BIG, BIG, &points_lower, &points_upper, &no_game, &no_game)
        g = guess - gain - game_lower
        g = g if g > points_lower else points_lower
        g = g if g < points_upper else points_upper
        while True:
            # what the points alone prove of the whole value
            if points_lower + game_lower + gain > lower[0]:
                lower[0] = points_lower + game_lower + gain
            if points_upper + game_upper + gain < upper[0]:
                upper[0] = points_upper + game_upper + gain
            _root_bounds(s)
            if points_lower >= points_upper:
                break
            beta = g + 1 if g == points_lower else g
            g = _search(s, beta - 1, beta)
            if s.aborted:
                break
            if g < beta:
                points_upper = g
            else:
                points_lower = g
        s.game = True
        if s.aborted:
            return lower[0]
    g = guess if guess > lower[0] else lower[0]
    g = g if g < upper[0] else upper[0]
    while lower[0] < upper[0]:
        beta = g + 1 if g == lower[0] else g
        g = gain + _search(s, beta - 1 - gain, beta - gain)
        if s.aborted:
            break
        if g < beta:
            upper[0] = g
        else:
            lower[0] = g
        _root_bounds(s)
    return lower[0]


cdef int _value_after(State* s, int card, int guess, int* lower, int* upper) noexcept nogil:
    """Exact value of the position after ``card``, counting the trick it may complete;
    ``lower`` and ``upper`` narrow as in _exact."""
    cdef Undo undo
    cdef int gain = 0, v
    cdef bint closed
    _play(s, card)
    closed = s.trick_len == s.seats
    if closed:
        gain = _close_trick(s, &undo)
    v = _exact(s, guess, gain, lower, upper)
    if closed:
        _reopen_trick(s, &undo)
    _unplay(s)
    return v


# ---- the driver ---------------------------------------------------------------------------------

cdef void _root_bounds(State* s) noexcept nogil:
    """While the root's cards are valued one by one, the bounds on the root's value they prove
    so far: from the ``s.move_count`` cards of ``s.move_total`` valued or being valued, within
    the root's static bounds (a card not reached yet may be worth anything)."""
    cdef int i, lower, upper
    if s.move_total == 0:
        return  # the root is valued whole: its bounds are narrowed in place
    lower = s.static_lower - 1 if s.maximiser else s.static_upper + 1
    upper = lower
    for i in range(s.move_count):
        if s.maximiser:
            lower = max(lower, s.move_lower[i])
            upper = max(upper, s.move_upper[i])
        else:
            lower = min(lower, s.move_lower[i])
            upper = min(upper, s.move_upper[i])
    if s.move_count < s.move_total:
        if s.maximiser:
            upper = s.static_upper
        else:
            lower = s.static_lower
    s.lower = max(lower, s.static_lower)
    s.upper = min(upper, s.static_upper)


cdef void _drive(State* s, bint all_moves, bint want_line) noexcept nogil:
    """Value, every legal card's value, and a line, on one shared table, into the State's
    answer.  Its bounds narrow as they are proved; Engine.progress reads them meanwhile."""
    cdef int cards[MAX_MOVES]
    cdef int n, i, seat, best, v, guess, lower, upper, game_lower, game_upper
    s.move_total = s.move_count = s.line_length = 0
    if _tricks_left(s) == 0:
        s.lower = s.upper = _game_value(s)
        s.bounded = True
        return
    _bounds(s, -BIG, BIG, &lower, &upper, &game_lower, &game_upper)
    s.static_lower = s.lower = lower
    s.static_upper = s.upper = upper
    s.bounded = True
    if not all_moves:
        _exact(s, (upper + 1) // 2, 0, &s.lower, &s.upper)
    else:
        seat = s.seat_at[s.leader][s.trick_len]
        s.maximiser = s.side[seat] == s.xside
        n = _moves(s, cards, -1)
        best = lower - 1 if s.maximiser else upper + 1
        s.move_total = n
        for i in range(n):
            # a later card is most often worse than the best so far: guess just below it
            if lower <= best <= upper:
                guess = best - 1 if s.maximiser else best + 1
            else:
                guess = (upper + 1) // 2
            s.move_card[i] = cards[i]
            s.move_count = i + 1
            v = _value_after(s, cards[i], guess, &s.move_lower[i], &s.move_upper[i])
            if s.aborted:
                _root_bounds(s)  # what the cards searched prove is all that is known
                return
            if (s.maximiser and v > best) or (not s.maximiser and v < best):
                best = v
        s.move_total = 0
        s.lower = s.upper = best
        _share_values(s, seat, n)
    if want_line and not s.aborted:
        _line(s, s.lower)


cdef void _share_values(State* s, int seat, int n) noexcept nogil:
    """After the ``n`` root cards searched: every other legal card of ``seat``, equivalent to
    one of them, shares its value."""
    cdef uint64_t others = _others(s, seat), rest = _legal(s, seat)
    cdef int i, c, k = n
    for i in range(n):
        rest &= ~((<uint64_t>1) << s.move_card[i])
    while rest:
        c = ctz64(rest)
        rest &= rest - 1
        i = 0
        while not _equivalent(s, c, s.move_card[i], others):
            i += 1
        s.move_card[k] = c
        s.move_lower[k] = s.move_lower[i]
        s.move_upper[k] = s.move_upper[i]
        k += 1
    s.move_count = k


cdef void _line(State* s, int value) noexcept nogil:
    """Follow optimal cards to the end of play into the State's line, restoring the position
    afterwards."""
    cdef int cards[MAX_MOVES]
    cdef Undo undos[MAX_CARDS]
    cdef bint closed[MAX_CARDS]
    cdef int n, i, seat, gain, k = 0
    cdef bint maximiser, ok
    while _tricks_left(s) > 0 and not s.aborted:
        seat = s.seat_at[s.leader][s.trick_len]
        maximiser = s.side[seat] == s.xside
        n = _moves(s, cards, -1)
        ok = False
        for i in range(n):
            _play(s, cards[i])
            gain = 0
            closed[k] = s.trick_len == s.seats
            if closed[k]:
                gain = _close_trick(s, &undos[k])
            if maximiser:
                ok = _at_least(s, value - gain)
            else:
                ok = not _at_least(s, value - gain + 1)
            if ok and not s.aborted:
                s.line[k] = cards[i]
                k += 1
                value -= gain
                break
            if closed[k]:
                _reopen_trick(s, &undos[k])
            _unplay(s)
        if not ok:
            break
    s.line_length = k
    while k > 0:
        k -= 1
        if closed[k]:
            _reopen_trick(s, &undos[k])
        _unplay(s)


# ---- objective win ------------------------------------------------------------------------------
# The value is 1 if X can force winning the match in this deal, else 0: a search of its own, so
# that the other objectives' searches stay as they are.  The State carries each side's running
# match score (``run``: the score before play and the captures since), pegged as each trick
# closes; under peg-out a side that reaches the target there ends the search at once.  At the
# end of play High, Low, Jack, Game and five-for-five are pegged in that order, with the same
# first-to-target test under peg-out, and under hand-end the totals are compared.  The cards
# whose captor takes an end point (Low to the captor, the Jack, the five) are ``special``: none
# plays alike with another card.  Plain fail-soft alpha-beta on the 0/1 value, window (0, 1),
# with the table: an entry's key adds to the cards' key everything else the value depends on,
# each side's running score and Game pips, and where each special card is (its slot in a hand
# as the cards' key names it, or the side that won it), so a hit is the same problem exactly.

cdef inline int _win_play(State* s, int card, WinUndo* w) noexcept nogil:
    """Play ``card`` and close the trick if it is full, pegging its captures; 1 or 0 if that
    decides the match (peg-out), else -1."""
    cdef int i, c, gain = 0
    cdef uint64_t cards = 0
    _play(s, card)
    w.closed = s.trick_len == s.seats
    if not w.closed:
        return -1
    for i in range(s.seats):
        c = s.trick[i]
        cards |= (<uint64_t>1) << c
        gain += s.points[c]
    _close_trick(s, &w.undo)
    w.side = w.undo.winner_side
    w.gain = gain
    w.cards = cards & s.special
    s.run[w.side] += gain
    s.won[w.side] |= w.cards
    if s.peg_out and s.run[w.side] >= s.target:
        return 1 if w.side == s.xside else 0
    return -1


cdef inline void _win_unplay(State* s, WinUndo* w) noexcept nogil:
    if w.closed:
        s.run[w.side] -= w.gain
        s.won[w.side] &= ~w.cards
        _reopen_trick(s, &w.undo)
    _unplay(s)


cdef inline int _captor(State* s, int card) noexcept nogil:
    cdef int side
    if card < 0:
        return -1
    for side in range(s.sides):
        if (s.won[side] >> card) & 1:
            return side
    return -1


cdef int _win_final(State* s) noexcept nogil:
    """The value when play is over: the end points pegged in order onto the running scores."""
    cdef int run[3]
    cdef int peg_side[5]
    cdef int peg_points[5]
    cdef int i, side, best = -1, top = -1, x
    for i in range(3):
        run[i] = s.run[i]
    if s.game:
        for side in range(s.sides):
            if s.won_pips[side] > top:
                top = s.won_pips[side]
                best = side
            elif s.won_pips[side] == top:
                best = -1
    peg_side[0] = s.high_side
    peg_side[1] = s.low_side if s.low_side >= 0 else _captor(s, s.special_card[0])
    peg_side[2] = _captor(s, s.special_card[1])
    peg_side[3] = best
    peg_side[4] = _captor(s, s.special_card[2])
    peg_points[0] = peg_points[3] = 1
    peg_points[1] = 1 if s.low_side >= 0 else s.special_points[0]
    peg_points[2] = s.special_points[1]
    peg_points[4] = s.special_points[2]
    for i in range(5):
        side = peg_side[i]
        if side < 0:
            continue
        run[side] += peg_points[i]
        if s.peg_out and run[side] >= s.target:
            return 1 if side == s.xside else 0
    if s.peg_out:
        return 0
    x = run[s.xside]
    if x < s.target:
        return 0
    for side in range(s.sides):
        if run[side] > x:
            return 0
    return 1


cdef inline int _win_reach(State* s, int side, bint sure) noexcept nogil:
    """At a trick's start: the most ``side``'s match score can reach in this deal, or with
    ``sure`` what it is sure to reach.  A trump is won only by a side holding it or a higher
    one, so a side can win only the trumps up to its highest, and is sure of those above every
    other side's (only trumps score as they are captured).  Game is never sure."""
    cdef int total = s.run[side], k, captor, i
    cdef uint64_t mine = 0, theirs = 0, lane, cards = 0
    if s.trump != NO_TRUMP:
        lane = SUIT_LANE << (16 * s.trump)
        for i in range(s.seats):
            if s.side[i] == side:
                mine |= s.hand[i] & lane
            else:
                theirs |= s.hand[i] & lane
        if sure:
            cards = mine & ~_up_to(theirs)
        else:
            cards = (mine | theirs) & _up_to(mine)
    total += _total(s.points, cards)
    if s.high_side == side:
        total += 1
    if s.low_side == side:
        total += 1
    if s.game and not sure:
        total += 1
    for k in range(3):
        if s.special_card[k] >= 0:
            captor = _captor(s, s.special_card[k])
            if captor == side or (captor < 0 and (cards >> s.special_card[k]) & 1):
                total += s.special_points[k]
    return total


cdef inline int _win_bounds(State* s) noexcept nogil:
    """At a trick's start: 0 if X cannot reach the target even taking every point it can
    still win; 1 if it is sure to reach it and no other side can reach it (peg-out) or pass
    what X is sure of (hand-end); else -1."""
    cdef int sure, side
    if _win_reach(s, s.xside, False) < s.target:
        return 0
    sure = _win_reach(s, s.xside, True)
    if sure < s.target:
        return -1
    for side in range(s.sides):
        if side != s.xside:
            if s.peg_out and _win_reach(s, side, False) >= s.target:
                return -1
            if not s.peg_out and _win_reach(s, side, False) > sure:
                return -1
    return 1


cdef inline void _win_key(State* s, uint64_t* key, uint64_t* check) noexcept nogil:
    """The table keys of a trick's start: the cards' keys, then the running scores of the
    sides that can still reach the target, the Game pips won as far as Game can still turn on
    them, and where each special card is."""
    cdef uint64_t points_key, points_check, h = 0x243F6A8885A308D3
    cdef int i, k, c, where
    cdef int least, lead
    _table_keys(s, key, check, &points_key, &points_check)
    # a side that cannot reach the target any more cannot change the value, whatever its score
    for i in range(s.sides):
        if _win_reach(s, i, False) >= s.target:
            h = _mix(h ^ <uint64_t>(s.run[i] + 1024 * (i + 1)))
        else:
            h = _mix(h ^ <uint64_t>(1023 + 1024 * (i + 1)))
    # Game goes by the differences in pips alone; with two sides, by the lead, which past the
    # pips still to win is decided
    if s.game:
        if s.sides == 2:
            lead = _clamp(s.won_pips[0] - s.won_pips[1], s.pips_left)
            h = _mix(h ^ <uint64_t>(lead + 8192))
        else:
            least = min(s.won_pips[0], min(s.won_pips[1], s.won_pips[2]))
            for i in range(3):
                h = _mix(h ^ <uint64_t>(s.won_pips[i] - least + 4096 * (i + 1)))
    for k in range(3):
        c = s.special_card[k]
        if c < 0:
            continue
        where = _captor(s, c)
        if where >= 0:
            where += 1
        else:
            for i in range(s.seats):
                if (s.hand[i] >> c) & 1:
                    where = 8 + 64 * i + _encode(s, c)
        h = _mix(h ^ <uint64_t>(where + 65536 * (k + 1)))
    key[0] ^= h
    check[0] ^= _mix(h ^ <uint64_t>0x5851F42D4C957F2D)


cdef int _win_search(State* s, int alpha, int beta) noexcept nogil:
    """Fail-soft alpha-beta on the 0/1 value of objective win."""
    cdef int cards[MAX_MOVES]
    cdef int n, i, r, v, best, best_card = -1, first = -1, depth = 0, seat
    cdef int a = alpha, b = beta
    cdef bint maximiser, at_start = s.trick_len == 0
    cdef uint64_t key = 0, check = 0
    cdef Entry* e
    cdef WinUndo w
    s.nodes += 1
    if _check_limits(s):
        return 0
    if at_start:
        s.trick_nodes += 1
        for i in range(s.seats):
            depth += popcount64(s.hand[i])
        if depth == 0:
            return _win_final(s)
        r = _win_bounds(s)
        if r >= 0:
            return r
        _win_key(s, &key, &check)
        e = _probe(s, key, check)
        if e != NULL:
            if e.lower >= beta or e.lower == e.upper:
                return e.lower
            if e.upper <= alpha:
                return e.upper
            if e.best != NO_CARD:
                first = _decode(s, e.best)
    seat = s.seat_at[s.leader][s.trick_len]
    maximiser = s.side[seat] == s.xside
    n = _moves(s, cards, first)
    best = -1 if maximiser else 2
    # the alpha-beta step of _search's move loop, written out again on the 0/1 value (inline
    # for speed: a change to either loop is one to make in the other)
    for i in range(n):
        r = _win_play(s, cards[i], &w)
        v = r if r >= 0 else _win_search(s, a, b)
        _win_unplay(s, &w)
        if s.aborted:
            return 0
        if maximiser:
            if v > best:
                best = v
                best_card = cards[i]
                if v > a:
                    a = v
                    if a >= beta:
                        break
        elif v < best:
            best = v
            best_card = cards[i]
            if v < b:
                b = v
                if b <= alpha:
                    break
    if at_start:
        _store(s, key, check, depth, alpha, beta, best,
               _encode(s, best_card) if best_card >= 0 else -1, 0, 0)
    return best


cdef void _win_drive(State* s, bint all_moves, bint want_line) noexcept nogil:
    """``_drive`` for objective win: the value, every legal card's, and a line."""
    cdef int cards[MAX_MOVES]
    cdef int n, i, r, v, seat, best
    cdef WinUndo w
    s.move_total = s.move_count = s.line_length = 0
    s.static_lower = s.lower = 0
    s.static_upper = s.upper = 1
    s.bounded = True
    if _tricks_left(s) == 0:
        s.lower = s.upper = _win_final(s)
        return
    if not all_moves:
        v = _win_search(s, 0, 1)
        if s.aborted:
            return
        s.lower = s.upper = v
    else:
        seat = s.seat_at[s.leader][s.trick_len]
        s.maximiser = s.side[seat] == s.xside
        n = _moves(s, cards, -1)
        best = -1 if s.maximiser else 2
        s.move_total = n
        for i in range(n):
            s.move_card[i] = cards[i]
            s.move_count = i + 1
            s.move_lower[i] = 0
            s.move_upper[i] = 1
            r = _win_play(s, cards[i], &w)
            v = r if r >= 0 else _win_search(s, 0, 1)
            _win_unplay(s, &w)
            if s.aborted:
                _root_bounds(s)
                return
            s.move_lower[i] = s.move_upper[i] = v
            if (s.maximiser and v > best) or (not s.maximiser and v < best):
                best = v
        s.move_total = 0
        s.lower = s.upper = best
        _share_values(s, seat, n)
    if want_line and not s.aborted:
        _win_line(s, s.lower)


cdef void _win_line(State* s, int value) noexcept nogil:
    """``_line`` for objective win.  Once a capture has decided the match (peg-out) every card
    keeps the value: the line goes on with the first card searched."""
    cdef int cards[MAX_MOVES]
    cdef WinUndo undos[MAX_CARDS]
    cdef int n, i, r, v, k = 0, decided = -1
    cdef bint ok
    while _tricks_left(s) > 0 and not s.aborted:
        n = _moves(s, cards, -1)
        ok = False
        for i in range(n):
            r = _win_play(s, cards[i], &undos[k])
            if decided >= 0:
                v = value
            elif r >= 0:
                v = r
            else:
                v = _win_search(s, 0, 1)
            if v == value and not s.aborted:
                if r >= 0 and decided < 0:
                    decided = r
                s.line[k] = cards[i]
                k += 1
                ok = True
                break
            _win_unplay(s, &undos[k])
        if not ok:
            break
    s.line_length = k
    while k > 0:
        k -= 1
        _win_unplay(s, &undos[k])


# ---- the Python face ----------------------------------------------------------------------------

Problem = namedtuple(
    "Problem", ["sides", "xside", "trump", "points", "pips", "trick_bonus", "game", "margin",
                "strict", "win"], defaults=(0, True, False, False, None), module=__name__)
Problem.__doc__ = """What stays the same through the positions of a deal solved for one side:
each seat's side, the side solved for, the trump suit (4: none), the points a card gives the
winner of its trick and its pips toward Game (64 bytes each, by card number), the points for
winning a trick itself, whether Game is at stake, whether the value is a margin over the other
side, whether suit must be followed strictly, and for objective win the match (a ``Win``,
else None)."""

Win = namedtuple(
    "Win", ["target", "peg_out", "run", "high_side", "low_side", "special_cards",
            "special_points", "won"], module=__name__)
Win.__doc__ = """The match, for objective win (the value is then 1 if X wins it in this deal,
else 0; ``points`` give the captures alone, pegged as each trick closes): the target, whether
the first side to reach it wins at once (peg-out; else hand-end), each side's match score with
the completed tricks' captures pegged (``run``), the sides that peg High and Low-to-the-holder
(-1: none), the cards whose captor scores Low, the Jack and the five (-1: none) and what each is
worth, and for each side the mask of the cards it has won."""

Result = namedtuple("Result", ["lower", "upper", "moves", "line", "nodes", "stopped"],
                    module=__name__)
Result.__doc__ = """A solve's answer, in future-value terms (the points still to come, Game
included) for side ``xside``: exact when ``lower == upper``; ``moves`` a list of
``(card, lower, upper)``; ``line`` an optimal continuation; ``nodes`` searched; ``stopped``:
a limit cut the work short."""


cdef int _reraise() except -1:
    """Raise the exception a signal handler left set during the search (the caller knows it
    is set: Cython raises whatever is set when a function declared ``except -1`` returns -1)."""
    return -1


cdef class Engine:
    """A search engine with its own transposition table.  Use one per thread."""

    Problem = Problem
    Win = Win

    def __cinit__(self, int table_bits=20):
        if not 8 <= table_bits <= 26:
            raise ValueError("table_bits must be between 8 and 26 (2 GiB)")
        self.entries = (<uint64_t>1) << table_bits
        cdef void* table = NULL
        cdef size_t size = self.entries * sizeof(Entry)
        if posix_memalign(&table, HUGE_PAGE if size >= HUGE_PAGE else 64, size) != 0:
            raise MemoryError("no memory for the transposition table")
        self.table = <Entry*>table
        if size >= HUGE_PAGE:
            madvise(table, size, MADV_HUGEPAGE)  # a hint: without it the table still works
        memset(self.table, 0, self.entries * sizeof(Entry))  # commit the pages now, not mid-search
        self.generation = 1
        self.busy = False
        self.last_problem = None
        self.mask = self.entries - 1
        # ALLFIVES_ENGINE_OFF names techniques to switch off, to measure what each buys:
        # bounds (the static bounds and quick tricks), order (the move ordering), classes
        # (cards that play alike searched once), points-first (the value on points alone
        # first, then Game), points-probe (the points alone searched first near the top),
        # cashing (the bounds from the leader's side cashing its sure winners), partner-lead
        # (a low lead to the partner's winner tried early), seats-after (the play to
        # a trick weighs what the seats still to play hold)
        off = {w.strip() for w in os.environ.get("ALLFIVES_ENGINE_OFF", "").split(",")}
        unknown = off - {"", "bounds", "order", "classes", "points-first", "points-probe",
                         "cashing", "partner-lead", "seats-after"}
        if unknown:
            raise AllFivesError(f"ALLFIVES_ENGINE_OFF: unknown technique {sorted(unknown)[0]!r}")
        self.use_bounds = "bounds" not in off
        self.use_order = "order" not in off
        self.use_classes = "classes" not in off
        self.points_first = "points-first" not in off
        self.points_probe = "points-probe" not in off
        self.use_cashing = "cashing" not in off
        self.partner_lead = "partner-lead" not in off
        self.seats_after = "seats-after" not in off
        self.probe_cards = PROBE_CARDS

    cdef uint64_t _entries_for(self, int cards) noexcept:
        """A small search uses the front of the table only, so that it stays in cache; a deep
        one (over 27 cards) wants room more than speed of reach."""
        cdef int bits = 8 + cards // 3 + (4 if cards > 27 else 0)
        if bits >= 63 or ((<uint64_t>1) << bits) >= self.entries:
            return self.entries
        return (<uint64_t>1) << bits

    cdef int _sort_kinds(self, const unsigned char* pts, const unsigned char* pps) except -1:
        """Number the kinds of card, by points and pips and by points alone."""
        kinds = {}
        points_kinds = {}
        for c in range(64):
            self.kind[c] = kinds.setdefault((pts[c], pps[c]), len(kinds))
            self.points_kind[c] = points_kinds.setdefault(pts[c], len(points_kinds))
        if len(kinds) > KINDS:
            self.card_tables = None
            raise ValueError(f"at most {KINDS} different (points, pips) pairs")
        return 0

    def __dealloc__(self):
        free(self.table)

    @property
    def table_bytes(self):
        return self.entries * sizeof(Entry)

    @property
    def progress(self):
        """``(nodes, lower, upper)`` of the solve under way: the nodes searched so far and the
        bounds proved so far on the root's future value (as ``solve`` returns them); None until
        its search has bounds (``loads`` counts the solves begun).  Another thread may read it
        while ``solve`` runs; between solves it is the last one's."""
        if not self.state.bounded:
            return None
        return self.state.nodes, self.state.lower, self.state.upper

    @property
    def trick_nodes(self):
        """Of the nodes of the solve under way (or the last one), those at a trick's start:
        the count DDS reports as its nodes."""
        return self.state.trick_nodes

    def new_generation(self):
        """Forget every stored entry, in constant time."""
        if self.busy:
            raise RuntimeError("this Engine is solving; use one Engine per thread")
        self._next_generation()

    cdef void _next_generation(self) noexcept:
        self.generation = <uint8_t>(self.generation + 1)
        if self.generation == 0:
            memset(self.table, 0, self.entries * sizeof(Entry))
            self.generation = 1

    def solve(self, problem, hands, int leader, trick=(), won_pips=(0, 0, 0), *,
              bint all_moves=True, bint want_line=True, long long node_limit=0,
              double time_limit=0.0, bint fresh=False):
        """Solve ``problem`` (a ``Problem``) at a position for the future value (points still
        to come, Game included) of side ``problem.xside``.

        ``hands``: a mask per seat; ``trick``: the cards on the table, lead first, played from
        ``leader`` on; ``won_pips``: the Game pips each side has won so far.  ``all_moves``
        values every legal card, ``want_line`` follows an optimal line; the search stops after
        ``node_limit`` nodes or ``time_limit`` seconds (0: no limit); ``fresh`` forgets the
        table first (a new problem always does).

        Returns a ``Result``.  A signal handler that raises meanwhile (Ctrl-C's among them),
        or the thread's stop check (``set_stop_check``), stops the search, and its exception
        comes out of here; the Engine stays usable.
        """
        if self.busy:
            raise RuntimeError("this Engine is already solving; use one Engine per thread")
        self._load(problem, hands, leader, trick, won_pips, node_limit, time_limit, fresh)
        cdef State* s = &self.state
        self.busy = True
        with nogil:
            if s.win:
                _win_drive(s, all_moves, want_line)
            else:
                _drive(s, all_moves, want_line)
        self.busy = False
        if s.interrupted:
            error = getattr(_stopping, "error", None)
            if error is not None:
                _stopping.error = None
                raise error
            _reraise()
        return Result(s.lower, s.upper,
                      [(s.move_card[i], s.move_lower[i], s.move_upper[i])
                       for i in range(s.move_count)],
                      [s.line[i] for i in range(s.line_length)], s.nodes, bool(s.aborted))

    cdef int _load(self, problem, hands, int leader, trick, won_pips, long long node_limit,
                   double time_limit, bint fresh) except -1:
        """Check solve's arguments and load them into ``self.state``; a bad one raises
        ValueError and leaves the Engine as it was."""
        cdef State s
        cdef int i, c, size, cards = 0
        cdef int seats = len(hands)
        cdef uint64_t m, seen = 0
        sides, xside_, trump_, points_, pips_, trick_bonus_, game_, margin_, strict_, win_ = problem
        cdef int xside = xside_, trump = trump_, trick_bonus = trick_bonus_
        cdef bint game = game_, margin = margin_, strict = strict_
        cdef bytes points = points_, pips = pips_
        if not 2 <= seats <= MAX_SEATS or len(sides) != seats:
            raise ValueError("2 to 4 seats, each with a side")
        if len(points) != 64 or len(pips) != 64:
            raise ValueError("points and pips take 64 bytes, one per card number")
        cdef const unsigned char* pts = points
        cdef const unsigned char* pps = pips
        if not 0 <= trump <= NO_TRUMP or not 0 <= leader < seats:
            raise ValueError("trump is 0 to 4 and the leader a seat")
        if not 0 <= len(trick) < seats:
            raise ValueError("a trick on the table has fewer cards than seats")
        if len(won_pips) > 3 or node_limit < 0:
            raise ValueError("Game pips for at most three sides; a node limit of 0 or more")
        memset(&s, 0, sizeof(State))
        # the problem
        s.seats = seats
        for i in range(MAX_SEATS):
            for c in range(MAX_SEATS):
                s.seat_at[i][c] = (i + c) % seats
        s.trump = trump
        for i in range(seats):
            s.side[i] = sides[i]
            if not 0 <= s.side[i] < 3:
                raise ValueError("sides are numbered 0 to 2")
            s.sides = max(s.sides, s.side[i] + 1)
        if not 0 <= xside < s.sides or (margin and s.sides != 2):
            raise ValueError("the side solved for is one of the sides; margin needs two")
        s.xside = xside
        if (points, pips) != self.card_tables:
            self._sort_kinds(pts, pps)
            self.card_tables = (points, pips)
        for c in range(64):
            s.points[c] = pts[c]
            s.pips[c] = pps[c]
            if pts[c]:
                s.scoring |= (<uint64_t>1) << c
            if pps[c]:
                s.pipping |= (<uint64_t>1) << c
            s.kind[c] = self.kind[c]
            s.points_kind[c] = self.points_kind[c]
        s.trick_bonus = trick_bonus
        s.game = game
        s.margin = margin
        s.game_swing = (2 if margin else 1) if game else 0
        s.strict = strict
        if win_ is not None:
            target_, peg_out_, run_, high_, low_, cards_, card_points_, won_ = win_
            if len(run_) > 3 or len(cards_) != 3 or len(card_points_) != 3 or len(won_) > 3 \
                    or margin or trick_bonus:
                raise ValueError("win: a run and won cards per side, three special cards, "
                                 "and neither margin nor a trick bonus")
            s.win = True
            s.peg_out = peg_out_
            s.target = target_
            for i in range(len(run_)):
                s.run[i] = run_[i]
            for i in range(len(won_)):
                s.won[i] = <uint64_t>won_[i]
            s.high_side = high_
            s.low_side = low_
            for i in range(3):
                s.special_card[i] = cards_[i]
                s.special_points[i] = card_points_[i]
                if not -1 <= s.special_card[i] < 64:
                    raise ValueError("win: a special card is a card number or -1")
                if s.special_card[i] >= 0:
                    s.special |= (<uint64_t>1) << s.special_card[i]
        # the position: real card numbers, each in one place, hands of sizes that fit the trick
        s.trick_len = len(trick)
        for i in range(s.trick_len):
            c = trick[i]
            if not 0 <= c < 64 or (c & 15) > 12 or seen >> c & 1:
                raise ValueError(f"trick: {c} is not a card, or is played twice")
            seen |= (<uint64_t>1) << c
            s.trick[i] = c
        for i in range(seats):
            s.hand[i] = <uint64_t>hands[i]
            if s.hand[i] & seen or s.hand[i] & <uint64_t>0xE000E000E000E000:
                raise ValueError(f"hands[{i}] holds a card twice or a number that is no card")
            seen |= s.hand[i]
        size = popcount64(s.hand[leader]) + (1 if s.trick_len else 0)
        for i in range(seats):
            c = popcount64(s.hand[s.seat_at[leader][i]]) + (1 if i < s.trick_len else 0)
            if c != size or size > MAX_MOVES:
                raise ValueError(f"hands hold {size} cards each, at most {MAX_MOVES} "
                                 "(one fewer for a seat that has played to the trick)")
            cards += popcount64(s.hand[i])
        for i in range(seats):
            m = s.hand[i]
            while m:
                c = ctz64(m)
                m &= m - 1
                s.points_left += s.points[c]
                s.pips_left += s.pips[c]
        s.leader = leader
        for i in range(len(won_pips)):
            s.won_pips[i] = won_pips[i]
        # the table
        key = (seats, trump, tuple(sides), xside, points, pips, trick_bonus, game, margin, strict,
               # the running scores and the cards won are in the win entries' keys
               None if win_ is None else (win_[0], win_[1], win_[3], win_[4], tuple(win_[5]),
                                          tuple(win_[6])))
        if fresh or key != self.last_problem:
            # a new problem starts afresh, on as much of the table as its size wants; the
            # smaller positions that follow keep that part, so their entries stay in reach
            self._next_generation()
            self.last_problem = key
            self.mask = self._entries_for(cards) - 1
        s.use_bounds = self.use_bounds
        s.use_order = self.use_order
        s.use_classes = self.use_classes
        s.points_first = self.points_first
        s.points_probe = self.points_probe
        s.use_cashing = self.use_cashing and self.use_bounds
        s.partner_lead = self.partner_lead and self.use_order
        s.seats_after = self.seats_after and self.use_order
        s.probe_cards = self.probe_cards if self.probe_cards > 0 else 1
        s.table = self.table
        s.table_mask = self.mask
        s.generation = self.generation
        # limits: nothing proved yet
        s.node_limit = node_limit
        s.deadline = _now() + time_limit if time_limit > 0 else 0.0
        s.poll_signals = PyThread_get_thread_ident() == MAIN_THREAD \
            or getattr(_stopping, "check", None) is not None
        s.lower = -BIG
        s.upper = BIG
        self.state = s
        self.loads += 1
        return 0
