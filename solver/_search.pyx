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
#   lead beyond the pips it could lose) the rest is searched on points alone.
# - Cards of one hand that play alike are searched once; bounds from who can still win which
#   trump, the Game pips each side is sure of, and quick tricks; a last trick is played out
#   directly.
# See _search.pxd for the data it works on.

from libc.stdint cimport int16_t, int64_t, uint8_t, uint64_t
from libc.stdlib cimport calloc, free
from libc.string cimport memset
from posix.time cimport CLOCK_MONOTONIC, clock_gettime, timespec

cdef extern from *:
    int popcount64 "__builtin_popcountll"(unsigned long long) nogil
    int ctz64 "__builtin_ctzll"(unsigned long long) nogil
    int clz64 "__builtin_clzll"(unsigned long long) nogil

cdef enum:
    NO_CARD = 255
    BIG = 30000

cdef uint64_t SUIT_LANE = 0x1FFF


cdef inline uint64_t _mix(uint64_t x) noexcept nogil:
    # splitmix64's finaliser
    x ^= x >> 30
    x *= <uint64_t>0xBF58476D1CE4E5B9
    x ^= x >> 27
    x *= <uint64_t>0x94D049BB133111EB
    x ^= x >> 31
    return x


# Random words for the table keys, one per (seat, suit, rank among the cards out, kind of card).
cdef enum:
    KINDS = 32
cdef uint64_t ZKEY[MAX_SEATS * 4 * 16 * KINDS]
cdef uint64_t ZCHECK[MAX_SEATS * 4 * 16 * KINDS]


cdef void _init_keys():
    cdef uint64_t seed = 0x2545F4914F6CDD1D
    cdef int i
    for i in range(MAX_SEATS * 4 * 16 * KINDS):
        seed += <uint64_t>0x9E3779B97F4A7C15
        ZKEY[i] = _mix(seed)
        seed += <uint64_t>0x9E3779B97F4A7C15
        ZCHECK[i] = _mix(seed)

_init_keys()


cdef inline double _now() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


cdef inline int _highest(uint64_t m) noexcept nogil:
    return 63 - clz64(m)


# ---- playing and taking back cards ------------------------------------------------------------

cdef struct Undo:
    int leader
    int trick[MAX_SEATS]
    int winner_side
    int trick_pips


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


cdef void _trick_bounds(State* s, int* low, int* up) noexcept nogil:
    """Bounds on the tricks still to come, with the leader's quick tricks at a trick's start:
    cards higher than any other seat holds in their suit win while the lead stays put, trumps
    always, side cards as long as no opponent holding trumps can be void in the suit."""
    cdef int tricks = _tricks_left(s), quick = 0, i, suit, top, least
    cdef uint64_t others = 0, lane, mine, opp_trumps = 0, t_lane
    cdef bint leader_x
    low[0] = 0
    up[0] = s.trick_bonus * tricks
    if s.trick_len or tricks < 2:
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
            top = popcount64(mine & lane & ~_up_to(others & lane))
        else:
            top = popcount64(mine & lane)
        if top == 0:
            continue
        if suit != s.trump and opp_trumps:
            if not s.strict:
                continue
            # an opponent with trumps must follow while it still holds the suit
            for i in range(s.seats):
                if s.side[i] != s.side[s.leader] and s.hand[i] & t_lane:
                    least = popcount64(s.hand[i] & lane)
                    if least < top:
                        top = least
        quick += top
    if quick > tricks:
        quick = tricks
    if s.side[s.leader] == s.xside:
        low[0] = s.trick_bonus * quick
    else:
        up[0] = s.trick_bonus * (tricks - quick)


cdef void _bounds(State* s, int* low, int* up, int* game_low, int* game_up) noexcept nogil:
    """Bounds on the future value, and on the part of it that is Game.  A trump can be won only
    by a side holding it or a higher trump (or with a higher trump already on the table), so
    the points a side cannot reach go to the other; the current trick's points may go either
    way, and so may Game."""
    cdef int i, c, total, in_trick = 0, cap_x, cap_o, open_points
    cdef uint64_t tx = 0, to = 0, held = 0, lane, scoring, trumps
    game_low[0] = game_up[0] = 0
    if s.trick_bonus:
        _trick_bounds(s, low, up)
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
    if s.game:
        _game_bounds(s, game_low, game_up)
    if s.margin:
        up[0] = 2 * cap_x - total + game_up[0]
        low[0] = total - 2 * cap_o + game_low[0]
    else:
        up[0] = cap_x + game_up[0]
        low[0] = total - cap_o + game_low[0]


