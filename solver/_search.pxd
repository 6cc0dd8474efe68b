# The double-dummy engine's contract.  Only ints cross into it: cards are ``suit * 16 + rank``
# (rank 0 is the two, 12 the ace), hands are 64-bit masks over those numbers, seats are numbered
# clockwise from 0.  Everything about the rules that is not trick-taking arrives as numbers per
# card (points to the trick's winner, pips toward Game); solver/search.py computes them.

from libc.stdint cimport int16_t, int64_t, uint8_t, uint64_t

cdef enum:
    MAX_SEATS = 4
    MAX_MOVES = 32
    NO_TRUMP = 4


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


# The whole search state: the problem (constant during a solve) and the position (changing).
cdef struct State:
    # the problem
    int seats                     # 2, 3 or 4
    int seat_at[MAX_SEATS][MAX_SEATS]  # [leader][k]: the seat k places after the leader
    int trump                     # 0..3, or NO_TRUMP
    int sides                     # 2 or 3
    int xside                     # the side whose value is computed (the maximiser)
    int side[MAX_SEATS]           # side of each seat
    int points[64]                # points a card in a trick gives the trick's winner
    int pips[64]                  # each card's count toward Game
    uint64_t scoring              # the cards whose points are not zero
    uint8_t kind[64]              # cards of one kind have the same points and pips
    uint8_t points_kind[64]       # cards of one points kind have the same points
    int trick_bonus               # points for winning a trick itself (objective tricks)
    bint game                     # the Game point is at stake (off while Game is set aside)
    bint margin                   # value = X's points - the other side's; else X's points
    int game_swing                # how far Game can move the value: 0, 1, or 2 with margin
    bint strict                   # follow suit if able; else a trump may be played any time
    # the position
    uint64_t hand[MAX_SEATS]
    int leader
    int trick[MAX_SEATS]          # cards played to the current trick, the lead first
    int trick_len
    int won_pips[3]               # Game pips won so far by each side
    int points_left               # points of the cards still in the hands
    int pips_left                 # Game pips of the cards still in the hands
    # the table
    Entry* table
    uint64_t table_mask           # entries - 1; buckets of four
    uint8_t generation
    # limits and counters
    int64_t nodes
    int64_t node_limit            # 0: none
    double deadline               # monotonic seconds; 0: none
    bint aborted


cdef class Engine:
    cdef Entry* table
    cdef uint64_t entries
    cdef uint8_t generation
    cdef bint busy
    cdef object last_problem
    cdef uint64_t mask             # the part of the table the current problem uses
    cdef object card_tables        # the (points, pips) the kinds below were sorted for
    cdef uint8_t kind[64]
    cdef uint8_t points_kind[64]
    cdef uint64_t _entries_for(self, int cards)
    cdef void _sort_kinds(self, const unsigned char* pts, const unsigned char* pps) except *
    cdef void _next_generation(self)
