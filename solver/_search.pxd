# The double-dummy engine's contract.  Only ints cross into it: cards are ``suit * 16 + rank``
# (rank 0 is the two, 12 the ace), hands are 64-bit masks over those numbers, seats are numbered
# clockwise from 0.  Everything about the rules that is not trick-taking arrives as numbers per
# card (points to the trick's winner, pips toward Game); solver/search.py computes them.
#
# One fallible function, Engine._load (``except -1``), turns the Python arguments into a State
# and raises ValueError for bad ones.  Everything after it runs without the GIL and cannot fail
# (``noexcept nogil``): a limit or a signal marks the State aborted, and the search unwinds.
# Python's signal handlers are run from the search every so often, with the GIL taken briefly.
#
# Names: a value's bounds are ``lower`` and ``upper`` (``game_lower``/``game_upper`` for the
# part that is Game, ``points_lower``/``points_upper`` on points alone); a search's window is
# ``(alpha, beta)``.

from libc.stdint cimport int16_t, int64_t, uint8_t, uint64_t

cdef enum:
    MAX_SEATS = 4
    MAX_MOVES = 32
    MAX_CARDS = 64
    NO_TRUMP = 4
    NO_CARD = 255
    BIG = 30000                   # beyond any value: the bound of a node nothing bounds
    KINDS = 32                    # kinds of card the table keys tell apart


# One slot of the transposition table.  Entries are stored only at trick boundaries and hold
# bounds on the *future* value: the points still to come from this trick on, and Game.
cdef struct Entry:
    uint64_t key        # the position's hash: cards by owner and rank among those out, leader
    uint64_t check      # an independent second hash, so a false hit needs 128 bits to agree
    int16_t lower       # future value >= lower, when X's Game leads are >= (lower_a, lower_b)
    int16_t lower_a
    int16_t lower_b
    int16_t upper       # future value <= upper, when X's Game leads are <= (upper_a, upper_b)
    int16_t upper_a
    int16_t upper_b
    uint8_t best        # the card that last refuted or proved a bound (suit, rank among out)
    uint8_t generation  # an entry of another generation is empty
    uint8_t depth       # cards left in the hands: how costly the entry was to find
    uint8_t unused