cdef void _sure_pips(State* s, int* sure) noexcept nogil:
    """The pips each side is sure to win at a trick's start: those of its trumps higher than
    any other side's, which win whenever they are played."""
    cdef uint64_t lane, trumps = 0
    cdef uint64_t held[3]
    cdef int side, i
    sure[0] = sure[1] = sure[2] = 0
    if s.trick_len or s.trump == NO_TRUMP:
        return
    lane = SUIT_LANE << (16 * s.trump)
    held[0] = held[1] = held[2] = 0
    for i in range(s.seats):
        held[s.side[i]] |= s.hand[i] & lane
        trumps |= s.hand[i] & lane
    for side in range(s.sides):
        sure[side] = _total(s.pips, held[side] & ~_up_to(trumps & ~held[side]))


cdef inline void _game_bounds(State* s, int* low, int* up) noexcept nogil:
    """The least and most Game can give X, from the pips won so far, those each side is sure
    to win, and the rest still to win."""
    cdef int left = s.pips_left, x = s.won_pips[s.xside], a, b, i, sx, sa, sb
    cdef int sure[3]
    for i in range(s.trick_len):
        left += s.pips[s.trick[i]]
    _sure_pips(s, sure)
    sx = sure[s.xside]
    if s.sides == 2:
        a = s.won_pips[1 - s.xside]
        sa = sure[1 - s.xside]
        # X's lead over the other side ends between (x - a) - (left - 2 sx) and
        # (x - a) + (left - 2 sa)
        up[0] = _sign(x - a + left - 2 * sa, s.margin)
        low[0] = _sign(x - a - left + 2 * sx, s.margin)
    else:
        a = s.won_pips[(s.xside + 1) % 3]
        b = s.won_pips[(s.xside + 2) % 3]
        sa = sure[(s.xside + 1) % 3]
        sb = sure[(s.xside + 2) % 3]
        up[0] = 1 if (x + left - sa - sb > a + sa and x + left - sa - sb > b + sb) else 0
        low[0] = 1 if (x + sx > a + left - sx - sb and x + sx > b + left - sx - sa) else 0


cdef inline int _sign(int lead, bint margin) noexcept nogil:
    """Game for X at a final lead in pips: 1 ahead, 0 level, -1 behind (0 without margin)."""
    if lead > 0:
        return 1
    return -1 if (lead < 0 and margin) else 0


cdef inline int _clamp(int d, int r) noexcept nogil:
    if d > r:
        return r + 1
    if d < -r:
        return -r - 1
    return d


cdef inline void _game_leads(State* s, int* da, int* db) noexcept nogil:
    """X's lead in Game pips over each other side, clamped to the pips left (+-1 beyond):
    past that Game is decided whatever happens."""
    cdef int x, r = s.pips_left
    da[0] = db[0] = 0
    if s.game:
        x = s.won_pips[s.xside]
        if s.sides == 2:
            da[0] = _clamp(x - s.won_pips[1 - s.xside], r)
        else:
            da[0] = _clamp(x - s.won_pips[(s.xside + 1) % 3], r)
            db[0] = _clamp(x - s.won_pips[(s.xside + 2) % 3], r)


cdef inline void _table_keys(State* s, uint64_t* key, uint64_t* check, uint64_t* pkey,
                             uint64_t* pcheck) noexcept nogil:
    """The hash of the cards by owner and the leader, and a second one for the search on points
    alone (``pkey``), where cards are told apart by points only; while Game is set aside the
    two are one.  Not the Game leads, which the entry itself qualifies (the value can only grow
    with X's lead)."""
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
    pkey[0] = _mix(p1 ^ _mix(extra))
    pcheck[0] = p2 ^ _mix(extra ^ <uint64_t>0x5851F42D4C957F2D)
    if s.game:
        extra |= (<uint64_t>1) << 48
        key[0] = _mix(k1 ^ _mix(extra))
        check[0] = k2 ^ _mix(extra ^ <uint64_t>0x5851F42D4C957F2D)
    else:
        key[0] = pkey[0]
        check[0] = pcheck[0]


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


cdef void _store(State* s, uint64_t key, uint64_t check, int depth, int alpha, int beta,
                 int value, int best, int da, int db) noexcept nogil:
    """Record what a search with window (alpha, beta) that returned ``value`` proved at Game
    leads (da, db).  The future value never falls as X's leads grow, so a lower bound holds
    at any leads at least these, an upper bound at any leads at most these."""
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
    if value > alpha and not (e.lower >= value and da >= e.lower_a and db >= e.lower_b):
        e.lower = <int16_t>value
        e.lower_a = <int16_t>da
        e.lower_b = <int16_t>db
    if value < beta and not (e.upper <= value and da <= e.upper_a and db <= e.upper_b):
        e.upper = <int16_t>value
        e.upper_a = <int16_t>da
        e.upper_b = <int16_t>db
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
    return s.points[a] == s.points[b] and (s.pips[a] == s.pips[b] or not s.game)


cdef inline uint64_t _others(State* s, int seat) noexcept nogil:
    """The cards still out that are not in ``seat``'s hand: the other hands and the table."""
    return _cards_out(s) & ~s.hand[seat]


cdef inline bint _equivalent(State* s, int a, int b, uint64_t others) noexcept nogil:
    """Two cards of one hand that play alike: same suit, same points and pips, and no card of
    another hand (or on the table) between them.  The hand's own cards between them do not
    matter: whichever is played, the other still stands in the same place among the rest."""
    cdef int hi = a if a > b else b, lo = b if a > b else a
    if (a >> 4) != (b >> 4) or not _same(s, a, b):
        return False
    return others & ((((<uint64_t>1) << hi) - 1) & ~(((<uint64_t>2) << lo) - 1)) == 0


cdef int _representatives(State* s, uint64_t legal, uint64_t others, int* cards) noexcept nogil:
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


cdef void _order(State* s, int seat, int* cards, int n, int first, uint64_t out) noexcept nogil:
    """Sort the moves, most promising for the seat to move first."""
    cdef int score[MAX_MOVES]
    cdef int i, j, c, sc, w = -1, trick_value = 0, rank, top, winning
    cdef bint partner_wins = False, last = s.trick_len == s.seats - 1
    cdef uint64_t lane
    if s.trick_len > 0:
        winning = _winning_index(s, s.trick_len)
        w = s.trick[winning]
        partner_wins = s.side[s.seat_at[s.leader][winning]] == s.side[seat]
        for i in range(s.trick_len):
            trick_value += s.points[s.trick[i]] + s.pips[s.trick[i]]
    for i in range(n):
        c = cards[i]
        rank = c & 15
        if c == first:
            sc = 100000
        elif s.trick_len == 0:
            lane = out & (SUIT_LANE << (16 * (c >> 4)))
            top = _highest(lane) == c
            if top:
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
        elif partner_wins:
            # feed points to a partner who is winning; do not overtake needlessly
            sc = 200 + 8 * s.points[c] + 2 * s.pips[c] - rank
            if _beats(s, c, w):
                sc -= 150
        elif _beats(s, c, w):
            # win, the more keenly the more the trick is worth: in the last seat with the
            # card whose own points and pips it banks (but a top trump, which wins whenever it
            # comes, only as cheaply as possible), with a high card where a later seat could
            # overtake
            if not last:
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


cdef int _moves(State* s, int* cards, int first) noexcept nogil:
    cdef int seat = s.seat_at[s.leader][s.trick_len]
    cdef uint64_t out = _cards_out(s)
    cdef int n = _representatives(s, _legal(s, seat), out & ~s.hand[seat], cards)
    _order(s, seat, cards, n, first, out)
    return n


# ---- the search ---------------------------------------------------------------------------------

cdef bint _check_limits(State* s) noexcept nogil:
    if s.node_limit and s.nodes >= s.node_limit:
        s.aborted = True
    elif s.deadline > 0 and (s.nodes & 1023) == 0 and _now() > s.deadline:
        s.aborted = True
    return s.aborted


cdef int _last_trick(State* s) noexcept nogil:
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