# The whole search state: the problem (constant during a solve), the position (changing), and
# the answer, which narrows as the search goes on.
cdef struct State:
    # the problem
    int seats                     # 2, 3 or 4
    int seat_at[MAX_SEATS][MAX_SEATS]  # [leader][k]: the seat k places after the leader
    int trump                     # 0..3, or NO_TRUMP
    int sides                     # 2 or 3
    int xside                     # the side whose value is computed (the maximiser)
    int side[MAX_SEATS]           # side of each seat
    int points[MAX_CARDS]         # points a card in a trick gives the trick's winner
    int pips[MAX_CARDS]           # each card's count toward Game
    uint64_t scoring              # the cards whose points are not zero
    uint64_t pipping              # the cards whose pips are not zero
    uint8_t kind[MAX_CARDS]       # cards of one kind have the same points and pips
    uint8_t points_kind[MAX_CARDS]  # cards of one points kind have the same points
    int trick_bonus               # points for winning a trick itself (objective tricks)
    bint game                     # the Game point is at stake (off while Game is set aside)
    bint margin                   # value = X's points - the other side's; else X's points
    int game_swing                # how far Game can move the value: 0, 1, or 2 with margin
    bint strict                   # follow suit if able; else a trump may be played any time
    # objective win (see _win_search): the match, pegged as the deal goes
    bint win                      # the value is 1 if X wins the match in this deal, else 0
    bint peg_out                  # the first side to reach the target wins at once
    int target
    int run[3]                    # each side's match score: before play, and captures since
    int high_side                 # the side that pegs High (-1: none)
    int low_side                  # the side dealt Low when it goes to the holder (-1: none)
    int special_card[3]           # Low to the captor, the Jack, the five of five-for-five (-1)
    int special_points[3]         # what each of them is worth to its captor
    uint64_t special              # those cards: none plays alike with another card
    uint64_t won[3]               # the special cards each side has won
    # the position
    uint64_t hand[MAX_SEATS]
    int leader
    int trick[MAX_SEATS]          # cards played to the current trick, the lead first
    int trick_len
    int won_pips[3]               # Game pips won so far by each side
    int points_left               # points of the cards still in the hands
    int pips_left                 # Game pips of the cards still in the hands
    # the techniques in use (all on unless ALLFIVES_ENGINE_OFF switches some off, to measure
    # what each buys)
    bint use_bounds               # static bounds and quick tricks where a trick starts
    bint use_order                # the move ordering (off: highest card first)
    bint use_classes              # cards of one hand that play alike searched once
    bint points_first             # the value on points alone first, then Game
    bint points_probe             # where Game is open, the points alone searched first
    bint use_cashing              # bounds from the leader's side cashing its sure winners
    bint partner_lead             # a low lead to the partner's winner tried early
    bint seats_after              # the play to a trick weighs what the seats still to play hold
    int probe_cards               # with this many cards in the hands or more
    # the table
    Entry* table
    uint64_t table_mask           # entries - 1; buckets of four
    uint8_t generation
    # limits and counters
    int64_t nodes
    int64_t trick_nodes           # the nodes at a trick's start (DDS counts only these)
    int64_t node_limit            # 0: none
    double deadline               # monotonic seconds; 0: none
    bint poll_signals             # run Python's signal handlers now and then (main thread only)
    double next_poll              # monotonic seconds: when to run them next
    bint aborted                  # a limit or a signal stopped the search
    bint interrupted              # a signal handler raised; its exception is set, to re-raise
    # the answer: bounds on the root's future value, narrowed as they are proved (Engine.progress
    # reads them while the search runs), every root card's, and a line
    int lower
    int upper
    bint bounded                  # lower and upper hold this solve's bounds (not yet, once loaded)
    int static_lower              # the root's bounds before any search
    int static_upper
    bint maximiser                # X's side moves at the root
    int move_total                # root cards being valued one by one; 0 once done or if not
    int move_count                # root cards valued, the last perhaps still being valued
    int move_card[MAX_MOVES]
    int move_lower[MAX_MOVES]     # bounds on the future value after each of them
    int move_upper[MAX_MOVES]
    int line_length
    int line[MAX_CARDS]           # an optimal continuation


# A completed trick, as it was before it was closed.
cdef struct Undo:
    int leader
    int trick[MAX_SEATS]
    int winner_side
    int trick_pips


# A card played in a search on objective win, and the trick it closed, if it did.
cdef struct WinUndo:
    Undo undo
    bint closed
    int side
    int gain
    uint64_t cards


# What the cuts at a trick's start leave to the move loop of a node they do not settle.
cdef struct Node:
    int lower                     # bounds on the node's value (+-BIG inside a trick)
    int upper
    int first                     # the card to try first (the table's best), or -1
    int depth                     # cards left in the hands; 0 inside a trick: nothing is stored
    int lead_a                    # X's Game leads over the other sides, as the table keeps them
    int lead_b
    uint64_t key                  # the position's table keys
    uint64_t check


# ---- the nogil functions of _search.pyx -------------------------------------------------------
# Cython exports every function declared here through the module's __pyx_capi__, which takes
# its address: the C compiler then no longer inlines a function just because it has one caller,
# so the .pyx marks the hot ones inline.

# helpers
cdef void _init_keys() noexcept nogil                       # fill the random words of the keys
cdef uint64_t _mix(uint64_t x) noexcept nogil               # splitmix64's finaliser
cdef double _now() noexcept nogil                           # monotonic seconds
cdef int _highest(uint64_t m) noexcept nogil                # the highest card of a mask
cdef int _total(int* per_card, uint64_t m) noexcept nogil   # sum of points or pips over m
cdef uint64_t _up_to(uint64_t m) noexcept nogil             # cards up to m's highest

# playing and taking back cards
cdef void _play(State* s, int card) noexcept nogil          # the next seat plays card
cdef void _unplay(State* s) noexcept nogil                  # take back the trick's last card
cdef int _winning_index(State* s, int count) noexcept nogil # which card wins the trick so far
cdef int _close_trick(State* s, Undo* u) noexcept nogil     # score a full trick; X's gain
cdef void _reopen_trick(State* s, Undo* u) noexcept nogil   # undo _close_trick