cdef int _search(State* s, int alpha, int beta) noexcept nogil:
    """Fail-soft alpha-beta on the future value for X.  A result <= alpha is an upper bound,
    >= beta a lower bound, and in between exact."""
    cdef int cards[MAX_MOVES]
    cdef int n, i, up, low, gain, first = -1, seat, best_card = -1, depth = 0, v, best
    cdef int da = 0, db = 0, game_low, game_up
    cdef int a = alpha, b = beta
    cdef bint maximiser
    cdef uint64_t key = 0, check = 0, pkey, pcheck
    cdef Entry* e
    cdef Undo undo
    s.nodes += 1
    if _check_limits(s):
        return 0
    if s.trick_len == 0:
        # bounds pay for themselves where a trick starts; inside a trick they rarely cut
        _bounds(s, &low, &up, &game_low, &game_up)
        if up <= alpha:
            return up
        if low >= beta:
            return low
    else:
        low = -BIG
        up = BIG
    if s.trick_len == 0:
        for i in range(s.seats):
            depth += popcount64(s.hand[i])
        if depth <= s.seats:
            return _last_trick(s) if depth else _game_value(s)
        _table_keys(s, &key, &check, &pkey, &pcheck)
        _game_leads(s, &da, &db)
        e = _probe(s, key, check)
        if e != NULL:
            # a bound found at other Game leads holds less the most Game can move the value
            if e.lower >= beta:
                if da >= e.lower_a and db >= e.lower_b:
                    return e.lower
                if e.lower - s.game_swing >= beta:
                    return e.lower - s.game_swing
            if e.upper <= alpha:
                if da <= e.upper_a and db <= e.upper_b:
                    return e.upper
                if e.upper + s.game_swing <= alpha:
                    return e.upper + s.game_swing
            if e.best != NO_CARD:
                first = _decode(s, e.best)
        if s.game:
            if game_low == game_up:
                # Game is decided: the rest is a matter of points alone
                s.game = False
                v = _search(s, alpha - game_up, beta - game_up)
                s.game = True
                return v + game_up
            # a bound on the points alone, left in the table by the searches that set Game
            # aside, settles the question when Game cannot move it across
            e = _probe(s, pkey, pcheck)
            if e != NULL:
                if e.upper + game_up <= alpha:
                    return e.upper + game_up
                if e.lower + game_low >= beta:
                    return e.lower + game_low
                if first < 0 and e.best != NO_CARD:
                    first = _decode(s, e.best)
    seat = s.seat_at[s.leader][s.trick_len]
    maximiser = s.side[seat] == s.xside
    n = _moves(s, cards, first)
    best = low - 1 if maximiser else up + 1
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
        _store(s, key, check, depth, alpha, beta, best,
               _encode(s, best_card) if best_card >= 0 else -1, da, db)
    return best


cdef inline bint _at_least(State* s, int beta) noexcept nogil:
    """Can X be sure of a future value of at least ``beta`` from here?"""
    return _search(s, beta - 1, beta) >= beta


cdef int _exact(State* s, int guess, int* lower, int* upper) noexcept nogil:
    """The exact future value by MTD(f): null-window searches from ``guess``, each moving a
    bound.  On a limit, ``lower`` and ``upper`` hold what was proved."""
    cdef int lo, hi, g, b, game_low, game_up, points_low, points_up
    _bounds(s, &lo, &hi, &game_low, &game_up)
    if s.game and lo < hi:
        # the value on points alone, cheaper to find, leaves only Game's swing to settle
        s.game = False
        _exact(s, guess - game_low, &points_low, &points_up)
        s.game = True
        if points_low + game_low > lo:
            lo = points_low + game_low
        if points_up + game_up < hi:
            hi = points_up + game_up
        if s.aborted:
            lower[0] = lo
            upper[0] = hi
            return lo
    g = guess if guess > lo else lo
    g = g if g < hi else hi
    while lo < hi:
        b = g + 1 if g == lo else g
        g = _search(s, b - 1, b)
        if s.aborted:
            break
        if g < b:
            hi = g
        else:
            lo = g
    lower[0] = lo
    upper[0] = hi
    return lo


cdef int _value_after(State* s, int card, int guess, int* lower, int* upper) noexcept nogil:
    """Exact value of the position after ``card``, counting the trick it may complete."""
    cdef Undo undo
    cdef int gain = 0, v
    cdef bint closed
    _play(s, card)
    closed = s.trick_len == s.seats
    if closed:
        gain = _close_trick(s, &undo)
    v = _exact(s, guess - gain, lower, upper)
    lower[0] += gain
    upper[0] += gain
    if closed:
        _reopen_trick(s, &undo)
    _unplay(s)
    return v + gain


# ---- the Python face ----------------------------------------------------------------------------

cdef class Engine:
    """A search engine with its own transposition table.  Use one per thread."""

    def __cinit__(self, int table_bits=20):
        if not 8 <= table_bits <= 26:
            raise ValueError("table_bits must be between 8 and 26 (2 GiB)")
        self.entries = (<uint64_t>1) << table_bits
        self.table = <Entry*>calloc(self.entries, sizeof(Entry))
        if self.table == NULL:
            raise MemoryError("no memory for the transposition table")
        memset(self.table, 0, self.entries * sizeof(Entry))  # commit the pages now, not mid-search
        self.generation = 1
        self.busy = False
        self.last_problem = None
        self.mask = self.entries - 1

    cdef uint64_t _entries_for(self, int cards):
        """A small search uses the front of the table only, so that it stays in cache; a deep
        one (over 27 cards) wants room more than speed of reach."""
        cdef int bits = 8 + cards // 3 + (4 if cards > 27 else 0)
        if bits >= 63 or ((<uint64_t>1) << bits) >= self.entries:
            return self.entries
        return (<uint64_t>1) << bits

    cdef void _sort_kinds(self, const unsigned char* pts, const unsigned char* pps) except *:
        """Number the kinds of card, by points and pips and by points alone."""
        kinds = {}
        points_kinds = {}
        for c in range(64):
            self.kind[c] = kinds.setdefault((pts[c], pps[c]), len(kinds))
            self.points_kind[c] = points_kinds.setdefault(pts[c], len(points_kinds))
        if len(kinds) > KINDS:
            self.card_tables = None
            raise ValueError(f"at most {KINDS} different (points, pips) pairs")

    def __dealloc__(self):
        free(self.table)

    @property
    def table_bytes(self):
        return self.entries * sizeof(Entry)

    def new_generation(self):
        """Forget every stored entry, in constant time."""
        if self.busy:
            raise RuntimeError("this Engine is solving; use one Engine per thread")
        self._next_generation()

    cdef void _next_generation(self):
        self.generation = <uint8_t>(self.generation + 1)
        if self.generation == 0:
            memset(self.table, 0, self.entries * sizeof(Entry))
            self.generation = 1

    def solve(self, hands, int trump, int leader, trick, sides, int xside, bytes points,
              bytes pips, int trick_bonus=0, bint game=True, won_pips=(0, 0, 0),
              bint margin=False, bint strict=False, bint all_moves=True, bint want_line=True,
              long long node_limit=0, double time_limit=0.0, bint fresh=False):
        """Solve for the future value (points still to come, Game included) for side ``xside``.

        ``hands``: a mask per seat; ``trick``: the cards on the table, lead first, played from
        ``leader`` on; ``sides``: each seat's side; ``points`` and ``pips``: 64 bytes, by card,
        the points a card gives the winner of its trick and its count toward Game.

        Returns ``(lower, upper, moves, line, nodes, stopped)``: the value is exact when
        lower == upper; ``moves`` is a list of ``(card, lower, upper)`` for every legal card
        (empty unless ``all_moves``); ``line`` is an optimal continuation (empty unless
        ``want_line``); ``stopped`` says a limit cut the work short (the line may be partial).
        """
        if self.busy:
            raise RuntimeError("this Engine is already solving; use one Engine per thread")
        cdef State s
        cdef int i, c, size, cards = 0
        cdef int seats = len(hands)
        cdef uint64_t m, seen = 0, card_bit
        cdef const unsigned char* pts = points
        cdef const unsigned char* pps = pips
        if not 2 <= seats <= MAX_SEATS or len(sides) != seats:
            raise ValueError("2 to 4 seats, each with a side")
        if len(points) != 64 or len(pips) != 64:
            raise ValueError("points and pips take 64 bytes, one per card number")
        if not 0 <= trump <= NO_TRUMP or not 0 <= leader < seats:
            raise ValueError("trump is 0 to 4 and the leader a seat")
        if not 0 <= len(trick) < seats:
            raise ValueError("a trick on the table has fewer cards than seats")
        if len(won_pips) > 3 or node_limit < 0:
            raise ValueError("Game pips for at most three sides; a node limit of 0 or more")
        memset(&s, 0, sizeof(State))
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
            s.kind[c] = self.kind[c]
            s.points_kind[c] = self.points_kind[c]
        s.trick_bonus = trick_bonus
        s.game = game
        s.margin = margin
        s.game_swing = (2 if margin else 1) if game else 0
        s.strict = strict
        # the cards: real card numbers, each in one place, hands of sizes that fit the trick
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
        problem = (seats, trump, tuple(sides), xside, points, pips, trick_bonus, game, margin,
                   strict)
        if fresh or problem != self.last_problem:
            # a new problem starts afresh, on as much of the table as its size wants; the
            # smaller positions that follow keep that part, so their entries stay in reach
            self._next_generation()
            self.last_problem = problem
            self.mask = self._entries_for(cards) - 1
        s.leader = leader
        for i in range(len(won_pips)):
            s.won_pips[i] = won_pips[i]
        s.table = self.table
        s.table_mask = self.mask
        s.generation = self.generation
        s.node_limit = node_limit
        s.deadline = _now() + time_limit if time_limit > 0 else 0.0
        self.busy = True
        cdef int lower = 0, upper = 0, nmoves = 0, nline = 0
        cdef int mcards[MAX_MOVES]
        cdef int mlow[MAX_MOVES]
        cdef int mhigh[MAX_MOVES]
        cdef int line[64]
        try:
            with nogil:
                _drive(&s, all_moves, want_line, &lower, &upper, mcards, mlow, mhigh, &nmoves,
                       line, &nline)
        finally:
            self.busy = False
        moves = [(mcards[i], mlow[i], mhigh[i]) for i in range(nmoves)]
        return lower, upper, moves, [line[i] for i in range(nline)], s.nodes, bool(s.aborted)