# values and bounds
cdef int _game_value(State* s) noexcept nogil               # Game for X when play is over
cdef int _tricks_left(State* s) noexcept nogil              # tricks not yet completed
cdef int _run(uint64_t mine, uint64_t partner,
              uint64_t opponents) noexcept nogil        # a suit's winners, led in turn
cdef int _cash_plan(State* s, int seat, int* k) noexcept nogil  # a seat's sure winners
cdef int _cash_line(State* s, int* k, int* cashier) noexcept nogil  # the side on lead's
cdef int _least(int* per_card, uint64_t counted, uint64_t cards, int m,
                uint64_t* chosen) noexcept nogil            # the least m of cards
cdef int _banked(State* s, int cashier, int* k, int count, int* per_card, uint64_t valued,
                 uint64_t counted) noexcept nogil           # what cashing them banks at least
cdef void _trick_bounds(State* s, int* lower, int* upper) noexcept nogil  # objective tricks
cdef void _bounds(State* s, int alpha, int beta, int* lower, int* upper, int* game_lower,
                  int* game_upper) noexcept nogil           # static bounds on the future value
cdef void _value_bounds(State* s, int total, int sure_x, int sure_o, int game_lower,
                        int game_upper, int* lower, int* upper) noexcept nogil  # from the sure
cdef void _sure_pips(State* s, int* sure, uint64_t* top) noexcept nogil  # Game pips sure
cdef void _game_bounds(State* s, int* lower, int* upper) noexcept nogil  # what Game can give X
cdef void _game_from(State* s, int* sure, int* lower,
                     int* upper) noexcept nogil             # the same, given the sure pips
cdef int _sign(int lead, bint margin) noexcept nogil        # Game for X at a final pips lead
cdef int _clamp(int lead, int reach) noexcept nogil         # a lead past reach is decided
cdef void _game_leads(State* s, int* lead_a, int* lead_b) noexcept nogil  # X's clamped leads

# the transposition table
cdef void _table_keys(State* s, uint64_t* key, uint64_t* check, uint64_t* points_key,
                      uint64_t* points_check) noexcept nogil  # the position's hashes
cdef int _encode(State* s, int card) noexcept nogil         # card -> suit, rank among out
cdef int _decode(State* s, int code) noexcept nogil         # and back; -1 if gone
cdef Entry* _probe(State* s, uint64_t key, uint64_t check) noexcept nogil  # find, or NULL
cdef void _store(State* s, uint64_t key, uint64_t check, int depth, int alpha, int beta,
                 int value, int best, int lead_a, int lead_b) noexcept nogil  # record a result

# moves
cdef uint64_t _legal(State* s, int seat) noexcept nogil     # the seat's legal cards
cdef uint64_t _cards_out(State* s) noexcept nogil           # cards in hands and on the table
cdef bint _same(State* s, int a, int b) noexcept nogil      # same points (and pips if Game)
cdef uint64_t _others(State* s, int seat) noexcept nogil    # cards out not in seat's hand
cdef bint _equivalent(State* s, int a, int b, uint64_t others) noexcept nogil  # play alike
cdef int _representatives(State* s, uint64_t legal, uint64_t others,
                          int* cards) noexcept nogil        # one card per equivalent group
cdef bint _beats(State* s, int c, int w) noexcept nogil     # c beats the winning card w
cdef bint _ruffable(State* s, int seat, int suit) noexcept nogil  # an opponent can trump suit
cdef bint _opponents_hold(State* s, int seat, uint64_t cards) noexcept nogil
cdef bint _partner_holds(State* s, int seat, int card) noexcept nogil  # a partner of seat does
cdef bint _may_beat(State* s, int seat, int card) noexcept nogil  # seat, still to play, may
cdef int _strongest(State* s, int seat) noexcept nogil      # seat's strongest card to the trick
cdef bint _beaten_later(State* s, int seat, int card) noexcept nogil  # by an opponent to play
cdef bint _partner_wins_later(State* s, int seat, int w) noexcept nogil  # whatever seat plays
cdef void _order(State* s, int seat, int* cards, int n, int first,
                 uint64_t out) noexcept nogil               # most promising first
cdef int _moves(State* s, int* cards, int first) noexcept nogil  # ordered representatives