cdef void _drive(State* s, bint all_moves, bint want_line, int* lower, int* upper,
                 int* mcards, int* mlow, int* mhigh, int* nmoves, int* line,
                 int* nline) noexcept nogil:
    """Value, every legal card's value, and a line, on one shared table."""
    cdef int reps[MAX_MOVES]
    cdef int n, done, i, k, c, seat, lo, hi, best, v, top, bottom, guess
    cdef bint maximiser
    cdef uint64_t rest, others
    nmoves[0] = 0
    nline[0] = 0
    if _tricks_left(s) == 0:
        lower[0] = upper[0] = _game_value(s)
        return
    _bounds(s, &bottom, &top, &lo, &hi)
    if not all_moves:
        _exact(s, (top + 1) // 2, lower, upper)
    else:
        seat = s.seat_at[s.leader][s.trick_len]
        maximiser = s.side[seat] == s.xside
        n = _moves(s, reps, -1)
        best = bottom - 1 if maximiser else top + 1
        done = 0
        for i in range(n):
            # a later card is most often worse than the best so far: guess just below it
            if bottom <= best <= top:
                guess = best - 1 if maximiser else best + 1
            else:
                guess = (top + 1) // 2
            v = _value_after(s, reps[i], guess, &lo, &hi)
            mcards[i] = reps[i]
            mlow[i] = lo
            mhigh[i] = hi
            done = i + 1
            if s.aborted:
                break
            if (maximiser and v > best) or (not maximiser and v < best):
                best = v
        nmoves[0] = done
        if s.aborted:
            # what the cards searched prove; a card not searched may be worth anything
            lo = bottom - 1 if maximiser else top + 1
            hi = lo
            for i in range(done):
                if maximiser:
                    lo = max(lo, mlow[i])
                    hi = max(hi, mhigh[i])
                else:
                    lo = min(lo, mlow[i])
                    hi = min(hi, mhigh[i])
            if done < n:
                if maximiser:
                    hi = top
                else:
                    lo = bottom
            lower[0] = max(lo, bottom)
            upper[0] = min(hi, top)
            return
        lower[0] = upper[0] = best
        # a card equivalent to a searched one shares its value
        others = _others(s, seat)
        rest = _legal(s, seat)
        for i in range(n):
            rest &= ~((<uint64_t>1) << mcards[i])
        k = n
        while rest:
            c = ctz64(rest)
            rest &= rest - 1
            i = 0
            while not _equivalent(s, c, mcards[i], others):
                i += 1
            mcards[k] = c
            mlow[k] = mlow[i]
            mhigh[k] = mhigh[i]
            k += 1
        nmoves[0] = k
    if want_line and not s.aborted:
        _line(s, lower[0], line, nline)


cdef void _line(State* s, int value, int* line, int* nline) noexcept nogil:
    """Follow optimal cards to the end of play, restoring the state afterwards."""
    cdef int cards[MAX_MOVES]
    cdef Undo undos[64]
    cdef bint closed[64]
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
                line[k] = cards[i]
                k += 1
                value -= gain
                break
            if closed[k]:
                _reopen_trick(s, &undos[k])
            _unplay(s)
        if not ok:
            break
    nline[0] = k
    while k > 0:
        k -= 1
        if closed[k]:
            _reopen_trick(s, &undos[k])
        _unplay(s)