# the search
cdef bint _signalled() noexcept nogil                       # run Python's signal handlers
cdef bint _check_limits(State* s) noexcept nogil            # node limit, clock, signals
cdef int _last_trick(State* s) noexcept nogil               # a last trick, played out
cdef int _points_alone(State* s, int alpha, int beta,
                       int game) noexcept nogil             # Game decided: search points only
cdef bint _table_cut(State* s, Entry* e, int alpha, int beta, Node* node,
                     int* value) noexcept nogil             # a stored bound settles the node
cdef bint _points_table_cut(State* s, Entry* e, int alpha, int beta, int game_lower,
                            int game_upper, Node* node,
                            int* value) noexcept nogil      # one on points alone does
cdef bint _trick_start(State* s, int alpha, int beta, Node* node,
                       int* value) noexcept nogil           # all the cuts where a trick starts
cdef bint _points_probe(State* s, int alpha, int beta, int game_lower, int game_upper,
                        Node* node, int* value) noexcept nogil  # the points alone settle it
cdef int _search(State* s, int alpha, int beta) noexcept nogil  # fail-soft alpha-beta
cdef bint _at_least(State* s, int beta) noexcept nogil      # null-window test: value >= beta
cdef int _exact(State* s, int guess, int gain, int* lower,
                int* upper) noexcept nogil              # MTD(f) on gain + the value
cdef int _value_after(State* s, int card, int guess, int* lower,
                      int* upper) noexcept nogil            # exact value after a root card

# objective win
cdef int _win_play(State* s, int card, WinUndo* w) noexcept nogil  # 0/1 if it decides, else -1
cdef void _win_unplay(State* s, WinUndo* w) noexcept nogil
cdef int _captor(State* s, int card) noexcept nogil         # the side that won card, or -1
cdef int _win_final(State* s) noexcept nogil                # the end-of-deal points pegged
cdef int _win_reach(State* s, int side, bint sure) noexcept nogil  # most or sure match score
cdef int _win_bounds(State* s) noexcept nogil               # 0 or 1 if decided, else -1
cdef void _win_key(State* s, uint64_t* key, uint64_t* check) noexcept nogil
cdef int _win_search(State* s, int alpha, int beta) noexcept nogil  # 0/1 alpha-beta
cdef void _win_drive(State* s, bint all_moves, bint want_line) noexcept nogil
cdef void _win_line(State* s, int value) noexcept nogil

# the driver: the answer a solve returns
cdef void _root_bounds(State* s) noexcept nogil             # what the root cards valued prove
cdef void _drive(State* s, bint all_moves, bint want_line) noexcept nogil  # value, moves, line
cdef void _share_values(State* s, int seat, int n) noexcept nogil  # equivalent root cards
cdef void _line(State* s, int value) noexcept nogil         # follow optimal cards to the end


cdef class Engine:
    cdef State state               # of the solve running, or of the last one (see progress)
    cdef Entry* table
    cdef uint64_t entries
    cdef uint8_t generation
    cdef bint busy
    cdef readonly int64_t loads    # the solves loaded so far (Solver.progress tells them apart)
    cdef object last_problem
    cdef uint64_t mask             # the part of the table the current problem uses
    cdef object card_tables        # the (points, pips) the kinds below were sorted for
    cdef uint8_t kind[MAX_CARDS]
    cdef uint8_t points_kind[MAX_CARDS]
    cdef bint use_bounds           # the techniques in use (see State)
    cdef bint use_order
    cdef bint use_classes
    cdef bint points_first
    cdef bint points_probe
    cdef bint use_cashing
    cdef bint partner_lead
    cdef bint seats_after
    cdef public int probe_cards    # from how many cards in the hands the points are probed
    # validate the problem, the position and the limits, and load them into self.state
    cdef int _load(self, problem, hands, int leader, trick, won_pips, long long node_limit,
                   double time_limit, bint fresh) except -1
    cdef uint64_t _entries_for(self, int cards) noexcept  # how much of the table to use
    cdef int _sort_kinds(self, const unsigned char* pts,
                         const unsigned char* pps) except -1  # number the kinds of card
    cdef void _next_generation(self) noexcept   # forget the table's entries
