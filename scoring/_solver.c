/*
 * scoring._solver: the move generator's hot core.
 *
 * Moves are generated on the GADDAG of a word graph (lexicon/graph_format.h)
 * in the usual anchor-based way (Gordon 1994): for every anchor (an empty
 * square next to a tile, or the centre on an empty board) and direction, the
 * GADDAG is walked leftwards from the anchor (from the end of the tiles that
 * follow it), then across the separator to the right. A move is generated from
 * the rightmost anchor it covers: leftwards the walk is free, rightwards it stops
 * before the next anchor, so every move is generated once and the squares that
 * constrain a move most (board tiles, hooks) come first in the walk. Per call, every empty square gets,
 * for both directions, the bitmask of letters its perpendicular word allows
 * and the sum of that word's tiles (cross-checks and cross-scores).
 *
 * Best-N mode. Every anchor is split in two searches: the moves that play the
 * whole rack and the others (at most one tile fewer). Each gets an upper bound
 * of its score: over every span the anchor can fill, the rack's values paired
 * best-first with the squares' multipliers (rearrangement inequality), the
 * board tiles, the cross-word parts and, for the whole rack, the bonus. The
 * whole-rack bound uses an anagram index of the lexicon (BingoIndex): a span
 * whose letters (rack + board tiles in it, 4 at most) make no word gets no
 * bonus, and a blank may only stand for letters of such anagrams. The searches
 * run best bound first and stop when no bound can reach the N-th score found.
 * With blanks, a search's bound is then worked out exactly (exact_bound: tiles
 * by cross-check, blanks counted apart) span by span; the walk keeps to the
 * spans whose own bound reaches the N-th best score.
 *
 * Python side (scoring/solver.py):
 *
 *   Tables(nletters, values, blank_value, lm, blm, wm, rack_size, bingo, centre, codes, play_max=rack_size)
 *     One per rule set and word-graph alphabet. values: bytes of 64 int32 (by
 *     letter code); lm, blm: bytes of 225*64 uint8, the letter multiplier of a
 *     real tile / of a blank standing for the letter, per square (row*15+col)
 *     and code (Literaki colours are expressed here); wm: 225 uint8 word
 *     multipliers; centre: the centre's square index; codes: dict letter -> code
 *     (to read Board cells). play_max: the most tiles a move places, and the
 *     number the bonus is for (the 7-among-8 game: racks of 8, play_max 7).
 *
 *   BingoIndex(nodes, dawg_root, nletters, rack_size)
 *     The anagram index of a word graph, built in memory (GIL released): for a
 *     file without its anagram section (format 1) or another rack size.
 *   BingoIndex.mapped(section)
 *     The index stored in a compiled file (lexicon/graph_format.h), checked
 *     (sizes, an empty slot per table) and probed in place: no work at load.
 *
 *   Tables.solve(nodes, dawg_root, gaddag_root, board, rack, top, count_all,
 *                vertical_first, bingo_index, core, move_type, snapshot_type,
 *                result_type, position, keep, ties)   (positional only)
 *       -> result_type(moves, count or None, elapsed_ms)
 *     nodes: the uint32 edges (a validated WordGraph's nodes_buffer()); board:
 *     the Board's 15 lists of 15 Tile/None; rack: bytes of letter codes, 0 =
 *     blank. top = 0: every legal move; top = N: the N best by score plus every
 *     move tied with the N-th score. count_all: also count every legal move
 *     (the search is then exhaustive). vertical_first: on the empty board, keep
 *     vertical moves (they are always counted). The answer is made here: the
 *     moves as move_type objects (subclasses of MoveBase, sharing one
 *     snapshot_type object, a subclass of SnapshotBase, which holds the 225
 *     codes read), best first (score, then notation as set_text() writes it),
 *     cut to the first `keep` (and the moves tied with the last kept if ties).
 *     The time spent in the search itself is summed in Tables.total_search_ns.
 *
 *   SolverBase: scoring.solver.Solver's base. _bind(...) keeps what Tables.solve
 *     takes besides the board and the rack (_bind_like(other): as other was
 *     bound, a copy of its references); solve(board, rack, *, top, count_all,
 *     first_vertical, ties) sends the usual call (a Board of the bound rule set,
 *     a rack in the bound cache) straight to Tables.solve and every other call
 *     to the bound Python method (Solver._solve_general).
 *
 * The search runs without the GIL. Compile with -DSOLVER_STATS (node counts)
 * or -DSOLVER_TRACE (per search) for tuning; both print to stderr.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "graph_format.h"
#include "anagram_index.h"

#define N 15
#define NSQ (N * N)
#define MAXC 64
#define MAXRACK 8
#define BLANK_BIT 0x80u
#define CODE_MASK 0x3Fu
#define UNKNOWN_CODE 63u
#define MAX_PAIRS 64
#define TILE_CACHE 1024
#define FEN_CP 4     /* code points of a letter as written, at most (set_text) ... */
#define LABEL_CP 6   /* ... and of a coordinate */
#define TEXT_CP (LABEL_CP + 1 + N * FEN_CP) /* ... and so of a move's text */

/* ------------------------------------------------------------------ */
/* Tables                                                               */
/* ------------------------------------------------------------------ */

typedef struct {
    PyObject_HEAD
    int nletters;
    uint64_t all_letters; /* bits 1..nletters */
    int32_t value[MAXC];
    int32_t blank_value;
    uint8_t lm[NSQ][MAXC];
    uint8_t blm[NSQ][MAXC];
    uint8_t lm_all_max[NSQ]; /* max of blm over all letters (what a blank can get) */
    uint8_t lm_real_max[NSQ]; /* max of lm over all letters */
    int lm_uniform;           /* every square's lm is the same for every letter */
    uint8_t wm[NSQ];
    int rack_size;
    int play_max; /* the most tiles a move places; the bonus is for exactly that many */
    int bingo;
    int centre;
    PyObject *codes; /* dict str -> int */
    /* the board codes of the Tile objects read so far (tiles are immutable): an open-addressing
     * table by address, holding a reference to each tile; emptied when half full */
    PyObject *tc_key[TILE_CACHE];
    uint8_t tc_code[TILE_CACHE];
    int tc_n;
    long long total_search_ns; /* the time every solve() so far spent in the search itself */
    /* the rare letters of the graph (rare_of: its edge array): at most RARE_PER_MILLE of a sample of its
     * edges (evenly spaced) carry them; a search may then be narrowed to the moves that hold one
     * (gen_required) */
    const void *rare_of;
    uint64_t rare;
    /* set_text (has_text): a code's letter as written (| 0x80: a blank's), and the coordinates of
     * (row * 15 + col) * 2 + vertical, as code points: a move's text, and the order of moves, from them */
    int has_text;
    uint8_t fen_len[256], label_len[2 * NSQ];
    uint32_t fen_cp[256][FEN_CP];
    uint32_t label_cp[2 * NSQ][LABEL_CP];
    uint16_t label_rank[2 * NSQ]; /* the coordinates' order (as a move's text begins: the coordinate, a space) */
} TablesObject;

static PyObject *s_letter, *s_blank;

/* ------------------------------------------------------------------ */
/* Anagram index                                                        */
/* ------------------------------------------------------------------ */

/* The tables, their keys and how they are built and stored: lexicon/anagram_index.h. Either built
 * here (a file without its anagram section) or mapped from the file's section and probed in place. */
_Static_assert(MAXC == ANA_MAXC && MAXRACK == ANA_MAX_RACK, "the anagram index's limits are the solver's");

typedef struct {
    PyObject_HEAD
    HSet t[ANA_TABLES]; /* tables one to five; those an older section lacks are empty (cap 0): such spans
                         * allowed */
    int nletters, rack_size, ready;
    uint64_t z[MAXC];
    Py_buffer section; /* the mapped section (mapped = 1): the tables point into it */
    int mapped;
} BingoIndexObject;

static int BingoIndex_init(BingoIndexObject *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"nodes", "dawg_root", "nletters", "rack_size", NULL};
    PyObject *nodes_obj;
    unsigned long droot;
    int nletters, rack_size;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "Okii", kwlist, &nodes_obj, &droot, &nletters, &rack_size))
        return -1;
    if (self->ready) {
        PyErr_SetString(PyExc_RuntimeError, "a BingoIndex is initialised once");
        return -1;
    }
    if (nletters < 1 || nletters > (int)KWG_MAX_LETTERS || rack_size < 1 || rack_size > MAXRACK) {
        PyErr_SetString(PyExc_ValueError, "bad alphabet size or rack size");
        return -1;
    }
    Py_buffer nb;
    if (PyObject_GetBuffer(nodes_obj, &nb, PyBUF_SIMPLE) < 0) return -1;
    size_t nnodes = (size_t)nb.len / 4;
    if (droot >= nnodes) {
        PyBuffer_Release(&nb);
        PyErr_SetString(PyExc_ValueError, "root out of the edge array");
        return -1;
    }
    self->nletters = nletters;
    self->rack_size = rack_size;
    ana_letter_keys(self->z);
    int failed;
    Py_BEGIN_ALLOW_THREADS
    failed = ana_build((const uint32_t *)nb.buf, nnodes, (uint32_t)droot, rack_size, self->z, self->t);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&nb);
    if (failed) {
        PyErr_NoMemory();
        return -1;
    }
    self->ready = 1;
    return 0;
}

/* BingoIndex.mapped(section): the index stored in a compiled file, used in place (the buffer is held) */
static PyObject *BingoIndex_mapped(PyTypeObject *type, PyObject *section) {
    BingoIndexObject *self = (BingoIndexObject *)type->tp_alloc(type, 0);
    if (!self) return NULL;
    if (PyObject_GetBuffer(section, &self->section, PyBUF_SIMPLE) < 0) {
        Py_DECREF(self);
        return NULL;
    }
    self->mapped = 1;
    if (((uintptr_t)self->section.buf & 7u) != 0) {
        PyErr_SetString(PyExc_ValueError, "the anagram section is not 8-byte aligned");
        Py_DECREF(self);
        return NULL;
    }
    const char *why = ana_map_section((const uint8_t *)self->section.buf, (size_t)self->section.len, self->t,
                                      self->z, &self->rack_size, &self->nletters);
    if (why) {
        memset(self->t, 0, sizeof self->t);
        PyErr_SetString(PyExc_ValueError, why);
        Py_DECREF(self);
        return NULL;
    }
    self->ready = 1;
    return (PyObject *)self;
}

static void BingoIndex_dealloc(BingoIndexObject *self) {
    if (self->mapped) {
        if (self->section.obj) PyBuffer_Release(&self->section);
    } else {
        for (int k = 0; k < ANA_TABLES; k++) hs_free(&self->t[k]);
    }
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *BingoIndex_nbytes(BingoIndexObject *self, void *closure) {
    (void)closure;
    size_t slots = 0;
    for (int k = 0; k < ANA_TABLES; k++) slots += self->t[k].cap;
    /* table one has values, the others keys only */
    return PyLong_FromSize_t((slots + self->t[0].cap) * sizeof(uint64_t));
}

static PyObject *BingoIndex_is_mapped(BingoIndexObject *self, void *closure) {
    (void)closure;
    return PyBool_FromLong(self->mapped);
}

static PyObject *BingoIndex_rack_size(BingoIndexObject *self, void *closure) {
    (void)closure;
    return PyLong_FromLong(self->rack_size);
}

static PyGetSetDef BingoIndex_getset[] = {
    {"nbytes", (getter)BingoIndex_nbytes, NULL, "memory held by the index (mapped or allocated)", NULL},
    {"in_place", (getter)BingoIndex_is_mapped, NULL, "the index is a file's section, used in place", NULL},
    {"rack_size", (getter)BingoIndex_rack_size, NULL, "the rack size the index is for", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

/* Whether the n letters of key `known` (bx: one of them) and b letters more (blanks) spell a word of n + b
 * letters: 1 or 0, or -1 when the index cannot tell. Table five for words of at most rack_size letters;
 * longer, table one for those of rack_size + 1 (the letters less one known, bit bx; or, with one blank, the
 * known ones and some letter more, any bit but 0) and, without a blank, tables two to four for those of
 * rack_size + 2 to + 4. Not told: more blanks, longer words, a table an older file lacks. */
static inline __attribute__((always_inline)) int index_spells(const BingoIndexObject *bi, uint64_t known, int n, int b,
                                                               int bx) {
    int R = bi->rack_size, len = n + b;
    if (b > ANA_SPELL_BLANKS) return -1;
    if (len <= R) return bi->t[4].cap ? hs_get(&bi->t[4], known + (uint64_t)b * bi->z[0]) != 0 : -1;
    if (len == R + 1) {
        if (b == 0) return bx ? (int)((hs_get(&bi->t[0], known - bi->z[bx]) >> bx) & 1u) : -1;
        if (b == 1) return (hs_get(&bi->t[0], known) & ~1ull) != 0;
        return -1;
    }
    if (b == 0 && len <= R + 4 && bi->t[len - R - 1].cap) return hs_get(&bi->t[len - R - 1], known) != 0;
    return -1;
}

/* BingoIndex.spells(codes, blanks): the index's answer for the letters `codes` (bytes of letter codes)
 * and `blanks` letters more (index_spells); None where it cannot tell. */
static PyObject *BingoIndex_spells(BingoIndexObject *self, PyObject *args) {
    Py_buffer cb;
    int blanks;
    if (!PyArg_ParseTuple(args, "y*i:spells", &cb, &blanks)) return NULL;
    const uint8_t *codes = (const uint8_t *)cb.buf;
    Py_ssize_t n = cb.len;
    uint64_t key = 0;
    int bad = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (codes[i] < 1 || codes[i] > self->nletters) bad = 1;
        else key += self->z[codes[i]];
    }
    PyBuffer_Release(&cb);
    if (bad || blanks < 0) {
        PyErr_SetString(PyExc_ValueError, "letter codes run from 1 to the alphabet size; blanks >= 0");
        return NULL;
    }
    int r = index_spells(self, key, (int)n, blanks, n ? codes[0] : 0);
    if (r < 0) Py_RETURN_NONE;
    return PyBool_FromLong(r);
}

static PyMethodDef BingoIndex_methods[] = {
    {"mapped", (PyCFunction)BingoIndex_mapped, METH_O | METH_CLASS,
     "mapped(section) -> BingoIndex: the anagram section of a compiled file, used in place (ValueError if bad)"},
    {"spells", (PyCFunction)BingoIndex_spells, METH_VARARGS,
     "spells(codes, blanks) -> bool | None: whether the letters and `blanks` more spell a word (table five)"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject BingoIndexType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "scoring._solver.BingoIndex",
    .tp_basicsize = sizeof(BingoIndexObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Anagram index of the words of rack_size .. rack_size + 4 letters, and of at most rack_size.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)BingoIndex_init,
    .tp_dealloc = (destructor)BingoIndex_dealloc,
    .tp_getset = BingoIndex_getset,
    .tp_methods = BingoIndex_methods,
};

/* What the index says about one rack: which whole-rack words can exist, and
 * which letters their blanks can stand for. With two blanks, also which pairs
 * of letters: partner tables p[Y] = the letters the other blank can then be. */
typedef struct {
    uint8_t nb, ok;     /* the number of board letters (2 to 4), and whether a word exists ... */
    uint8_t v[4];       /* ... their letters, in order */
    uint64_t bl;
    uint64_t p[MAXC];
} BingoPair;

typedef struct {
    const BingoIndexObject *bi; /* NULL: everything is allowed */
    uint64_t all;               /* all letters */
    uint64_t h;                 /* key of the rack's letters (blanks left out) */
    int blanks;
    int ok0;                    /* the rack alone makes a word */
    uint64_t bl0;               /* ... with blanks standing for these letters */
    uint64_t p0[MAXC];          /* ... in pairs */
    uint64_t thr;               /* letters X such that rack + X makes a word */
    uint64_t bl1[MAXC];         /* ... with blanks standing for these letters */
    int partial_bonus;          /* a rack larger than a move (7-among-8): spans of this many free squares
                                   may earn the bonus in the searches that are not whole-rack; 0 otherwise */
    uint64_t p1[MAXC][MAXC];    /* ... in pairs (by X) */
    BingoPair pairs[MAX_PAIRS]; /* rack + X + Y (+ W (+ U)), asked so far */
    int npairs;
} BingoInfo;

static void bingo_info_init(BingoInfo *b, const BingoIndexObject *bi, const uint8_t *rack, int len,
                            uint64_t all) {
    memset(b, 0, offsetof(BingoInfo, p1)); /* p1 and pairs: filled when used */
    b->npairs = 0;
    b->all = all;
    if (!bi || !bi->ready || bi->rack_size != len) return; /* no index: all allowed */
    for (int i = 0; i < len; i++) {
        if (rack[i] == 0)
            b->blanks++;
        else
            b->h += bi->z[rack[i] & CODE_MASK];
    }
    if (b->blanks > 2) return;
    b->bi = bi;
    int n = bi->nletters;
    if (b->blanks == 2) memset(b->p1, 0, sizeof b->p1);
    if (b->blanks == 0) {
        uint64_t v = hs_get(&bi->t[0], b->h);
        b->ok0 = (int)(v & 1u);
        b->thr = v & ~1ull;
        return;
    }
    for (int a = 1; a <= n; a++)
        for (int c = b->blanks == 2 ? a : 0; c <= (b->blanks == 2 ? n : 0); c++) {
            uint64_t key = b->h + bi->z[a] + (c ? bi->z[c] : 0);
            uint64_t v = hs_get(&bi->t[0], key);
            if (!v) continue;
            uint64_t letters = (1ull << a) | (c ? 1ull << c : 0);
            if (v & 1u) {
                b->ok0 = 1;
                b->bl0 |= letters;
                if (c) {
                    b->p0[a] |= 1ull << c;
                    b->p0[c] |= 1ull << a;
                }
            }
            uint64_t x = v & ~1ull;
            b->thr |= x;
            while (x) {
                int X = __builtin_ctzll(x);
                x &= x - 1;
                b->bl1[X] |= letters;
                if (c) {
                    b->p1[X][a] |= 1ull << c;
                    b->p1[X][c] |= 1ull << a;
                }
            }
        }
}

/* The cached answer for a span of 2 to 4 board tiles (letters xs[0 .. nb - 1]), asked of the index (tables
 * two to four) the first time; NULL when the cache is full or the index lacks the table. */
static const BingoPair *bingo_pair(BingoInfo *b, int nb, const int *xs) {
    uint8_t v[4] = {0, 0, 0, 0};
    for (int i = 0; i < nb; i++) { /* in order: one entry per multiset */
        int j = i;
        for (; j > 0 && v[j - 1] > xs[i]; j--) v[j] = v[j - 1];
        v[j] = (uint8_t)xs[i];
    }
    for (int i = 0; i < b->npairs; i++) {
        const BingoPair *pr = &b->pairs[i];
        if (pr->nb == nb && !memcmp(pr->v, v, sizeof v)) return pr;
    }
    const BingoIndexObject *bi = b->bi;
    const HSet *table = &bi->t[nb - 1]; /* tables two, three and four */
    if (b->npairs == MAX_PAIRS || !table->cap) return NULL;
    BingoPair *pr = &b->pairs[b->npairs++];
    uint64_t h = b->h, letters = 0;
    for (int i = 0; i < nb; i++) h += bi->z[v[i]];
    int ok = 0, n = bi->nletters;
    if (b->blanks == 2) memset(pr->p, 0, sizeof pr->p);
    if (b->blanks == 0) {
        ok = hs_get(table, h) != 0;
    } else {
        for (int a = 1; a <= n; a++)
            for (int c = b->blanks == 2 ? a : 0; c <= (b->blanks == 2 ? n : 0); c++)
                if (hs_get(table, h + bi->z[a] + (c ? bi->z[c] : 0))) {
                    ok = 1;
                    letters |= (1ull << a) | (c ? 1ull << c : 0);
                    if (c) {
                        pr->p[a] |= 1ull << c;
                        pr->p[c] |= 1ull << a;
                    }
                }
    }
    pr->nb = (uint8_t)nb;
    memcpy(pr->v, v, sizeof v);
    pr->ok = (uint8_t)ok;
    pr->bl = letters;
    return pr;
}

/* May the whole rack make a word in a span holding `nb` board tiles (letters
 * xs[0 .. 3]: the first four)? *bl: the letters the blanks can then stand for. */
static int bingo_allowed(BingoInfo *b, int nb, const int *xs, uint64_t *bl) {
    if (!b->bi || nb >= 5) {
        *bl = b->all;
        return 1;
    }
    if (nb == 0) {
        *bl = b->bl0;
        return b->ok0;
    }
    if (nb == 1) {
        *bl = b->bl1[xs[0]];
        return (int)((b->thr >> xs[0]) & 1u);
    }
    const BingoPair *pr = bingo_pair(b, nb, xs);
    if (!pr) {
        *bl = b->all;
        return 1;
    }
    *bl = pr->bl;
    return pr->ok;
}

/* With two blanks: the partner table of a span kind (see BingoInfo), ORed into p. */
static void bingo_partners(BingoInfo *b, int nb, const int *xs, uint64_t *p) {
    const uint64_t *src = NULL;
    if (b->bi && b->blanks == 2) {
        if (nb == 0) {
            src = b->p0;
        } else if (nb == 1) {
            src = b->p1[xs[0]];
        } else if (nb <= 4) {
            const BingoPair *pr = bingo_pair(b, nb, xs);
            if (pr) src = pr->p;
        }
    }
    for (int L = 0; L < MAXC; L++) p[L] |= src ? src[L] : b->all;
}

/* ------------------------------------------------------------------ */
/* Per-call data                                                        */
/* ------------------------------------------------------------------ */

typedef struct {
    uint8_t tile[N];      /* code | BLANK_BIT, 0 = empty */
    uint8_t has_cross[N]; /* the square has a perpendicular word */
    uint8_t anchor[N];
    uint8_t rightmost;    /* 1: a move belongs to the rightmost anchor it covers, 0: the leftmost */
    uint8_t active;       /* 0: no anchor (no tile on the line nor beside it): nothing else filled */
    int8_t leftlimit[N];  /* leftmost: the previous anchor in the line (-1: none, or rightmost) */
    int8_t rlimit[N];     /* for anchors: the last square a move from it may cover (rightmost: before the next
                           * anchor right of the tiles that follow it) */
    uint8_t sq[N];        /* square index of the position */
    uint8_t usable[N];    /* best-N: the empty square can take a tile of the rack (1), only a blank (2) */
    int32_t tval[N];      /* value of the board tile */
    int32_t cscore[N];    /* sum of the perpendicular word's tiles */
    uint64_t cross[N];    /* letters allowed on the empty square */
} Line;

typedef struct {
    int32_t score;
    uint8_t dir, line, start, len;
    uint8_t tiles[N];
} Move;

typedef struct {
    int32_t bound;
    uint8_t dir, line, pos;
    uint8_t whole;     /* 1: the moves that play the whole rack; 0: the others */
    uint8_t exact;     /* the bound is exact_bound's, and so are: */
    uint8_t narrow[2]; /* ... the spans whose own bound reached the N-th best score then (Exact.kept), for the
                        * moves with at most one blank, and with two */
    uint8_t two;       /* with two blanks or more: the moves with at most one are walked first, then (two = 1)
                        * the others, whose bound is bb[2] (run_search) */
    int32_t need;      /* ... which was this */
    int32_t bb[3];     /* the bounds of its moves with 0, 1, 2 or more blanks */
    uint8_t req;       /* ... and a letter (the rack has one such tile) that every move reaching the N-th best
                        * score holds (0: none): only the moves with it are searched (gen_required) */
    uint16_t starts;   /* whole: the squares where such a word may start ... */
    uint8_t end_of[N]; /* ... and where it then ends */
    uint64_t blanks;   /* whole: the letters its blanks may stand for */
    uint8_t nkinds;    /* whole: the spans' board tiles (count up to 5: 5 or more, first four letters) */
    uint8_t kind[N + 1][5];
} SearchRec;

typedef struct {
    const uint32_t *nodes;
    const TablesObject *t;
    const Line *ln;
    int dir, line;
    int anchor;              /* the walk's pivot: the anchor, or the end of the tile run right of it */
    int must;                /* the anchor: the word must reach left to it ... */
    int must_right;          /* ... and right to this square (gen_required; else 0) */
    int leftlimit, rlimit, start;
    int counts[MAXC];
    int blanks;
    uint64_t rack_mask;
    int placed, rack_total;
    int limit;               /* the most tiles a move of this search places */
    int need_all;            /* only moves of given spans are wanted (the whole rack's, or exact_bound's): */
    uint32_t starts;         /* ... starting on these squares */
    uint16_t span_ends[N];   /* ... and ending on these (bits) */
    int8_t end_max[N];       /* ... the last of them */
    int end;                 /* the last square the word may cover */
    uint64_t blank_letters;  /* the letters a blank may stand for in this search */
    int pair_mode;           /* whole rack with two blanks: the second blank by partner[first] */
    uint64_t partner[MAXC];
    uint8_t word[N];
    /* output */
    Move *moves;             /* the caller's small buffer (moves_inline) until it is full, then malloc'd */
    int moves_inline;
    size_t n, cap, compact_at;
    int oom;
    long long count;
    int top;
    int32_t *heap;
    int heap_n;
    int discard;
    int blanks_left_max;     /* only the moves that leave at most this many blanks are wanted (the second search
                              * of a two-blank rack, see run_search: its walk finds the others too) */
    int tie_rank;            /* top=1 without ties: the best move's text is wanted, not its ties (see run_search) */
    int best_rank;           /* ... the least coordinate rank among the moves of the best score so far */
#ifdef SOLVER_STATS
    long long nvisit;
#endif
} Gen;

/* ---- the best `top` scores (a min-heap) and the kept moves ----------------- */

static void heap_push(Gen *g, int32_t v) {
    int i = g->heap_n++;
    int32_t *h = g->heap;
    while (i > 0) {
        int p = (i - 1) >> 1;
        if (h[p] <= v) break;
        h[i] = h[p];
        i = p;
    }
    h[i] = v;
}

static void heap_replace_min(Gen *g, int32_t v) {
    int32_t *h = g->heap;
    int n = g->heap_n, i = 0;
    for (;;) {
        int c = 2 * i + 1;
        if (c >= n) break;
        if (c + 1 < n && h[c + 1] < h[c]) c++;
        if (h[c] >= v) break;
        h[i] = h[c];
        i = c;
    }
    h[i] = v;
}

/* The N-th best score so far (moves below it are of no use), or INT32_MIN. */
static inline int32_t threshold(const Gen *g) {
    return (g->top && g->heap_n == g->top) ? g->heap[0] : INT32_MIN;
}

static void compact(Gen *g) {
    int32_t th = threshold(g);
    size_t k = 0;
    for (size_t i = 0; i < g->n; i++)
        if (g->moves[i].score >= th) {
            if (k != i) g->moves[k] = g->moves[i];
            k++;
        }
    g->n = k;
    g->compact_at = 2 * k + 1024;
}

/* The index of a move's coordinate (set_text's order: (row * 15 + col) * 2 + vertical) from its direction,
 * line and first square. */
static inline int label_index(int dir, int line, int start) {
    int row = dir ? start : line, col = dir ? line : start;
    return (row * N + col) * 2 + dir;
}

/* The rank of the coordinate of a move of the walk starting at `start` (TablesObject.label_rank). */
static inline int move_rank(const Gen *g, int start) {
    return g->t->label_rank[label_index(g->dir, g->line, start)];
}

static void record(Gen *g, int start, int end, int32_t score) {
    if (g->placed == g->t->play_max) score += g->t->bingo;
    g->count++;
    if (g->discard || g->oom || g->blanks > g->blanks_left_max) return;
    if (g->top) {
        if (g->heap_n < g->top) {
            heap_push(g, score);
            if (g->tie_rank) g->best_rank = move_rank(g, start);
        } else if (score < g->heap[0]) {
            return;
        } else if (score > g->heap[0]) {
            heap_replace_min(g, score);
            if (g->tie_rank) g->best_rank = move_rank(g, start);
        } else if (g->tie_rank && move_rank(g, start) < g->best_rank) {
            g->best_rank = move_rank(g, start);
        }
    }
    if (g->n == g->cap) {
        size_t cap = 2 * g->cap; /* the first cap: the caller's INLINE_MOVES */
        Move *m;
        if (g->moves_inline) { /* the caller's small buffer is full: to the heap */
            m = (Move *)malloc(cap * sizeof(Move));
            if (m) memcpy(m, g->moves, g->n * sizeof(Move));
        } else {
            m = (Move *)realloc(g->moves, cap * sizeof(Move));
        }
        if (!m) {
            g->oom = 1;
            return;
        }
        g->moves = m;
        g->moves_inline = 0;
        g->cap = cap;
    }
    Move *m = &g->moves[g->n++];
    m->score = score;
    m->dir = (uint8_t)g->dir;
    m->line = (uint8_t)g->line;
    m->start = (uint8_t)start;
    m->len = (uint8_t)(end - start + 1);
    memcpy(m->tiles, g->word + start, (size_t)(end - start + 1));
    if (g->top && g->n >= g->compact_at) compact(g);
}

/* ---- the GADDAG walk ---------------------------------------------------------- */

/* The walk's running sums travel as arguments (registers, not the Gen in memory): ms, the main word's
 * tiles; wmul, its word multiplier; cs, the cross words' scores. Each function comes twice: for the searches
 * whose moves' spans are given (_w, g->need_all: the whole-rack searches, each start's one end; the narrowed
 * ones, see run_search) and the others (_n), the test made once by the compiler. */
static void gen_left_n(Gen *g, int pos, uint32_t list, int32_t ms, int32_t wmul, int32_t cs);
static void gen_right_n(Gen *g, int pos, uint32_t list, int32_t ms, int32_t wmul, int32_t cs);
static void gen_left_w(Gen *g, int pos, uint32_t list, int32_t ms, int32_t wmul, int32_t cs);
static void gen_right_w(Gen *g, int pos, uint32_t list, int32_t ms, int32_t wmul, int32_t cs);

#define ALWAYS_INLINE static inline __attribute__((always_inline))

/* After the edge `e` for the square `pos` (left of or at the pivot: the square after it is free);
 * left_free: no board tile left of pos. */
ALWAYS_INLINE void left_step(Gen *g, int pos, uint32_t e, int32_t ms, int32_t wmul, int32_t cs, int left_free,
                             const int whole) {
    int anchor = g->anchor;
    int start_ok = pos <= g->must && (!whole || ((g->starts >> pos) & 1u));
    if (KWG_ACCEPTS(e) && left_free && anchor > pos && start_ok && (!whole || ((g->span_ends[pos] >> anchor) & 1u)) &&
        anchor >= g->must_right && (anchor == N - 1 || !g->ln->tile[anchor + 1]))
        record(g, pos, anchor, ms * wmul + cs);
    uint32_t child = KWG_CHILD(e);
    if (!child) return;
    if (pos > 0 && (!left_free || (pos - 1 > g->leftlimit && g->placed < g->limit &&
                                          (!whole || (g->starts & ((1u << pos) - 1u)))))) {
        if (whole)
            gen_left_w(g, pos - 1, child, ms, wmul, cs);
        else
            gen_left_n(g, pos - 1, child, ms, wmul, cs);
    }
    if (left_free && start_ok && anchor < N - 1 && g->placed < g->limit) {
        uint32_t se = g->nodes[child];
        if (KWG_TILE(se) == 0 && KWG_CHILD(se)) {
            g->start = pos;
            g->end = whole ? g->end_max[pos] : g->rlimit;
            if (anchor < g->end) {
                if (whole)
                    gen_right_w(g, anchor + 1, KWG_CHILD(se), ms, wmul, cs);
                else
                    gen_right_n(g, anchor + 1, KWG_CHILD(se), ms, wmul, cs);
            }
        }
    }
}

/* After the edge `e` for the square `pos` (right of the anchor); right_free: no board tile right of pos. */
ALWAYS_INLINE void right_step(Gen *g, int pos, uint32_t e, int32_t ms, int32_t wmul, int32_t cs, int right_free,
                              const int whole) {
    if (KWG_ACCEPTS(e) && right_free && (!whole || ((g->span_ends[g->start] >> pos) & 1u)) && pos >= g->must_right)
        record(g, g->start, pos, ms * wmul + cs);
    uint32_t child = KWG_CHILD(e);
    if (child && pos < g->end && (!right_free || g->placed < g->limit)) {
        if (whole)
            gen_right_w(g, pos + 1, child, ms, wmul, cs);
        else
            gen_right_n(g, pos + 1, child, ms, wmul, cs);
    }
}

#ifdef SOLVER_STATS
#define STAT_NODE() g->nvisit++
#else
#define STAT_NODE()
#endif

/* The body of the walk: the square `pos` with the GADDAG sibling list `list`. A board tile is followed;
 * on an empty square every letter of the list that the cross-check allows is tried with a rack tile and
 * with a blank (the list is in letter order: it is read up to the last such letter). */
ALWAYS_INLINE void walk(Gen *g, int pos, uint32_t list, int32_t ms, int32_t wmul, int32_t cs, const int right,
                        const int whole) {
    STAT_NODE();
    const Line *ln = g->ln;
    const uint32_t *nodes = g->nodes;
    uint8_t bt = ln->tile[pos];
    /* free_on: no board tile beyond pos in the walk's direction (read once: the walk's byte stores may
     * alias it) */
#define FREE_ON (right ? pos == N - 1 || !ln->tile[pos + 1] : pos == 0 || !ln->tile[pos - 1])
    if (bt) {
        uint32_t L = bt & CODE_MASK;
        for (uint32_t i = list;; i++) {
            uint32_t e = nodes[i];
            uint32_t T = KWG_TILE(e);
            if (T == L) {
                const int free_on = FREE_ON;
                g->word[pos] = bt;
                if (right)
                    right_step(g, pos, e, ms + ln->tval[pos], wmul, cs, free_on, whole);
                else
                    left_step(g, pos, e, ms + ln->tval[pos], wmul, cs, free_on, whole);
                return;
            }
            if (T > L || KWG_IS_END(e)) return;
        }
    }
    uint64_t ballow = g->blanks ? g->blank_letters : 0;
    uint64_t allowed = ln->cross[pos] & (g->rack_mask | ballow);
    if (!allowed) return;
    const int free_on = FREE_ON;
#undef FREE_ON
    uint32_t last = 63u - (uint32_t)__builtin_clzll(allowed);
    const TablesObject *t = g->t;
    int sq = ln->sq[pos];
    int32_t wm = t->wm[sq];
    int32_t cw = ln->has_cross[pos] ? wm : 0;
    int32_t cscore = ln->cscore[pos];
    int32_t nwmul = wmul * wm;
    g->placed++;
    for (uint32_t i = list;; i++) {
        uint32_t e = nodes[i];
        uint32_t L = KWG_TILE(e);
        if (L > last) break;
        if ((allowed >> L) & 1u) {
            if (g->counts[L]) {
                int32_t tv = t->value[L] * t->lm[sq][L];
                g->word[pos] = (uint8_t)L;
                if (--g->counts[L] == 0) g->rack_mask &= ~(1ull << L);
                if (right)
                    right_step(g, pos, e, ms + tv, nwmul, cs + (cscore + tv) * cw, free_on, whole);
                else
                    left_step(g, pos, e, ms + tv, nwmul, cs + (cscore + tv) * cw, free_on, whole);
                if (g->counts[L]++ == 0) g->rack_mask |= 1ull << L;
            }
            if ((ballow >> L) & 1u) {
                int32_t tv = t->blank_value * t->blm[sq][L];
                g->word[pos] = (uint8_t)(L | BLANK_BIT);
                uint64_t save_bl = g->blank_letters;
                if (whole && g->pair_mode && g->blanks == 2) g->blank_letters = g->partner[L];
                g->blanks--;
                if (right)
                    right_step(g, pos, e, ms + tv, nwmul, cs + (cscore + tv) * cw, free_on, whole);
                else
                    left_step(g, pos, e, ms + tv, nwmul, cs + (cscore + tv) * cw, free_on, whole);
                g->blanks++;
                g->blank_letters = save_bl;
            }
        }
        if (KWG_IS_END(e)) break;
    }
    g->placed--;
}

static void gen_left_n(Gen *g, int pos, uint32_t list, int32_t ms, int32_t wmul, int32_t cs) {
    walk(g, pos, list, ms, wmul, cs, 0, 0);
}

static void gen_right_n(Gen *g, int pos, uint32_t list, int32_t ms, int32_t wmul, int32_t cs) {
    walk(g, pos, list, ms, wmul, cs, 1, 0);
}

static void gen_left_w(Gen *g, int pos, uint32_t list, int32_t ms, int32_t wmul, int32_t cs) {
    walk(g, pos, list, ms, wmul, cs, 0, 1);
}

static void gen_right_w(Gen *g, int pos, uint32_t list, int32_t ms, int32_t wmul, int32_t cs) {
    walk(g, pos, list, ms, wmul, cs, 1, 1);
}

/* The walk's line and the squares the moves of the anchor `pos` may cover (see gen_anchor). */
static void anchor_setup(Gen *g, const Line *ln, int dir, int line, int pos) {
    g->ln = ln;
    g->dir = dir;
    g->line = line;
    g->must = pos;
    g->rlimit = ln->rlimit[pos];
    g->leftlimit = ln->leftlimit[pos];
}

/* The moves covering the anchor `pos` and no anchor left of it. When tiles
 * follow the anchor, the walk starts from the last of them (the GADDAG then
 * checks them first) and must reach the anchor before the word may start. */
static void gen_anchor(Gen *g, const Line *ln, int dir, int line, int pos, uint32_t gaddag_root) {
    int pivot = pos;
    while (pivot < N - 1 && ln->tile[pivot + 1]) pivot++;
    anchor_setup(g, ln, dir, line, pos);
    g->anchor = pivot;
    g->placed = 0;
    if (g->need_all)
        gen_left_w(g, pivot, gaddag_root, 0, 1, 0);
    else
        gen_left_n(g, pivot, gaddag_root, 0, 1, 0);
}

static inline uint32_t find_edge(const uint32_t *nodes, uint32_t list, uint32_t L) {
    if (!list) return 0;
    for (uint32_t i = list;; i++) {
        uint32_t e = nodes[i];
        uint32_t T = KWG_TILE(e);
        if (T == L) return e;
        if (T > L || KWG_IS_END(e)) return 0;
    }
}

/* The moves of gen_anchor's anchor `a` that place the rack's one tile of the letter L: from each square where
 * it may go, the GADDAG walk that starts with it there (a move holds it once, so is found once). */
static void gen_required(Gen *g, const Line *ln, int dir, int line, int a, uint32_t gaddag_root, int L) {
    uint32_t e = find_edge(g->nodes, gaddag_root, (uint32_t)L);
    if (!e) return;
    const TablesObject *t = g->t;
    anchor_setup(g, ln, dir, line, a);
    g->must_right = a;
    for (int q = g->leftlimit + 1; q <= g->rlimit; q++) {
        if (ln->tile[q] || !((ln->cross[q] >> L) & 1u)) continue;
        int empties = 0; /* from q to a: the move places a tile on each */
        for (int i = q < a ? q : a; i <= (q < a ? a : q); i++) empties += !ln->tile[i];
        if (empties > g->limit) continue;
        int sq = ln->sq[q];
        int32_t wm = t->wm[sq], tv = t->value[L] * t->lm[sq][L];
        g->anchor = q;
        g->placed = 1;
        g->word[q] = (uint8_t)L;
        if (--g->counts[L] == 0) g->rack_mask &= ~(1ull << L);
        int32_t cs = ln->has_cross[q] ? (ln->cscore[q] + tv) * wm : 0;
        if (g->need_all)
            left_step(g, q, e, tv, wm, cs, q == 0 || !ln->tile[q - 1], 1);
        else
            left_step(g, q, e, tv, wm, cs, q == 0 || !ln->tile[q - 1], 0);
        if (g->counts[L]++ == 0) g->rack_mask |= 1ull << L;
    }
    g->must_right = 0;
}

/* ---- cross-checks ------------------------------------------------------------ */

/* Letters L among `want` such that pre + L + suf is a word (pre, suf: codes in reading order). */
static uint64_t cross_mask(const uint32_t *nodes, uint32_t droot, uint32_t groot, const uint8_t *pre, int k,
                           const uint8_t *suf, int m, uint64_t want) {
    uint64_t mask = 0;
    if (m == 0 || (k > m && k > 0)) {
        /* DAWG: walk the prefix, then each next letter L and the suffix. */
        uint32_t list = droot;
        for (int i = 0; i < k; i++) {
            uint32_t e = find_edge(nodes, list, pre[i]);
            if (!e) return 0;
            list = KWG_CHILD(e);
        }
        if (!list) return 0;
        for (uint32_t i = list;; i++) {
            uint32_t e = nodes[i];
            uint32_t L = KWG_TILE(e);
            if (m == 0) {
                if (KWG_ACCEPTS(e)) mask |= 1ull << L;
            } else if ((want >> L) & 1u) {
                uint32_t sub = KWG_CHILD(e), e2 = 0;
                int j;
                for (j = 0; j < m; j++) {
                    e2 = find_edge(nodes, sub, suf[j]);
                    if (!e2) break;
                    sub = KWG_CHILD(e2);
                }
                if (j == m && KWG_ACCEPTS(e2)) mask |= 1ull << L;
            }
            if (KWG_IS_END(e)) break;
        }
        return mask;
    }
    /* GADDAG, full reversal: suf reversed, L, pre reversed. */
    uint32_t list = groot;
    for (int i = m - 1; i >= 0; i--) {
        uint32_t e = find_edge(nodes, list, suf[i]);
        if (!e) return 0;
        list = KWG_CHILD(e);
    }
    if (!list) return 0;
    for (uint32_t i = list;; i++) {
        uint32_t e = nodes[i];
        uint32_t L = KWG_TILE(e);
        if ((want >> L) & 1u) {
            if (k == 0) {
                if (KWG_ACCEPTS(e)) mask |= 1ull << L;
            } else {
                uint32_t sub = KWG_CHILD(e), e2 = 0;
                int j;
                for (j = k - 1; j >= 0; j--) {
                    e2 = find_edge(nodes, sub, pre[j]);
                    if (!e2) break;
                    sub = KWG_CHILD(e2);
                }
                if (j < 0 && KWG_ACCEPTS(e2)) mask |= 1ull << L;
            }
        }
        if (KWG_IS_END(e)) break;
    }
    return mask;
}

/* Fills the 15 lines of direction `dir` (0: rows, horizontal moves; 1: columns). */
static void prepare_lines(const TablesObject *t, const uint32_t *nodes, uint32_t droot, uint32_t groot,
                          const uint8_t *board, int empty, int dir, int nblanks, uint64_t want, Line *lines) {
    /* the board seen along the lines, with a border of empty squares (no bounds to test) */
#define W2 (N + 2)
#define PB(l, p) pb[((l) + 1) * W2 + (p) + 1]
    uint8_t pb[W2 * W2];
    memset(pb, 0, sizeof pb);
    uint8_t occupied[N + 2] = {0}; /* occupied[l + 1]: line l holds a tile */
    for (int l = 0; l < N; l++)
        for (int p = 0; p < N; p++) {
            uint8_t b = dir ? board[p * N + l] : board[l * N + p];
            PB(l, p) = b;
            occupied[l + 1] |= b != 0;
        }
    for (int l = 0; l < N; l++) {
        Line *ln = &lines[l];
        ln->active = empty ? (uint8_t)(l == (dir ? t->centre % N : t->centre / N))
                           : (uint8_t)(occupied[l] || occupied[l + 1] || occupied[l + 2]);
        if (!ln->active) continue;
        for (int p = 0; p < N; p++) {
            uint8_t b = PB(l, p);
            int sq = dir ? p * N + l : l * N + p;
            ln->tile[p] = b;
            ln->sq[p] = (uint8_t)sq;
            ln->anchor[p] = 0;
            ln->rlimit[p] = N - 1;
            ln->leftlimit[p] = -1;
            ln->has_cross[p] = 0;
            ln->cscore[p] = 0;
            ln->cross[p] = t->all_letters;
            if (b) {
                ln->tval[p] = (b & BLANK_BIT) ? t->blank_value : t->value[b & CODE_MASK];
                continue;
            }
            ln->tval[p] = 0;
            if (empty) {
                if (sq == t->centre) ln->anchor[p] = 1;
                continue;
            }
            int up = PB(l - 1, p), down = PB(l + 1, p);
            if (up || down || PB(l, p - 1) || PB(l, p + 1)) ln->anchor[p] = 1;
            if (up || down) {
                uint8_t pre[N], suf[N];
                int k = 0, m = 0, i = l - 1;
                int32_t cs = 0;
                while (PB(i, p)) i--;
                for (int j = i + 1; j < l; j++) {
                    uint8_t c = PB(j, p);
                    pre[k++] = c & CODE_MASK;
                    cs += (c & BLANK_BIT) ? t->blank_value : t->value[c & CODE_MASK];
                }
                for (int j = l + 1; PB(j, p); j++) {
                    uint8_t c = PB(j, p);
                    suf[m++] = c & CODE_MASK;
                    cs += (c & BLANK_BIT) ? t->blank_value : t->value[c & CODE_MASK];
                }
                ln->has_cross[p] = 1;
                ln->cscore[p] = cs;
                ln->cross[p] = cross_mask(nodes, droot, groot, pre, k, suf, m, want) & want;
            }
        }
        /* a move is generated from the rightmost anchor it covers: rightwards, up to the next
         * anchor after the tiles that follow the anchor */
        /* Which assignment. The GADDAG walk starts at the anchor and goes left first: with the
         * leftmost assignment it first fills the free squares left of the anchor (up to the
         * previous anchor) and meets the board tiles and hooks on its right last; with the
         * rightmost one it meets them first and fills the free squares right of the pivot last.
         * With blanks, a free stretch walked first costs dearly: the rightmost assignment unless
         * its free stretches are much longer (measured on the dev sets with callgrind); without
         * blanks the leftmost one (its bounds order the searches better there). */
        int next = N, prev = -1, free_left = 0, free_right = 0;
        for (int p = N - 1; p >= 0 && nblanks > 0; p--) {
            if (!ln->anchor[p]) continue;
            int pivot = p;
            while (pivot < N - 1 && ln->tile[pivot + 1]) pivot++;
            int f = next - 1 - pivot;
            free_right += f < 6 ? f : 6;
            next = p;
        }
        for (int p = 0; p < N && nblanks > 0; p++) {
            if (!ln->anchor[p]) continue;
            int f = p > 0 && ln->tile[p - 1] ? 0 : p - 1 - prev;
            free_left += f < 6 ? f : 6;
            prev = p;
        }
        ln->rightmost = (uint8_t)(nblanks > 0 && free_right <= 3 * free_left);
        next = N;
        prev = -1;
        for (int p = 0; p < N; p++)
            if (ln->anchor[p] && !ln->rightmost) {
                ln->leftlimit[p] = (int8_t)prev;
                prev = p;
            }
        for (int p = N - 1; p >= 0; p--)
            if (ln->anchor[p] && ln->rightmost) {
                ln->rlimit[p] = (int8_t)(next - 1); /* anchors are empty: next is past the tiles */
                next = p;
            }
    }
#undef PB
#undef W2
}

/* ---- upper bounds (best-N) ------------------------------------------------------ */

/* A span's bound once its squares are walked (k free squares: lmq, the best letter multiplier of each;
 * cwq, its cross word's multiplier): the board tiles' values B and the cross words C at the word multiplier
 * W, each rack value (best first) on the best free square left. A whole-rack span (the bonus included)
 * also records its start, end and board letters for the search; -1 when it takes another number of tiles
 * or the anagram index allows no word there. */
static inline int32_t walked_bound(const TablesObject *t, const int32_t *lmq, const int32_t *cwq,
                                   const uint8_t *boq, int k, int nblanks, int32_t W, int32_t B, int32_t C, const int32_t *rv,
                                   int R, int whole, int nb, const int *xs, int start, int end, BingoInfo *binfo,
                                   SearchRec *rec) {
    uint64_t bl = 0;
    if (whole && (k != R || !bingo_allowed(binfo, nb, xs, &bl))) return -1;
    /* squares only a blank fits (boq) take blanks, no rack value: the others are paired with the values */
    int32_t coef[N]; /* the other squares' coefficients, best first, against the rack values */
    int32_t blank_part = 0;
    int n = 0, m = 0;
    for (int i = 0; i < k; i++) {
        int32_t c = lmq[i] * W + cwq[i];
        if (nblanks && boq[i]) {
            m++;
            blank_part += c * t->blank_value;
            continue;
        }
        int z = n++;
        while (z > 0 && coef[z - 1] < c) {
            coef[z] = coef[z - 1];
            z--;
        }
        coef[z] = c;
    }
    /* a whole-rack span is the word's exact extent; the others bound their shorter spans too (whose
     * squares are among these): the formula holds for them whatever m */
    if (whole && m > nblanks) return -1;
    int32_t bound = W * B + C + blank_part;
    for (int i = 0; i < n; i++) bound += coef[i] * rv[i];
    if (!whole && k == binfo->partial_bonus) bound += t->bingo;
    if (whole) {
        bound += t->bingo;
        rec->blanks |= bl;
        rec->starts |= (uint16_t)(1u << start);
        rec->end_of[start] = (uint8_t)end;
        rec->kind[rec->nkinds][0] = (uint8_t)(nb > 5 ? 5 : nb);
        for (int i = 0; i < 4; i++) rec->kind[rec->nkinds][1 + i] = (uint8_t)xs[i];
        rec->nkinds++;
    }
    return bound;
}

static inline int32_t max_i32(int32_t a, int32_t b) { return a > b ? a : b; }

/* The rack by letter for exact_bound: class c (letter letter[c], blanks as letter 0) has cnt[c] tiles; a
 * state counts the tiles used of each class (mixed radix, stride[c]); left[s]: bit c if state s leaves a
 * tile of class c; the states by number of tiles used: bycount[from[n] .. from[n + 1] - 1]. */
typedef struct {
    int ncls;
    uint8_t letter[MAXRACK], cnt[MAXRACK];
    int stride[MAXRACK];
    int from[MAXRACK + 2];
    uint16_t left[1 << MAXRACK];
    uint8_t bycount[1 << MAXRACK];
    int32_t bb[3];  /* the bounds found so far of the moves with 0, 1, 2 or more blanks (-1: none) */
    uint8_t has[1 << MAXRACK];   /* the classes a state holds a tile of */
    uint32_t single;             /* the classes of a rare letter (Query.rare) the rack has one tile of */
    int32_t wo[MAXRACK];         /* the bounds found so far of the moves without a tile of that class */
    /* the words the tiles spell: with the anagram index's table five (bi, else NULL), exact_bound drops the
     * states whose tiles, with the span's board tiles, spell no word (index_spells) */
    const BingoIndexObject *bi;
    uint64_t skey[1 << MAXRACK];  /* by state, the key of its tiles but blanks ... */
    uint8_t nknown[1 << MAXRACK]; /* ... their number ... */
    uint8_t nblank[1 << MAXRACK]; /* ... and its blanks */
    uint8_t spells[1 << MAXRACK]; /* spans without board tiles: 0 not asked yet, 1 spells a word, 2 does not */
    int two;                     /* the rack has two blanks (or more) */
    int32_t need;                /* exact_bound also marks the spans whose bound reaches this, for the moves */
    uint16_t span_ends[2][N];    /* ... with at most one blank [0] and with two [1]: by start, their ends (bits) */
    int nspans, nkept[2];        /* ... how many spans were bounded, how many marked */
    uint16_t kept[4 * NSQ][2][N]; /* the marked spans of the searches that keep to them (SearchRec.narrow) */
} Exact;

#define RARE_SAMPLE 65536  /* the rare letters: from a sample of about this many edges ... */
#ifndef RARE_PER_MILLE
#define RARE_PER_MILLE 1   /* ... those on at most 1 in 1000 */
#endif
#define FIRSTS 6 /* see run_search: the first walks before a second search of a two-blank rack may come ahead */

static void exact_init(Exact *ex, const Gen *g, const BingoIndexObject *bi, uint64_t rare) {
    int n = 0, st = 1, tiles = 0;
    for (int L = 1; L < MAXC; L++)
        if (g->counts[L]) {
            ex->letter[n] = (uint8_t)L;
            ex->cnt[n++] = (uint8_t)g->counts[L];
        }
    if (g->blanks) {
        ex->letter[n] = 0;
        ex->cnt[n++] = (uint8_t)g->blanks;
    }
    for (int c = 0; c < n; c++) {
        ex->stride[c] = st;
        st *= ex->cnt[c] + 1;
        tiles += ex->cnt[c];
    }
    ex->ncls = n;
    int bstride = g->blanks ? ex->stride[n - 1] : st; /* the blanks' class is the last */
    ex->two = g->blanks >= 2;
    uint8_t used[1 << MAXRACK];
    ex->single = 0;
    for (int c = 0; c < n; c++)
        if (ex->letter[c] && ex->cnt[c] == 1 && ((rare >> ex->letter[c]) & 1u)) ex->single |= 1u << c;
    /* the words spelled: with a blank or more (without, the bounds count only the rack's letters where
     * they fit) and table five */
    ex->bi = g->blanks && bi && bi->t[4].cap ? bi : NULL;
    memset(ex->spells, 0, sizeof ex->spells);
    for (int s = 0; s < st; s++) {
        uint16_t m = 0;
        uint64_t key = 0;
        used[s] = 0;
        ex->has[s] = 0;
        for (int c = 0; c < n; c++) {
            int u = (s / ex->stride[c]) % (ex->cnt[c] + 1);
            used[s] = (uint8_t)(used[s] + u);
            if (u < ex->cnt[c]) m |= (uint16_t)(1u << c);
            if (u) ex->has[s] |= (uint8_t)(1u << c);
            if (ex->bi && ex->letter[c]) key += (uint64_t)u * ex->bi->z[ex->letter[c]];
        }
        ex->left[s] = m;
        ex->skey[s] = key;
        ex->nblank[s] = (uint8_t)(s / bstride);
        ex->nknown[s] = (uint8_t)(used[s] - ex->nblank[s]);
    }
    int z = 0;
    for (int u = 0; u <= tiles; u++) {
        ex->from[u] = z;
        for (int s = 0; s < st; s++)
            if (used[s] == u) ex->bycount[z++] = (uint8_t)s;
    }
    for (int u = tiles + 1; u < MAXRACK + 2; u++) ex->from[u] = z;
}

/* Whether the tiles of state s, with the board tiles of key bkey (nb of them; bx one of their letters), may
 * spell a word (index_spells; asked once per state for the spans without board tiles). */
static inline int may_spell(Exact *ex, int s, uint64_t bkey, int nb, int bx) {
    int b = ex->nblank[s], n = ex->nknown[s] + nb; /* the known letters */
    if (nb == 0) {
        if (n + b <= 1) return 1; /* one tile: its word may be the perpendicular one alone */
        if (!ex->spells[s]) ex->spells[s] = index_spells(ex->bi, ex->skey[s], n, b, 0) == 0 ? 2 : 1;
        return ex->spells[s] == 1;
    }
    return index_spells(ex->bi, ex->skey[s] + bkey, n, b, bx) != 0;
}

/* The bound of a span that is not whole-rack, worked out exactly (walked_bound, cheaper, pairs values and
 * squares as if every rack tile fitted every square at the best letter multiplier, and counts every cross
 * word of the span): the k squares qq in the order the moves take them, the first `mand` of them covered by
 * every move of the span, the others by a prefix of them. The best, over those prefixes and the ways to put
 * the rack's tiles on them (each square a tile its cross-check allows: blanks anywhere), of each tile's value
 * by its own letter multiplier and by W (and its square's word multiplier for a cross word), with the cross
 * words of the covered squares. Board tiles and word multipliers as in walked_bound, so the result is never
 * above it. -1: no move. */
ALWAYS_INLINE int32_t exact_bound_(const TablesObject *t, const Line *ln, Exact *ex, const uint8_t *qq, int k,
                                    int mand, int32_t W, int32_t B, int nb, int partial_bonus, int fixed,
                                    int rightwards, const int two) {
    int32_t best[1 << MAXRACK];
    best[0] = 0;
    int32_t top = -1, cross = 0;
    for (int i = 0; i < k && i < MAXRACK; i++) {
        int q = qq[i], sq = ln->sq[q];
        int32_t ws = W;
        if (ln->has_cross[q]) {
            ws += t->wm[sq];
            cross += ln->cscore[q] * t->wm[sq];
        }
        int32_t w[MAXRACK];
        uint32_t fits = 0;
        for (int c = 0; c < ex->ncls; c++) {
            int L = ex->letter[c];
            if (L == 0) {
                w[c] = t->blank_value * t->lm_all_max[sq] * ws;
                fits |= 1u << c;
            } else if ((ln->cross[q] >> L) & 1u) {
                w[c] = t->value[L] * t->lm[sq][L] * ws;
                fits |= 1u << c;
            }
        }
        /* the states of i + 1 tiles from those of i (every square of a move gets a tile) */
        for (int z = ex->from[i + 1]; z < ex->from[i + 2]; z++) best[ex->bycount[z]] = -1;
        int any = 0;
        for (int z = ex->from[i]; z < ex->from[i + 1]; z++) {
            int s = ex->bycount[z];
            if (best[s] < 0) continue;
            uint32_t m = ex->left[s] & fits;
            while (m) {
                int c = __builtin_ctz(m);
                m &= m - 1;
                int32_t v = best[s] + w[c];
                if (v > best[s + ex->stride[c]]) best[s + ex->stride[c]] = v;
                any = 1;
            }
        }
        if (!any) break;
        if (i + 1 < mand) continue;
        int32_t add = W * B + cross + (i + 1 == partial_bonus ? t->bingo : 0), ptop[2] = {-1, -1};
        /* the span: from `fixed` to the prefix's last square (and the board tiles after it) */
        int start = fixed, end = fixed;
        if (rightwards)
            for (end = q; end < N - 1 && ln->tile[end + 1];) end++;
        else
            for (start = q; start > 0 && ln->tile[start - 1];) start--;
        /* its board tiles, for the words spelled (the prefix's: nb counts the whole span's) */
        uint64_t bkey = 0;
        int bn = 0, bx = 0;
        if (nb && ex->bi)
            for (int x = start; x <= end; x++)
                if (ln->tile[x]) {
                    bx = ln->tile[x] & CODE_MASK;
                    bkey += ex->bi->z[bx];
                    bn++;
                }
        for (int z = ex->from[i + 1]; z < ex->from[i + 2]; z++) {
            int s = ex->bycount[z];
            if (best[s] < 0) continue;
            int32_t v = best[s] + add;
            /* the tiles must spell a word with the span's board tiles: asked only where it counts */
            if (ex->bi && v >= ex->need && !may_spell(ex, s, bkey, bn, bx)) continue;
            int b = ex->nblank[s] > 2 ? 2 : ex->nblank[s];
            if (v > ex->bb[b]) ex->bb[b] = v;
            if (v > ptop[two && b == 2]) ptop[two && b == 2] = v;
            for (uint32_t m = ex->single & ~(uint32_t)ex->has[s]; m; m &= m - 1) {
                int c = __builtin_ctz(m);
                if (v > ex->wo[c]) ex->wo[c] = v;
            }
        }
        if (max_i32(ptop[0], ptop[1]) > top) top = max_i32(ptop[0], ptop[1]);
        ex->nspans++;
        if (ptop[0] >= ex->need) {
            ex->span_ends[0][start] |= (uint16_t)(1u << end);
            ex->nkept[0]++;
        }
        if (two && ptop[1] >= ex->need) {
            ex->span_ends[1][start] |= (uint16_t)(1u << end);
            ex->nkept[1]++;
        }
    }
    return top;
}

/* The same, compiled for racks of at most one blank and for those of two (ex->two: the moves with two blanks
 * get spans of their own). */
static int32_t exact_bound(const TablesObject *t, const Line *ln, Exact *ex, const uint8_t *qq, int k, int mand,
                           int32_t W, int32_t B, int nb, int partial_bonus, int fixed, int rightwards) {
    if (ex->two) return exact_bound_(t, ln, ex, qq, k, mand, W, B, nb, partial_bonus, fixed, rightwards, 1);
    return exact_bound_(t, ln, ex, qq, k, mand, W, B, nb, partial_bonus, fixed, rightwards, 0);
}

/* In span_bound_left/right: the larger of `best` and the bound of the span walked so far for the moves of
 * at most Rn tiles (exact_bound's when ex is given). */
#define PART_BOUND(best)                                                                                   \
    max_i32((best), ex ? exact_bound(t, ln, ex, qq, k, j + 1, W, B, nb, binfo->partial_bonus,                \
                                     rightwards ? start : end, rightwards)                                 \
                       : walked_bound(t, lmq, cwq, boq, k, nblanks, W, B, C, rv, Rn, 0, nb, xs, start, end,        \
                                      binfo, NULL))


/* The leftmost assignment (see span_bound): spans from j empty squares left of the anchor
 * (up to the previous anchor) rightwards. */
static int32_t span_bound_left(const TablesObject *t, const Line *ln, int a, const int32_t *rv, int Rn, int Rw,
                               int nblanks, const uint8_t *lmx, BingoInfo *binfo, SearchRec *recw, Exact *ex,
                               int32_t *bw) {
    const int rightwards = 1; /* the spans grow rightwards from their start (PART_BOUND) */
    int32_t best = -1;
    int Rmax = Rw ? Rw : Rn;
    int jmax = 0, left_nb = 0, left_xs[4] = {0, 0, 0, 0}, run_start = a; /* the board letters: the first 4 */
    int32_t left_board = 0;
    if (a > 0 && ln->tile[a - 1]) {
        int s = a - 1;
        while (s > 0 && ln->tile[s - 1]) s--;
        run_start = s;
        for (int i = s; i < a; i++) {
            int L = ln->tile[i] & CODE_MASK;
            if (left_nb < 4) left_xs[left_nb] = L;
            left_nb++;
            left_board += ln->tval[i];
        }
    } else {
        jmax = a - 1 - ln->leftlimit[a];
        if (jmax > Rmax - 1) jmax = Rmax - 1;
    }
    int left_only = 0; /* squares only a blank fits among the j left of the anchor */
    for (int j = 0; j <= jmax; j++) {
        if (j && ln->usable[a - j] == 2 && ++left_only > nblanks) break; /* and so for every larger j */
        int32_t W = 1, B = left_board, C = 0;
        int nb = left_nb, xs[4];
        memcpy(xs, left_xs, sizeof xs);
        int32_t lmq[N], cwq[N];
        uint8_t boq[N], qq[N];
        int k = 0, end = a, only = left_only, start = j ? a - j : run_start;
        int done_n = j > Rn - 1; /* the span of at most Rn tiles is done (or has none) */
        if (ln->usable[a] == 2 && only == nblanks) continue; /* the anchor needs one more */
        for (int q = a - j; q < a; q++) { /* empty, no perpendicular word */
            int sq = ln->sq[q];
            W *= t->wm[sq];
            lmq[k] = lmx[sq];
            cwq[k] = 0;
            boq[k] = ln->usable[q] == 2;
            qq[k] = (uint8_t)q;
            k++;
        }
        for (int q = a; q < N; q++) {
            if (ln->tile[q]) {
                int L = ln->tile[q] & CODE_MASK;
                if (nb < 4) xs[nb] = L;
                nb++;
                B += ln->tval[q];
                end = q;
                continue;
            }
            if (!done_n && k == Rn) { /* the moves of at most Rn tiles end here: their bound */
                best = PART_BOUND(best);
                done_n = 1;
            }
            /* a move is contiguous: it cannot reach past a square only a blank fits once the blanks are
             * used up, nor any square after it */
            if (k == Rmax || !ln->usable[q] || (ln->usable[q] == 2 && only++ == nblanks)) break;
            end = q;
            int sq = ln->sq[q];
            W *= t->wm[sq];
            lmq[k] = lmx[sq];
            cwq[k] = ln->has_cross[q] ? lmx[sq] * t->wm[sq] : 0;
            boq[k] = ln->usable[q] == 2;
            qq[k] = (uint8_t)q;
            C += ln->has_cross[q] ? ln->cscore[q] * t->wm[sq] : 0;
            k++;
        }
        if (!done_n) {
            best = PART_BOUND(best);
        }
        if (Rw && k == Rw) {
            int32_t bound = walked_bound(t, lmq, cwq, boq, k, nblanks, W, B, C, rv, Rw, 1, nb, xs, start, end,
                                         binfo, recw);
            if (bound > *bw) *bw = bound;
        }
    }
    return best;
}

/* The bound of the moves generated from the anchor `a` of `ln` that place at most Rn tiles (no bonus
 * unless the rack is larger than a move), returned, and, when Rw (the rack's size) is not 0, of those
 * that play the whole rack (only the spans where the anagram index allows a word, bonus included; recw
 * gets their starts, ends, board letters and the letters their blanks may stand for) in *bw; -1: no such
 * move. rv: the rack values, best first; lmx: per square, the best letter multiplier a rack tile can get
 * there. ex: the exact bound instead (not whole-rack).
 *
 * The spans: the anchor and the board tiles that follow it, j empty squares
 * after them (free squares before the next anchor), and leftwards as far as the
 * remaining tiles and the usable squares allow, board tiles included. A shorter
 * span of the same end has a lower bound, so these are enough; a span of Rn tiles is the first part of
 * the one of Rw tiles going the same way, so both are bounded in one pass. */
static int32_t span_bound_right(const TablesObject *t, const Line *ln, int a, const int32_t *rv, int Rn, int Rw,
                                int nblanks, const uint8_t *lmx, BingoInfo *binfo, SearchRec *recw, Exact *ex,
                                int32_t *bw) {
    const int rightwards = 0; /* the spans grow leftwards from their end (PART_BOUND) */
    int32_t best = -1;
    int Rmax = Rw ? Rw : Rn;
    int pivot = a, mid_nb = 0, mid_xs[4] = {0, 0, 0, 0};
    int32_t mid_board = 0;
    while (pivot < N - 1 && ln->tile[pivot + 1]) {
        pivot++;
        int L = ln->tile[pivot] & CODE_MASK;
        if (mid_nb < 4) mid_xs[mid_nb] = L;
        mid_nb++;
        mid_board += ln->tval[pivot];
    }
    int jmax = ln->rlimit[a] - pivot;
    if (jmax > Rmax - 1) jmax = Rmax - 1;
    int32_t WR = 1;
    int right_only = 0; /* squares only a blank fits among the j right of the pivot */
    for (int j = 0; j <= jmax; j++) {
        if (j) {
            if (!ln->usable[pivot + j]) break;
            if (ln->usable[pivot + j] == 2 && ++right_only > nblanks) break; /* see span_bound_left */
            WR *= t->wm[ln->sq[pivot + j]];
        }
        int32_t W = WR, B = mid_board, C = 0;
        int nb = mid_nb, xs[4];
        memcpy(xs, mid_xs, sizeof xs);
        int32_t lmq[N], cwq[N];
        uint8_t boq[N], qq[N];
        int k = 0, start = a, end = pivot + j, only = right_only;
        int done_n = j > Rn - 1;
        if (ln->usable[a] == 2 && only == nblanks) continue; /* the anchor needs one more */
        for (int q = pivot + 1; q <= end; q++) { /* empty, no perpendicular word */
            lmq[k] = lmx[ln->sq[q]];
            cwq[k] = 0;
            boq[k] = ln->usable[q] == 2;
            qq[k] = (uint8_t)q;
            k++;
        }
        for (int q = a; q >= 0; q--) {
            if (ln->tile[q]) {
                int L = ln->tile[q] & CODE_MASK;
                if (nb < 4) xs[nb] = L;
                nb++;
                B += ln->tval[q];
                start = q;
                continue;
            }
            if (!done_n && k == Rn) {
                best = PART_BOUND(best);
                done_n = 1;
            }
            if (k == Rmax || !ln->usable[q] || (ln->usable[q] == 2 && only++ == nblanks)) break;
            start = q;
            int sq = ln->sq[q];
            W *= t->wm[sq];
            lmq[k] = lmx[sq];
            cwq[k] = ln->has_cross[q] ? lmx[sq] * t->wm[sq] : 0;
            boq[k] = ln->usable[q] == 2;
            qq[k] = (uint8_t)q;
            C += ln->has_cross[q] ? ln->cscore[q] * t->wm[sq] : 0;
            k++;
        }
        if (!done_n) {
            best = PART_BOUND(best);
        }
        if (Rw && k == Rw) {
            int32_t bound = walked_bound(t, lmq, cwq, boq, k, nblanks, W, B, C, rv, Rw, 1, nb, xs, start, end,
                                         binfo, recw);
            if (bound > *bw) *bw = bound;
        }
    }
    return best;
}

static int32_t span_bound(const TablesObject *t, const Line *ln, int a, const int32_t *rv, int Rn, int Rw,
                          int nblanks, const uint8_t *lmx, BingoInfo *binfo, SearchRec *recw, Exact *ex,
                          int32_t *bw) {
    *bw = -1;
    if (!ln->usable[a] || Rn < 1) return -1;
    return ln->rightmost ? span_bound_right(t, ln, a, rv, Rn, Rw, nblanks, lmx, binfo, recw, ex, bw)
                         : span_bound_left(t, ln, a, rv, Rn, Rw, nblanks, lmx, binfo, recw, ex, bw);
}

/* A search's exact bound (see run_search), returned, with ex->bb, ex->wo and the spans whose own bound reaches
 * `need` (ex->span_ends). */
static int32_t exact_pass(const TablesObject *t, const Line *ln, int a, const int32_t *rv, int Rn, int nblanks,
                          const uint8_t *lmx, BingoInfo *binfo, Exact *ex, int32_t need) {
    ex->bb[0] = ex->bb[1] = ex->bb[2] = -1;
    memset(ex->wo, -1, sizeof ex->wo);
    ex->need = need;
    ex->nspans = ex->nkept[0] = ex->nkept[1] = 0;
    memset(ex->span_ends, 0, sizeof ex->span_ends);
    int32_t unused;
    return span_bound(t, ln, a, rv, Rn, 0, nblanks, lmx, binfo, NULL, ex, &unused);
}

/* The searches' keys (see run_search): a min-heap, sifted down from i. */
static void key_sift_down(uint64_t *h, int n, int i) {
    uint64_t v = h[i];
    for (;;) {
        int c = 2 * i + 1;
        if (c >= n) break;
        if (c + 1 < n && h[c + 1] < h[c]) c++;
        if (h[c] >= v) break;
        h[i] = h[c];
        i = c;
    }
    h[i] = v;
}

/* ... and sifted up from i (a key added at the end). */
static void key_sift_up(uint64_t *h, int i) {
    uint64_t v = h[i];
    while (i > 0) {
        int p = (i - 1) >> 1;
        if (h[p] <= v) break;
        h[i] = h[p];
        i = p;
    }
    h[i] = v;
}

/* A search's key: best bound first, then whole rack first, then creation order (i). */
static inline uint64_t search_key(const SearchRec *r, int i) {
    return ((uint64_t)(uint32_t)(INT32_MAX - r->bound) << 11) | ((uint64_t)!r->whole << 10) | (uint64_t)i;
}

/* The least coordinate rank of the squares where the search's moves may start: those of its spans
 * (whole rack), else from the previous anchor (leftmost assignment; rightmost: the line's start) to it. */
static int search_rank(const TablesObject *t, const Line *ln, const SearchRec *r) {
    int lo = r->whole || ln->rightmost ? 0 : ln->leftlimit[r->pos] + 1, least = INT_MAX;
    for (int s = lo; s <= r->pos; s++) {
        if (r->whole && !((r->starts >> s) & 1u)) continue;
        int rank = t->label_rank[label_index(r->dir, r->line, s)];
        if (rank < least) least = rank;
    }
    return least;
}

/* ---- the whole search (no Python calls: runs without the GIL) --------------- */

typedef struct {
    const uint8_t *board;
    const uint8_t *rack;
    int rack_len;
    int top;
    int count_all;
    int vertical_first;
    uint32_t droot, groot;
    const BingoIndexObject *bi;
    uint64_t rare;
} Query;

__attribute__((noinline)) static void run_search(Gen *g, const Query *q) {
    const TablesObject *t = g->t;
    int empty = 1;
    for (int i = 0; i < NSQ; i++)
        if (q->board[i]) {
            empty = 0;
            break;
        }
    /* the rack */
    memset(g->counts, 0, sizeof g->counts);
    g->blanks = 0;
    g->rack_mask = 0;
    g->rack_total = q->rack_len;
    g->limit = q->rack_len < t->play_max ? q->rack_len : t->play_max;
    g->end = N - 1;
    g->blank_letters = t->all_letters;
    int32_t rv[MAXRACK];
    int R = 0;
    for (int i = 0; i < q->rack_len; i++) {
        uint8_t c = q->rack[i];
        int32_t v;
        if (c == 0) {
            g->blanks++;
            v = t->blank_value;
        } else {
            c &= CODE_MASK;
            g->counts[c]++;
            g->rack_mask |= 1ull << c;
            v = t->value[c];
        }
        int z = R++;
        while (z > 0 && rv[z - 1] < v) {
            rv[z] = rv[z - 1];
            z--;
        }
        rv[z] = v;
    }
    if (R == 0 || !q->groot) return;

    Line lines[2][N];
    for (int dir = 0; dir < 2; dir++)
        prepare_lines(t, g->nodes, q->droot, q->groot, q->board, empty, dir, g->blanks,
                      g->blanks ? t->all_letters : g->rack_mask & t->all_letters, lines[dir]);
    int skip_vertical = empty && !q->vertical_first;

    if (!q->top || q->count_all) { /* exhaustive */
        for (int dir = 0; dir < 2; dir++) {
            g->discard = dir == 1 && skip_vertical;
            for (int l = 0; l < N; l++) {
                const Line *ln = &lines[dir][l];
                if (!ln->active) continue;
                for (int p = 0; p < N; p++)
                    if (ln->anchor[p]) gen_anchor(g, ln, dir, l, p, q->groot);
            }
        }
        g->discard = 0;
        return;
    }

    /* best-N: the searches by upper bound */
    uint8_t lmx[NSQ];
    uint64_t avail = g->blanks ? t->all_letters : (g->rack_mask & t->all_letters);
    for (int sq = 0; sq < NSQ; sq++) {
        /* a blank worth nothing scores nothing whatever its multiplier: then only the rack's letters count */
        uint8_t m = g->blanks && t->blank_value ? t->lm_all_max[sq] : 0;
        if (t->lm_uniform) { /* the same for every letter: no need to look at the rack's */
            lmx[sq] = g->rack_mask && t->lm_real_max[sq] > m ? t->lm_real_max[sq] : m;
            continue;
        }
        uint64_t bits = g->rack_mask;
        while (bits) {
            int L = __builtin_ctzll(bits);
            bits &= bits - 1;
            if (t->lm[sq][L] > m) m = t->lm[sq][L];
        }
        lmx[sq] = m;
    }
    BingoInfo *binfo = (BingoInfo *)malloc(sizeof(BingoInfo));
    if (!binfo) {
        g->oom = 1;
        return;
    }
    bingo_info_init(binfo, q->bi, q->rack, q->rack_len, t->all_letters);
    /* P: the most tiles a move places; a rack larger than that (7-among-8) has no whole-rack search,
     * its moves of P tiles earn the bonus in the others */
    int P = R < t->play_max ? R : t->play_max;
    int whole_possible = R == t->play_max;
    binfo->partial_bonus = R > P ? P : 0;
    SearchRec recs[4 * NSQ];
    int nrec = 0;
    for (int dir = 0; dir < 2; dir++) {
        if (dir == 1 && skip_vertical) continue;
        for (int l = 0; l < N; l++) {
            Line *ln = &lines[dir][l];
            if (!ln->active) continue;
            /* 1: a rack tile fits the empty square; 2: only a blank does */
            for (int p = 0; p < N; p++)
                ln->usable[p] = (uint8_t)(ln->tile[p] || !(ln->cross[p] & avail) ? 0
                                          : (ln->cross[p] & g->rack_mask) ? 1 : 2);
            for (int p = 0; p < N; p++) {
                if (!ln->anchor[p]) continue;
                /* the moves of at most P - 1 tiles and, in a search of its own, those of the whole rack */
                SearchRec *rn = &recs[nrec], *rw = &recs[nrec + 1];
                for (int whole = 0; whole < 2; whole++) {
                    SearchRec *r = whole ? rw : rn;
                    r->blanks = 0;
                    r->starts = 0;
                    r->nkinds = 0;
                    r->exact = 0;
                    r->narrow[0] = r->narrow[1] = 0;
                    r->two = 0;
                    r->req = 0;
                    r->dir = (uint8_t)dir;
                    r->line = (uint8_t)l;
                    r->pos = (uint8_t)p;
                    r->whole = (uint8_t)whole;
                }
                int32_t bw;
                rn->bound = span_bound(t, ln, p, rv, P - whole_possible, whole_possible ? R : 0, g->blanks, lmx,
                                       binfo, rw, NULL, &bw);
                rw->bound = bw;
                if (rn->bound >= 0) nrec++;
                if (bw >= 0) {
                    if (rn->bound < 0) memcpy(&recs[nrec], rw, sizeof *rw);
                    nrec++;
                }
            }
        }
    }
    /* best bound first (then whole rack first, then creation order: direction, line, square): a
     * min-heap of keys, so that only as much of the order as the search uses gets sorted */
    uint64_t keys[4 * NSQ], keys2[2 * NSQ]; /* keys2: the second searches of two-blank racks (SearchRec.two) */
    int left = nrec, left2 = 0, firsts = 0;
#define REQUEUE(r, i)                                                                                      \
    do {                                                                                                    \
        uint64_t *kh_ = (r)->two ? keys2 : keys;                                                            \
        int *kn_ = (r)->two ? &left2 : &left;                                                               \
        kh_[*kn_] = search_key((r), (i));                                                                   \
        key_sift_up(kh_, *kn_);                                                                             \
        (*kn_)++;                                                                                           \
    } while (0)
    for (int i = 0; i < nrec; i++) keys[i] = search_key(&recs[i], i);
    for (int i = nrec / 2 - 1; i >= 0; i--) key_sift_down(keys, nrec, i);
    Exact *ex = NULL;
    /* the rack has one tile of a rare letter (and a blank): every search gets its exact bound, which may
     * show that the moves that count hold that tile (gen_required) */
    int rare_one = 0;
    for (uint64_t m = g->blanks ? g->rack_mask & q->rare : 0; m; m &= m - 1)
        if (g->counts[__builtin_ctzll(m)] == 1) rare_one = 1;
    for (;;) {
        /* the first searches while one may reach the N-th best score, then the second ones */
        uint64_t *kh = keys;
        int *kn = &left;
        if (!left || (g->heap_n == g->top && recs[keys[0] & 1023u].bound < g->heap[0]) ||
            (firsts >= FIRSTS && left2 && keys2[0] < keys[0])) {
            kh = keys2;
            kn = &left2;
        }
        if (!*kn) break;
        int i = (int)(kh[0] & 1023u);
        SearchRec *r = &recs[i];
        kh[0] = kh[--*kn];
        key_sift_down(kh, *kn, 0);
        if (g->heap_n == g->top && r->bound < g->heap[0]) break;
        /* top=1 without ties keeps, of the moves of the best score, the first by text, which begins with the
         * coordinate: a search that can at best tie the best move so far, and whose moves all start where
         * the coordinate comes after that move's, cannot change the answer */
        if (g->tie_rank && g->heap_n == g->top && r->bound == g->heap[0] &&
            search_rank(t, &lines[r->dir][r->line], r) > g->best_rank)
            continue;
        /* with a blank, a walk that is not whole-rack tries every letter on every free square: before one,
         * its bound is worked out exactly (exact_bound) and, if lower, the search waits its turn again. With
         * one blank, only near the N-th best score: far above it the search runs anyway, and the walk is
         * seldom long enough to pay for the work. */
        /* once more when the N-th best score has risen since: its spans (below) are fewer */
        int redo = r->exact && g->heap_n == g->top && g->heap[0] > r->need;
        int first = !r->exact && (g->blanks >= 2 || rare_one || 2 * (int64_t)r->bound <= 3 * (int64_t)g->heap[0]);
        if (!r->whole && g->blanks && g->heap_n == g->top && (first || redo)) {
            if (!ex) {
                ex = (Exact *)malloc(sizeof(Exact));
                if (!ex) {
                    g->oom = 1;
                    break;
                }
                exact_init(ex, g, q->bi, q->rare);
            }
            r->exact = 1;
            r->req = 0;
            /* the states whose tiles spell no word with the span's board tiles are left out (table five of
             * the anagram index: pl-literaki #1, ??DFKPS, 4.24M → 2.08M instructions; each set −3.5 to −6 %) */
            int32_t b = exact_pass(t, &lines[r->dir][r->line], r->pos, rv, P - whole_possible, g->blanks, lmx, binfo,
                                   ex, g->heap[0]);
            memcpy(r->bb, ex->bb, sizeof r->bb);
            /* the walk keeps to the spans whose own bound reaches the N-th best score, if that drops any */
            r->narrow[0] = ex->nkept[0] < ex->nspans;
            r->narrow[1] = ex->nkept[1] < ex->nspans;
            r->need = g->heap[0];
            if (r->narrow[0] || r->narrow[1]) memcpy(ex->kept[i], ex->span_ends, sizeof ex->kept[i]);
            /* a letter every move that reaches the N-th best score must hold: the most valuable such */
            for (uint32_t m = ex->single; m; m &= m - 1) {
                int c = __builtin_ctz(m);
                if (ex->wo[c] < g->heap[0] && (!r->req || t->value[ex->letter[c]] > t->value[r->req]))
                    r->req = ex->letter[c];
            }
            if (r->two) b = ex->bb[2]; /* the moves with both blanks (the others are walked) */
            if (b < r->bound) {
                if (b >= 0) {
                    r->bound = b;
                    REQUEUE(r, i);
                }
                continue;
            }
        }
        /* whole rack: blanks only as letters of the anagrams the index knows; the
         * others: at most one tile fewer than the rack */
        g->need_all = r->whole;
        g->limit = r->whole || !whole_possible ? P : P - 1;
        g->blank_letters = r->whole ? r->blanks : t->all_letters;
        g->starts = r->starts;
        g->pair_mode = 0;
        if (r->whole) {
            for (int s = 0; s < N; s++)
                if ((r->starts >> s) & 1u) {
                    g->span_ends[s] = (uint16_t)(1u << r->end_of[s]);
                    g->end_max[s] = (int8_t)r->end_of[s];
                }
            if (g->blanks == 2 && binfo->bi) {
                memset(g->partner, 0, sizeof g->partner);
                for (int k = 0; k < r->nkinds; k++) {
                    int xs[4] = {r->kind[k][1], r->kind[k][2], r->kind[k][3], r->kind[k][4]};
                    bingo_partners(binfo, r->kind[k][0], xs, g->partner);
                }
                uint64_t first = 0;
                for (int L = 1; L < MAXC; L++)
                    if (g->partner[L]) first |= 1ull << L;
                g->blank_letters &= first;
                g->pair_mode = 1;
            }
        }
        /* the blanks a move must use to reach the N-th best score: a walk with fewer blanks is far smaller.
         * With two blanks, a search walks first the moves with at most one, and the others (the second blank
         * makes the walk far longer, and seldom a better move) become a second search with their own bound,
         * bb[2], in a queue of their own: it comes after the first searches that may still reach the N-th
         * best score, or, once FIRSTS first searches have walked, ahead of those of a lower bound. So the
         * two-blank walks start with the N-th best score that the cheaper ones found: pl-literaki #1
         * (??DFKPS, best 26, found with one blank) 5.11M -> 4.55M instructions; where the best move needs
         * both blanks the first walks are spent in vain (ru #50 +17 %, uk #34 +5 %), hence FIRSTS (3: #1 no
         * better; every first search before any second: en #67 ??EJNVV +115 %) */
        int rack_blanks = g->blanks, two_later = 0;
        if (!r->whole && !r->two && g->blanks >= 2) {
            g->blanks = 1;
            two_later = !r->exact || g->heap_n < g->top || r->bb[2] >= g->heap[0];
        }
        if (r->exact && g->heap_n == g->top && !r->two && g->blanks == 1 && r->bb[1] < g->heap[0]) g->blanks = 0;
        g->blanks_left_max = r->two ? g->blanks - 2 : INT_MAX;
        if (r->exact && r->narrow[r->two]) {
            g->need_all = 1;
            g->starts = 0;
            for (int s = 0; s < N; s++)
                if (ex->kept[i][r->two][s]) {
                    g->starts |= 1u << s;
                    g->span_ends[s] = ex->kept[i][r->two][s];
                    g->end_max[s] = (int8_t)(31 - __builtin_clz(ex->kept[i][r->two][s]));
                }
        }
#ifdef SOLVER_TRACE
        long long before = g->nvisit;
        fprintf(stderr, "  blanks %d of %d, bb %d %d %d, narrow %d %d (at %d) two %d\n", g->blanks, rack_blanks,
                r->exact ? r->bb[0] : -9, r->exact ? r->bb[1] : -9, r->exact ? r->bb[2] : -9, r->narrow[0],
                r->narrow[1], r->need, r->two);
#endif
        if (r->req)
            gen_required(g, &lines[r->dir][r->line], r->dir, r->line, r->pos, q->groot, r->req);
        else
            gen_anchor(g, &lines[r->dir][r->line], r->dir, r->line, r->pos, q->groot);
        g->blanks = rack_blanks;
        g->blanks_left_max = INT_MAX;
        firsts += !r->two;
        if (two_later) {
            r->two = 1;
            if (r->exact) r->bound = r->bb[2];
            REQUEUE(r, i);
        }
#ifdef SOLVER_TRACE
        fprintf(stderr, "  search d%d l%d p%d whole%d bound %d nodes %lld th %d starts %x blanks %d\n", r->dir,
                r->line, r->pos, r->whole, r->bound, g->nvisit - before, threshold(g), r->starts,
                __builtin_popcountll(r->blanks));
#endif
    }
#undef REQUEUE
    free(binfo);
    free(ex);
}

/* ------------------------------------------------------------------ */
/* Python glue                                                          */
/* ------------------------------------------------------------------ */

static int read_fixed(PyObject *obj, void *dst, Py_ssize_t size, const char *what) {
    Py_buffer b;
    if (PyObject_GetBuffer(obj, &b, PyBUF_SIMPLE) < 0) return -1;
    if (b.len != size) {
        PyErr_Format(PyExc_ValueError, "%s must have %zd bytes, not %zd", what, size, b.len);
        PyBuffer_Release(&b);
        return -1;
    }
    memcpy(dst, b.buf, (size_t)size);
    PyBuffer_Release(&b);
    return 0;
}

static int Tables_init(TablesObject *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"nletters", "values", "blank_value", "lm", "blm", "wm",
                             "rack_size", "bingo", "centre", "codes", "play_max", NULL};
    int nletters, blank_value, rack_size, bingo, centre, play_max = 0;
    PyObject *values, *lm, *blm, *wm, *codes;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iOiOOOiiiO!|i", kwlist, &nletters, &values, &blank_value, &lm,
                                     &blm, &wm, &rack_size, &bingo, &centre, &PyDict_Type, &codes, &play_max))
        return -1;
    if (self->codes) {
        PyErr_SetString(PyExc_RuntimeError, "Tables are initialised once");
        return -1;
    }
    if (nletters < 1 || nletters > (int)KWG_MAX_LETTERS) {
        PyErr_SetString(PyExc_ValueError, "nletters must be 1..63");
        return -1;
    }
    if (centre < 0 || centre >= NSQ || rack_size < 1 || rack_size > MAXRACK) {
        PyErr_SetString(PyExc_ValueError, "bad centre or rack size");
        return -1;
    }
    if (play_max == 0) play_max = rack_size;
    if (play_max < 1 || play_max > rack_size) {
        PyErr_SetString(PyExc_ValueError, "play_max must be 1..rack_size");
        return -1;
    }
    int32_t vals[MAXC];
    if (read_fixed(values, vals, sizeof vals, "values") < 0) return -1;
    if (read_fixed(lm, self->lm, sizeof self->lm, "lm") < 0) return -1;
    if (read_fixed(blm, self->blm, sizeof self->blm, "blm") < 0) return -1;
    if (read_fixed(wm, self->wm, sizeof self->wm, "wm") < 0) return -1;
    for (int i = 0; i < MAXC; i++) {
        if (vals[i] < 0 || vals[i] > 1000) {
            PyErr_SetString(PyExc_ValueError, "letter values must be 0..1000");
            return -1;
        }
        self->value[i] = vals[i];
    }
    int uniform = 1;
    for (int sq = 0; sq < NSQ; sq++) {
        if (self->wm[sq] < 1 || self->wm[sq] > 9) {
            PyErr_SetString(PyExc_ValueError, "word multipliers must be 1..9");
            return -1;
        }
        uint8_t m = 0;
        for (int L = 0; L < MAXC; L++) {
            if (self->lm[sq][L] > 9 || self->blm[sq][L] > 9) {
                PyErr_SetString(PyExc_ValueError, "letter multipliers must be 0..9");
                return -1;
            }
            if (L >= 1 && L <= nletters && self->blm[sq][L] > m) m = self->blm[sq][L];
        }
        self->lm_all_max[sq] = m;
        uint8_t mr = 0;
        for (int L = 1; L <= nletters; L++) {
            if (self->lm[sq][L] > mr) mr = self->lm[sq][L];
            if (self->lm[sq][L] != self->lm[sq][1]) uniform = 0;
        }
        self->lm_real_max[sq] = mr;
    }
    self->lm_uniform = uniform;
    if (blank_value < 0 || blank_value > 1000 || bingo < 0 || bingo > 100000) {
        PyErr_SetString(PyExc_ValueError, "bad blank value or bingo");
        return -1;
    }
    self->nletters = nletters;
    self->all_letters = (nletters == 63 ? ~0ull : ((1ull << (nletters + 1)) - 1)) & ~1ull;
    self->blank_value = blank_value;
    self->rack_size = rack_size;
    self->play_max = play_max;
    self->bingo = bingo;
    self->centre = centre;
    Py_INCREF(codes);
    Py_XSETREF(self->codes, codes);
    return 0;
}

static void tile_cache_clear(TablesObject *self) {
    for (int i = 0; i < TILE_CACHE; i++) Py_CLEAR(self->tc_key[i]);
    self->tc_n = 0;
}

static void Tables_dealloc(TablesObject *self) {
    tile_cache_clear(self);
    Py_XDECREF(self->codes);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* The code of a tile read before, or -1. Tiles are immutable: their codes are remembered by address (the
 * tile cache of TablesObject), so a board read again costs a probe per tile. */
static inline int cached_code(const TablesObject *self, PyObject *cell) {
    size_t slot = ((uintptr_t)cell >> 4) & (TILE_CACHE - 1);
    PyObject *k;
    while ((k = self->tc_key[slot]) != NULL) {
        if (k == cell) return self->tc_code[slot];
        slot = (slot + 1) & (TILE_CACHE - 1);
    }
    return -1;
}

static int read_cells_generic(TablesObject *self, PyObject *cells, uint8_t *board);

/* The board as 225 codes from 15 rows of 15 cells (a Tile or None): lists of lists read in place when
 * every tile is known already, else the general way. */
static int read_cells(TablesObject *self, PyObject *cells, uint8_t *board) {
    if (!PyList_CheckExact(cells) || PyList_GET_SIZE(cells) != N) return read_cells_generic(self, cells, board);
    for (int r = 0; r < N; r++) {
        PyObject *row = PyList_GET_ITEM(cells, r);
        if (!PyList_CheckExact(row) || PyList_GET_SIZE(row) != N) return read_cells_generic(self, cells, board);
        PyObject **items = ((PyListObject *)row)->ob_item;
        uint8_t *out = board + r * N;
        /* which cells hold a tile, without a branch per cell; then only those are looked up */
        uint32_t held = 0;
        for (int c = 0; c < N; c++) held |= (uint32_t)(items[c] != Py_None) << c;
        memset(out, 0, N);
        for (; held; held &= held - 1) {
            int c = __builtin_ctz(held);
            int code = cached_code(self, items[c]);
            if (code < 0) return read_cells_generic(self, cells, board);
            out[c] = (uint8_t)code;
        }
    }
    return 0;
}

static int read_cells_generic(TablesObject *self, PyObject *cells, uint8_t *board) {
    PyObject *rows = PySequence_Fast(cells, "board must be 15 rows of 15 cells");
    if (!rows) return -1;
    if (PySequence_Fast_GET_SIZE(rows) != N) {
        Py_DECREF(rows);
        PyErr_SetString(PyExc_ValueError, "board must have 15 rows");
        return -1;
    }
    for (int r = 0; r < N; r++) {
        PyObject *row = PySequence_Fast(PySequence_Fast_GET_ITEM(rows, r), "a board row must be a sequence");
        if (!row) goto fail;
        if (PySequence_Fast_GET_SIZE(row) != N) {
            Py_DECREF(row);
            PyErr_SetString(PyExc_ValueError, "board rows must have 15 cells");
            goto fail;
        }
        for (int c = 0; c < N; c++) {
            PyObject *cell = PySequence_Fast_GET_ITEM(row, c);
            if (cell == Py_None) {
                board[r * N + c] = 0;
                continue;
            }
            size_t slot = ((uintptr_t)cell >> 4) & (TILE_CACHE - 1);
            while (self->tc_key[slot] && self->tc_key[slot] != cell) slot = (slot + 1) & (TILE_CACHE - 1);
            if (self->tc_key[slot]) {
                board[r * N + c] = self->tc_code[slot];
                continue;
            }
            PyObject *letter = PyObject_GetAttr(cell, s_letter);
            if (!letter) {
                Py_DECREF(row);
                goto fail;
            }
            PyObject *code = PyDict_GetItemWithError(self->codes, letter);
            Py_DECREF(letter);
            long v = UNKNOWN_CODE;
            if (code) {
                v = PyLong_AsLong(code);
                if (v == -1 && PyErr_Occurred()) {
                    Py_DECREF(row);
                    goto fail;
                }
            } else if (PyErr_Occurred()) {
                Py_DECREF(row);
                goto fail;
            }
            if (v < 1 || v > 63) v = UNKNOWN_CODE;
            PyObject *blank = PyObject_GetAttr(cell, s_blank);
            if (!blank) {
                Py_DECREF(row);
                goto fail;
            }
            int isb = PyObject_IsTrue(blank);
            Py_DECREF(blank);
            if (isb < 0) {
                Py_DECREF(row);
                goto fail;
            }
            board[r * N + c] = (uint8_t)(v | (isb ? BLANK_BIT : 0));
            if (2 * (self->tc_n + 1) > TILE_CACHE) {
                tile_cache_clear(self);
                slot = ((uintptr_t)cell >> 4) & (TILE_CACHE - 1);
            }
            Py_INCREF(cell);
            self->tc_key[slot] = cell;
            self->tc_code[slot] = board[r * N + c];
            self->tc_n++;
        }
        Py_DECREF(row);
    }
    Py_DECREF(rows);
    return 0;
fail:
    Py_DECREF(rows);
    return -1;
}

#define INLINE_MOVES 64 /* moves kept in the caller's frame before the heap is needed */

static void free_moves(Gen *g) {
    if (!g->moves_inline) free(g->moves);
    g->moves = NULL;
}

/* Solve's first half: the inputs read and checked and the search run. The kept moves are left in g
 * (g->moves, g->n, g->count: the caller calls free_moves), first in `inline_moves` (INLINE_MOVES of them,
 * the caller's), the board as read in `board`. 0, or -1 with an exception set. */
static int search_into(TablesObject *self, PyObject *nodes_obj, unsigned long droot, unsigned long groot,
                         PyObject *board_obj, PyObject *rack_obj, int top, int count_all, int vertical_first,
                         int tie_rank, PyObject *bi_obj, Gen *g, uint8_t *board, Move *inline_moves) {
    if (bi_obj != Py_None && !PyObject_TypeCheck(bi_obj, &BingoIndexType)) {
        PyErr_SetString(PyExc_TypeError, "bingo_index must be a BingoIndex or None");
        return -1;
    }
    const BingoIndexObject *bi = bi_obj == Py_None ? NULL : (const BingoIndexObject *)bi_obj;
    if (bi && (!bi->ready || bi->rack_size != self->play_max)) {
        PyErr_SetString(PyExc_ValueError, "the BingoIndex was built for another rack size");
        return -1;
    }
    if (top < 0) {
        PyErr_SetString(PyExc_ValueError, "top must be >= 0");
        return -1;
    }
    if (read_cells(self, board_obj, board) < 0) return -1;
    uint8_t rack[N];
    int rack_len;
    if (PyBytes_Check(rack_obj)) { /* the usual case: no buffer to take and give back */
        rack_len = (int)PyBytes_GET_SIZE(rack_obj);
        if (rack_len > self->rack_size || rack_len > N) {
            PyErr_SetString(PyExc_ValueError, "too many tiles on the rack");
            return -1;
        }
        memcpy(rack, PyBytes_AS_STRING(rack_obj), (size_t)rack_len);
    } else {
        Py_buffer rb;
        if (PyObject_GetBuffer(rack_obj, &rb, PyBUF_SIMPLE) < 0) return -1;
        if (rb.len > self->rack_size || rb.len > N) {
            PyBuffer_Release(&rb);
            PyErr_SetString(PyExc_ValueError, "too many tiles on the rack");
            return -1;
        }
        rack_len = (int)rb.len;
        memcpy(rack, rb.buf, (size_t)rb.len);
        PyBuffer_Release(&rb);
    }
    for (int i = 0; i < rack_len; i++)
        if (rack[i] > 63) {
            PyErr_SetString(PyExc_ValueError, "rack codes must be 0 (blank) or 1..63");
            return -1;
        }

    Py_buffer nb;
    if (PyObject_GetBuffer(nodes_obj, &nb, PyBUF_SIMPLE) < 0) return -1;
    size_t nnodes = (size_t)nb.len / 4;
    if (nnodes < 2 || droot >= nnodes || groot >= nnodes) {
        PyBuffer_Release(&nb);
        PyErr_SetString(PyExc_ValueError, "roots out of the edge array");
        return -1;
    }

    memset(g, 0, sizeof *g);
    g->blanks_left_max = INT_MAX;
    g->moves = inline_moves;
    g->moves_inline = 1;
    g->cap = INLINE_MOVES;
    g->nodes = (const uint32_t *)nb.buf;
    g->t = self;
    g->top = top;
    g->tie_rank = tie_rank;
    g->compact_at = top ? 2 * (size_t)top + 1024 : (size_t)-1;
    int32_t small_heap[64]; /* the heap of a small top needs no allocation */
    if (top) {
        g->heap = top <= 64 ? small_heap : (int32_t *)malloc(sizeof(int32_t) * (size_t)top);
        if (!g->heap) {
            PyBuffer_Release(&nb);
            PyErr_NoMemory();
            return -1;
        }
    }
    if (self->rare_of != nb.buf) { /* a sample of the edges, once per graph (under the interpreter lock) */
        size_t per[MAXC] = {0}, seen = 0, stride = nnodes / RARE_SAMPLE + 1;
        const uint32_t *e = (const uint32_t *)nb.buf;
        for (size_t i = 2; i < nnodes; i += stride, seen++) per[KWG_TILE(e[i])]++;
        self->rare = 0;
        for (int L = 1; L < MAXC; L++)
            if (per[L] * 1000 <= (size_t)RARE_PER_MILLE * seen) self->rare |= 1ull << L;
        self->rare_of = nb.buf;
    }
    Query q = {board, rack, rack_len, top, count_all, vertical_first, (uint32_t)droot, (uint32_t)groot, bi,
               self->rare};

    Py_INCREF(self); /* the tables and the index must outlive the search */
    Py_INCREF(bi_obj);
    struct timespec t0, t1;
    Py_BEGIN_ALLOW_THREADS
    clock_gettime(CLOCK_MONOTONIC, &t0);
    run_search(g, &q);
    if (top && !g->oom) compact(g); /* the search's last step: only the moves that reach the N-th best */
    clock_gettime(CLOCK_MONOTONIC, &t1);
    Py_END_ALLOW_THREADS
    self->total_search_ns += (long long)(t1.tv_sec - t0.tv_sec) * 1000000000LL + (t1.tv_nsec - t0.tv_nsec);
    Py_DECREF(bi_obj);
    Py_DECREF(self);
    PyBuffer_Release(&nb);
#ifdef SOLVER_STATS
    fprintf(stderr, "STATS nodes=%lld count=%lld\n", g->nvisit, g->count);
#endif

    if (g->heap != small_heap) free(g->heap);
    g->heap = NULL;
    if (g->oom) {
        free_moves(g);
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

/* ---- the objects a solve gives (scoring/solver.py subclasses them) ------------------------------------- */

/* A base type the Python side extends: its fields (NAME_members), NAME_init and NAME_dealloc. */
#define BASE_TYPE(NAME, OBJECT, DOC)                                                                      \
    static PyTypeObject NAME##Type = {                                                                    \
        PyVarObject_HEAD_INIT(NULL, 0).tp_name = "scoring._solver." #NAME,                                \
        .tp_basicsize = sizeof(OBJECT),                                                                   \
        .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,                                             \
        .tp_doc = DOC,                                                                                    \
        .tp_new = PyType_GenericNew,                                                                      \
        .tp_init = (initproc)NAME##_init,                                                                 \
        .tp_dealloc = (destructor)NAME##_dealloc,                                                         \
        .tp_members = NAME##_members,                                                                     \
    }

/* A move found: where, the codes of the whole word, the score; the rest is worked out in Python. */
typedef struct {
    PyObject_HEAD
    int score, row, col;
    char vertical;
    PyObject *codes, *core, *snap, *text, *words;
} MoveObject;

static int MoveBase_init(MoveObject *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"core", "snap", "row", "col", "vertical", "codes", "score", NULL};
    PyObject *core, *snap, *codes;
    int row, col, vertical, score;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOiipSi", kwlist, &core, &snap, &row, &col, &vertical, &codes,
                                     &score))
        return -1;
    self->row = row;
    self->col = col;
    self->vertical = (char)vertical;
    self->score = score;
    Py_XSETREF(self->core, Py_NewRef(core));
    Py_XSETREF(self->snap, Py_NewRef(snap));
    Py_XSETREF(self->codes, Py_NewRef(codes));
    Py_CLEAR(self->text);
    Py_CLEAR(self->words);
    return 0;
}

static void MoveBase_dealloc(MoveObject *self) {
    Py_XDECREF(self->codes);
    Py_XDECREF(self->core);
    Py_XDECREF(self->snap);
    Py_XDECREF(self->text);
    Py_XDECREF(self->words);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyMemberDef MoveBase_members[] = {
    {"score", T_INT, offsetof(MoveObject, score), 0, "the move's score"},
    {"_row", T_INT, offsetof(MoveObject, row), READONLY, NULL},
    {"_col", T_INT, offsetof(MoveObject, col), READONLY, NULL},
    {"_vertical", T_BOOL, offsetof(MoveObject, vertical), READONLY, NULL},
    {"_codes", T_OBJECT, offsetof(MoveObject, codes), READONLY, NULL},
    {"_core", T_OBJECT, offsetof(MoveObject, core), READONLY, NULL},
    {"_snap", T_OBJECT, offsetof(MoveObject, snap), READONLY, NULL},
    {"_text", T_OBJECT, offsetof(MoveObject, text), 0, NULL},
    {"_words", T_OBJECT, offsetof(MoveObject, words), 0, NULL},
    {NULL, 0, 0, 0, NULL},
};

BASE_TYPE(MoveBase, MoveObject,
          "MoveBase(core, snap, row, col, vertical, codes, score): the fields of a solved move.");

/* The position the moves of one solve were found on: the board's codes as read. */
typedef struct {
    PyObject_HEAD
    PyObject *codes, *core, *board;
} SnapshotObject;

static int SnapshotBase_init(SnapshotObject *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"core", "codes", "board", NULL};
    PyObject *core, *codes, *board = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OS|O", kwlist, &core, &codes, &board)) return -1;
    Py_XSETREF(self->core, Py_NewRef(core));
    Py_XSETREF(self->codes, Py_NewRef(codes));
    Py_XSETREF(self->board, board == Py_None ? NULL : Py_NewRef(board));
    return 0;
}

static void SnapshotBase_dealloc(SnapshotObject *self) {
    Py_XDECREF(self->codes);
    Py_XDECREF(self->core);
    Py_XDECREF(self->board);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyMemberDef SnapshotBase_members[] = {
    {"codes", T_OBJECT, offsetof(SnapshotObject, codes), READONLY, "the board's 225 codes as the search read them"},
    {"_core", T_OBJECT, offsetof(SnapshotObject, core), READONLY, NULL},
    {"_board", T_OBJECT, offsetof(SnapshotObject, board), 0, NULL},
    {NULL, 0, 0, 0, NULL},
};

BASE_TYPE(SnapshotBase, SnapshotObject,
          "SnapshotBase(core, codes, board=None): the position a solve's moves were found on.");

/* A solve's answer: the moves, the count of every legal move (or None), the time it took. */
typedef struct {
    PyObject_HEAD
    PyObject *moves, *count_all;
    double elapsed_ms;
} ResultObject;

static int ResultBase_init(ResultObject *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"moves", "count_all", "elapsed_ms", NULL};
    PyObject *moves, *count_all;
    double elapsed;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOd", kwlist, &moves, &count_all, &elapsed)) return -1;
    Py_XSETREF(self->moves, Py_NewRef(moves));
    Py_XSETREF(self->count_all, Py_NewRef(count_all));
    self->elapsed_ms = elapsed;
    return 0;
}

static void ResultBase_dealloc(ResultObject *self) {
    Py_XDECREF(self->moves);
    Py_XDECREF(self->count_all);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyMemberDef ResultBase_members[] = {
    {"moves", T_OBJECT, offsetof(ResultObject, moves), 0, "the moves, best first"},
    {"count_all", T_OBJECT, offsetof(ResultObject, count_all), 0, "every legal move counted, or None"},
    {"elapsed_ms", T_DOUBLE, offsetof(ResultObject, elapsed_ms), 0, "the call's time"},
    {NULL, 0, 0, 0, NULL},
};

BASE_TYPE(ResultBase, ResultObject,
          "ResultBase(moves, count_all, elapsed_ms): what a solve gives.");

static int subtype_arg(PyObject *o, PyTypeObject *base, const char *what) {
    if (PyType_Check(o) && PyType_IsSubtype((PyTypeObject *)o, base)) return 0;
    PyErr_Format(PyExc_TypeError, "%s must be a subclass of %s", what, base->tp_name);
    return -1;
}

/* A move's text as code points (the coordinate, a space, the letters), its length returned. */
static int move_cps(const TablesObject *self, const Move *m, uint32_t *cp) {
    int lab = label_index(m->dir, m->line, m->start), n = self->label_len[lab];
    memcpy(cp, self->label_cp[lab], (size_t)n * sizeof(uint32_t));
    cp[n++] = ' ';
    for (int i = 0; i < m->len; i++) {
        int c = m->tiles[i];
        memcpy(cp + n, self->fen_cp[c], (size_t)self->fen_len[c] * sizeof(uint32_t));
        n += self->fen_len[c];
    }
    return n;
}

static PyObject *move_text(const TablesObject *self, const Move *m) {
    uint32_t cp[TEXT_CP];
    return PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, cp, move_cps(self, m, cp));
}

/* Best first: score descending, then text (code-point order). Of moves that all get their text (the
 * answer keeps every move found): */
static int text_order(const void *a, const void *b) {
    const MoveObject *x = *(MoveObject *const *)a, *y = *(MoveObject *const *)b;
    if (x->score != y->score) return x->score > y->score ? -1 : 1;
    return PyUnicode_Compare(x->text, y->text);
}

/* ... and of the moves found, when the answer keeps fewer (top=1 among tied moves, say): only the kept ones
 * are made. The tables move_order reads: set just before the sort, which runs with the interpreter lock
 * held. */
static const TablesObject *ordering;

static int move_order(const void *a, const void *b) {
    const Move *x = (const Move *)a, *y = (const Move *)b;
    if (x->score != y->score) return x->score > y->score ? -1 : 1;
    uint32_t cx[TEXT_CP], cy[TEXT_CP];
    int nx = move_cps(ordering, x, cx), ny = move_cps(ordering, y, cy), n = nx < ny ? nx : ny;
    for (int i = 0; i < n; i++)
        if (cx[i] != cy[i]) return cx[i] < cy[i] ? -1 : 1;
    return (nx > ny) - (nx < ny);
}

/* solve(nodes, dawg_root, gaddag_root, board, rack, top, count_all, vertical_first, bingo_index, core,
 * move_type, snapshot_type, result_type, position, keep, ties): the search (best `top`, 0: every
 * move), its answer made here as the objects the Python side reads: the moves best first (score, then
 * notation: set_text must have been called), the first `keep` of them (0: all; ties: also those tied with
 * the last kept), count_all the count of every legal move or None, position the Board read (its copy goes
 * into the snapshot when it holds a tile the graph does not know, whose letter the codes cannot give
 * back). One call, positional arguments only. */
static PyObject *Tables_solve(TablesObject *self, PyObject *const *args, Py_ssize_t nargs) {
    struct timespec c0, c1;
    clock_gettime(CLOCK_MONOTONIC, &c0);
    if (nargs != 16) {
        PyErr_SetString(PyExc_TypeError, "solve takes 16 arguments");
        return NULL;
    }
    if (!self->has_text) {
        PyErr_SetString(PyExc_RuntimeError, "set_text() was not called");
        return NULL;
    }
    unsigned long droot = PyLong_AsUnsignedLong(args[1]), groot = PyLong_AsUnsignedLong(args[2]);
    long top = PyLong_AsLong(args[5]), keep = PyLong_AsLong(args[14]);
    if (PyErr_Occurred()) return NULL;
    int count_all = PyObject_IsTrue(args[6]), vertical_first = PyObject_IsTrue(args[7]), ties = PyObject_IsTrue(args[15]);
    if (count_all < 0 || vertical_first < 0 || ties < 0) return NULL;
    if (top > INT_MAX) top = INT_MAX;
    PyObject *core = args[9];
    PyTypeObject *move_type = (PyTypeObject *)args[10], *snap_type = (PyTypeObject *)args[11],
                 *result_type = (PyTypeObject *)args[12];
    if (subtype_arg(args[10], &MoveBaseType, "move_type") < 0 ||
        subtype_arg(args[11], &SnapshotBaseType, "snapshot_type") < 0 ||
        subtype_arg(args[12], &ResultBaseType, "result_type") < 0)
        return NULL;
    Gen g;
    uint8_t board[NSQ];
    Move inline_moves[INLINE_MOVES];
    /* top=1 kept without its ties: the search may leave out moves that only tie the best (search_rank) */
    if (search_into(self, args[0], droot, groot, args[3], args[4], (int)top, count_all, vertical_first,
                    top == 1 && keep == 1 && !ties && !count_all, args[8], &g, board, inline_moves) < 0)
        return NULL;
    /* fewer kept than found: the moves found in order, cut to those kept, the only ones made */
    int cut_here = keep > 0 && g.n > (size_t)keep;
    if (cut_here) {
        ordering = self;
        qsort(g.moves, g.n, sizeof(Move), move_order);
        size_t cut = (size_t)keep;
        if (ties)
            while (cut < g.n && g.moves[cut].score == g.moves[keep - 1].score) cut++;
        g.n = cut;
    }
    ResultObject *res = (ResultObject *)result_type->tp_alloc(result_type, 0);
    SnapshotObject *snap = NULL;
    MoveObject *one[1], **made = g.n <= 1 ? one : (MoveObject **)PyMem_Malloc(g.n * sizeof(MoveObject *));
    size_t nmade = 0, n = g.n;
    PyObject *list = NULL;
    if (!res || !made) goto fail;
    if (n) {
        snap = (SnapshotObject *)snap_type->tp_alloc(snap_type, 0);
        if (!snap) goto fail;
        snap->codes = PyBytes_FromStringAndSize((const char *)board, NSQ);
        if (!snap->codes) goto fail;
        snap->core = Py_NewRef(core);
        if (memchr(board, UNKNOWN_CODE, NSQ) || memchr(board, UNKNOWN_CODE | BLANK_BIT, NSQ)) {
            snap->board = PyObject_CallMethod(args[13], "copy", NULL);
            if (!snap->board) goto fail;
        }
    }
    for (size_t i = 0; i < n; i++) {
        const Move *m = &g.moves[i];
        MoveObject *mo = (MoveObject *)move_type->tp_alloc(move_type, 0);
        if (!mo) goto fail;
        made[nmade++] = mo;
        mo->row = m->dir ? m->start : m->line;
        mo->col = m->dir ? m->line : m->start;
        mo->vertical = (char)(m->dir != 0);
        mo->score = m->score;
        mo->codes = PyBytes_FromStringAndSize((const char *)m->tiles, (Py_ssize_t)m->len);
        if (!mo->codes) goto fail;
        mo->core = Py_NewRef(core);
        mo->snap = Py_NewRef((PyObject *)snap);
        if (n > 1 && !(mo->text = move_text(self, m))) goto fail; /* a list's moves have their text */
    }
    free_moves(&g);
    if (n > 1 && !cut_here) qsort(made, n, sizeof *made, text_order);
    list = PyList_New((Py_ssize_t)n);
    if (!list) goto fail;
    for (size_t i = 0; i < n; i++) PyList_SET_ITEM(list, (Py_ssize_t)i, (PyObject *)made[i]);
    if (made != one) PyMem_Free(made);
    Py_XDECREF(snap);
    res->moves = list;
    if (count_all) {
        res->count_all = PyLong_FromLongLong(g.count);
        if (!res->count_all) {
            Py_DECREF(res);
            return NULL;
        }
    } else {
        res->count_all = Py_NewRef(Py_None);
    }
    clock_gettime(CLOCK_MONOTONIC, &c1);
    res->elapsed_ms = (double)(c1.tv_sec - c0.tv_sec) * 1000.0 + (double)(c1.tv_nsec - c0.tv_nsec) / 1e6;
    return (PyObject *)res;
fail:
    free_moves(&g);
    for (size_t i = 0; i < nmade; i++) Py_DECREF(made[i]);
    if (made && made != one) PyMem_Free(made);
    Py_XDECREF(snap);
    Py_XDECREF(res);
    if (!PyErr_Occurred()) PyErr_NoMemory();
    return NULL;
}

/* Coordinates (indices into ordering's label tables) in the order of the texts they begin: each with a
 * space after it, so a coordinate comes before those it begins. */
static int label_order(const void *pa, const void *pb) {
    int a = *(const int *)pa, b = *(const int *)pb, na = ordering->label_len[a], nb = ordering->label_len[b];
    for (int i = 0; i <= na && i <= nb; i++) {
        uint32_t x = i < na ? ordering->label_cp[a][i] : ' ', y = i < nb ? ordering->label_cp[b][i] : ' ';
        if (x != y) return x < y ? -1 : 1;
    }
    return 0;
}

static PyObject *Tables_set_text(TablesObject *self, PyObject *args) {
    PyObject *fen, *labels;
    if (!PyArg_ParseTuple(args, "O!O!", &PyTuple_Type, &fen, &PyTuple_Type, &labels)) return NULL;
    if (PyTuple_GET_SIZE(fen) != 256 || PyTuple_GET_SIZE(labels) != 2 * NSQ) {
        PyErr_SetString(PyExc_ValueError, "set_text takes 256 letters and 450 coordinates");
        return NULL;
    }
    /* checked in full first: a refused call changes nothing */
    for (Py_ssize_t i = 0; i < 256 + 2 * NSQ; i++) {
        int letter = i < 256;
        PyObject *u = letter ? PyTuple_GET_ITEM(fen, i) : PyTuple_GET_ITEM(labels, i - 256);
        if (!PyUnicode_Check(u) || PyUnicode_GET_LENGTH(u) > (letter ? FEN_CP : LABEL_CP)) {
            PyErr_Format(PyExc_ValueError, "set_text: %s must be str of at most %d characters",
                         letter ? "the letters" : "the coordinates", letter ? FEN_CP : LABEL_CP);
            return NULL;
        }
    }
    for (Py_ssize_t i = 0; i < 256 + 2 * NSQ; i++) {
        int letter = i < 256;
        PyObject *u = letter ? PyTuple_GET_ITEM(fen, i) : PyTuple_GET_ITEM(labels, i - 256);
        Py_ssize_t len = PyUnicode_GET_LENGTH(u);
        uint32_t *cp = letter ? self->fen_cp[i] : self->label_cp[i - 256];
        for (Py_ssize_t j = 0; j < len; j++) cp[j] = PyUnicode_READ_CHAR(u, j);
        if (letter)
            self->fen_len[i] = (uint8_t)len;
        else
            self->label_len[i - 256] = (uint8_t)len;
    }
    /* the coordinates' ranks: a move's text is its coordinate and a space, so two moves of different
     * coordinates compare as their coordinates do, a coordinate before any it begins */
    int by_text[2 * NSQ];
    for (int a = 0; a < 2 * NSQ; a++) by_text[a] = a;
    ordering = self;
    qsort(by_text, 2 * NSQ, sizeof(int), label_order);
    for (int i = 0, rank = 0; i < 2 * NSQ; i++) { /* the same coordinate twice: the same rank */
        if (i && label_order(&by_text[i - 1], &by_text[i])) rank = i;
        self->label_rank[by_text[i]] = (uint16_t)rank;
    }
    self->has_text = 1;
    Py_RETURN_NONE;
}

static PyMethodDef Tables_methods[] = {
    {"solve", (PyCFunction)(void (*)(void))Tables_solve, METH_FASTCALL,
     "solve(nodes, dawg_root, gaddag_root, board, rack, top, count_all, vertical_first, bingo_index, core,\n"
     "move_type, snapshot_type, result_type, position, keep, ties) -> result_type(moves, count or None,\n"
     "elapsed_ms): the search, its moves best first (score, then notation) made as move_type(core,\n"
     "snapshot, row, col, vertical, codes, score) sharing one snapshot_type(core, board codes), the first\n"
     "keep of them (0: all; ties: and those tied with the last); every argument positional."},
    {"set_text", (PyCFunction)Tables_set_text, METH_VARARGS,
     "set_text(letters, coordinates): how solve writes and orders moves (256 str of at most 4 characters\n"
     "by code, 450 str of at most 6 by (row * 15 + col) * 2 + vertical)."},
    {NULL, NULL, 0, NULL},
};

static PyObject *Tables_total_search_ns(TablesObject *self, void *closure) {
    return PyLong_FromLongLong(self->total_search_ns);
}

static PyGetSetDef Tables_getset[] = {
    {"total_search_ns", (getter)Tables_total_search_ns, NULL,
     "nanoseconds every solve() so far spent in the search itself", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject TablesType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "scoring._solver.Tables",
    .tp_basicsize = sizeof(TablesObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Per rule set tables of the move generator.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Tables_init,
    .tp_dealloc = (destructor)Tables_dealloc,
    .tp_methods = Tables_methods,
    .tp_getset = Tables_getset,
};

/* ---- SolverBase: Solver.solve without a Python frame ---------------------------------------------------- */

/* What scoring.solver.Solver binds once (_bind): the arguments of Tables.solve that do not change between
 * calls, where Board keeps its two fields, and the Python method that does everything else. */
typedef struct {
    PyObject_HEAD
    PyObject *tables, *nodes, *droot, *groot, *bingo_index, *core, *ruleset, *rack_cache;
    PyObject *move_type, *snap_type, *result_type, *general;
    PyTypeObject *board_type;
    Py_ssize_t off_ruleset, off_cells;
    long max_top;
} SolverBaseObject;

static PyObject *s_top, *s_count_all, *s_first_vertical, *s_ties;
static PyTypeObject SolverBaseType;

#define SOLVER_FIELDS(X)                                                                                   \
    X(tables) X(nodes) X(droot) X(groot) X(bingo_index) X(core) X(ruleset) X(rack_cache) X(move_type)          \
    X(snap_type) X(result_type) X(general)

static int SolverBase_traverse(SolverBaseObject *self, visitproc visit, void *arg) {
#define VISIT(f) Py_VISIT(self->f);
    SOLVER_FIELDS(VISIT)
#undef VISIT
    Py_VISIT(self->board_type);
    return 0;
}

static int SolverBase_clear(SolverBaseObject *self) {
#define CLEAR(f) Py_CLEAR(self->f);
    SOLVER_FIELDS(CLEAR)
#undef CLEAR
    Py_CLEAR(self->board_type);
    return 0;
}

static void SolverBase_dealloc(SolverBaseObject *self) {
    PyObject_GC_UnTrack(self);
    SolverBase_clear(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* The offset of a __slots__ field of `type` (a member descriptor of an object field), -1 if it has none. */
static Py_ssize_t slot_offset(PyTypeObject *type, const char *name) {
    PyObject *descr = PyDict_GetItemString(type->tp_dict, name);
    if (!descr || !Py_IS_TYPE(descr, &PyMemberDescr_Type)) return -1;
    PyMemberDef *m = ((PyMemberDescrObject *)descr)->d_member;
    return m->type == T_OBJECT_EX || m->type == T_OBJECT ? m->offset : -1;
}

static PyObject *SolverBase_bind(SolverBaseObject *self, PyObject *args) {
    PyObject *f[12];
    PyTypeObject *board_type;
    if (!PyArg_ParseTuple(args, "O!OO!O!OOOO!O!O!O!OO!l:_bind", &TablesType, &f[0], &f[1], &PyLong_Type, &f[2],
                          &PyLong_Type, &f[3], &f[4], &f[5], &f[6], &PyDict_Type, &f[7], &PyType_Type, &f[8],
                          &PyType_Type, &f[9], &PyType_Type, &f[10], &f[11], &PyType_Type, &board_type,
                          &self->max_top))
        return NULL;
    if (subtype_arg(f[8], &MoveBaseType, "move_type") < 0 || subtype_arg(f[9], &SnapshotBaseType, "snapshot_type") < 0 ||
        subtype_arg(f[10], &ResultBaseType, "result_type") < 0)
        return NULL;
    if (!PyCallable_Check(f[11])) {
        PyErr_SetString(PyExc_TypeError, "general must be callable");
        return NULL;
    }
    int i = 0;
#define SET(field) Py_XSETREF(self->field, Py_NewRef(f[i])); i++;
    SOLVER_FIELDS(SET)
#undef SET
    Py_XSETREF(self->board_type, (PyTypeObject *)Py_NewRef((PyObject *)board_type));
    self->off_ruleset = slot_offset(board_type, "ruleset");
    self->off_cells = slot_offset(board_type, "_cells");
    Py_RETURN_NONE;
}

/* _bind_like(other): what another SolverBase was bound with (one copy per solver of a core's binding). */
static PyObject *SolverBase_bind_like(SolverBaseObject *self, PyObject *arg) {
    if (!PyObject_TypeCheck(arg, &SolverBaseType) || !((SolverBaseObject *)arg)->tables) {
        PyErr_SetString(PyExc_TypeError, "_bind_like takes a bound SolverBase");
        return NULL;
    }
    SolverBaseObject *other = (SolverBaseObject *)arg;
#define COPY(field) Py_XSETREF(self->field, Py_NewRef(other->field));
    SOLVER_FIELDS(COPY)
#undef COPY
    Py_XSETREF(self->board_type, (PyTypeObject *)Py_NewRef((PyObject *)other->board_type));
    self->off_ruleset = other->off_ruleset;
    self->off_cells = other->off_cells;
    self->max_top = other->max_top;
    Py_RETURN_NONE;
}

/* solve(board, rack, *, top=None, count_all=False, first_vertical=None, ties=False): the usual call (a
 * Board of the solver's rule set, a rack read before — a str, or a list or tuple of tiles —, top None or
 * a positive int) goes straight to Tables.solve; any other call to the bound Python method (which checks,
 * converts and explains). */
static PyObject *SolverBase_solve(SolverBaseObject *self, PyObject *const *args, Py_ssize_t nargs,
                                  PyObject *kwnames) {
    if (!self->tables) {
        PyErr_SetString(PyExc_RuntimeError, "the solver is not bound");
        return NULL;
    }
    PyObject *top = Py_None, *count_all = Py_False, *first_vertical = Py_None, *ties = Py_False;
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    int fast = nargs == 2;
    for (Py_ssize_t k = 0; fast && k < nkw; k++) {
        PyObject *key = PyTuple_GET_ITEM(kwnames, k), *value = args[nargs + k];
        if (key == s_top) top = value;
        else if (key == s_count_all) count_all = value;
        else if (key == s_first_vertical) first_vertical = value;
        else if (key == s_ties) ties = value;
        else fast = 0; /* another spelling of a name, or a wrong one: the Python method sorts it out */
    }
    PyObject *board = fast ? args[0] : NULL, *cells = NULL, *codes = NULL;
    long ntop = 0;
    if (fast && (Py_TYPE(board) != self->board_type || self->off_ruleset < 0 || self->off_cells < 0 ||
                 *(PyObject **)((char *)board + self->off_ruleset) != self->ruleset ||
                 !(cells = *(PyObject **)((char *)board + self->off_cells))))
        fast = 0;
    if (fast && top != Py_None) {
        int overflow;
        ntop = PyLong_CheckExact(top) ? PyLong_AsLongAndOverflow(top, &overflow) : 0;
        if (ntop < 1 || overflow) fast = 0;
    }
    if (fast) { /* a rack read before: a str, or a list or tuple of tiles (the cache's key is then a tuple) */
        PyObject *rack = args[1], *key = NULL;
        if (PyUnicode_CheckExact(rack) || PyTuple_CheckExact(rack))
            key = Py_NewRef(rack);
        else if (PyList_CheckExact(rack))
            key = PyList_AsTuple(rack);
        if (key) {
            codes = PyDict_GetItemWithError(self->rack_cache, key);
            if (!codes) PyErr_Clear(); /* an unhashable tile, say: the general way explains */
            Py_DECREF(key);
        } else {
            PyErr_Clear();
        }
    }
    if (!fast || !codes) {
        PyObject *small[8], **all = nargs + nkw + 1 <= 8 ? small : PyMem_Malloc((size_t)(nargs + nkw + 1) * sizeof *all);
        if (!all) return PyErr_NoMemory();
        all[0] = (PyObject *)self;
        memcpy(all + 1, args, (size_t)(nargs + nkw) * sizeof *all);
        PyObject *r = PyObject_Vectorcall(self->general, all, (size_t)(nargs + 1), kwnames);
        if (all != small) PyMem_Free(all);
        return r;
    }
    PyObject *zero = PyLong_FromLong(0); /* small ints are shared: no allocation */
    PyObject *a[16] = {self->nodes, self->droot, self->groot, cells, codes,
                       top == Py_None || ntop > self->max_top ? zero : top, count_all,
                       first_vertical != Py_None ? first_vertical : top == Py_None ? Py_True : Py_False,
                       self->bingo_index, self->core, self->move_type, self->snap_type, self->result_type, board,
                       top == Py_None ? zero : top, ties};
    /* held for the call: the search gives the lock back, and another thread may bind this solver anew */
    PyObject *tables = Py_NewRef(self->tables);
    for (int i = 0; i < 16; i++) Py_INCREF(a[i]);
    PyObject *r = Tables_solve((TablesObject *)tables, a, 16);
    for (int i = 0; i < 16; i++) Py_DECREF(a[i]);
    Py_DECREF(tables);
    Py_DECREF(zero);
    return r;
}

static PyMethodDef SolverBase_methods[] = {
    {"solve", (PyCFunction)(void (*)(void))SolverBase_solve, METH_FASTCALL | METH_KEYWORDS,
     "solve(board, rack, *, top=None, count_all=False, first_vertical=None, ties=False) -> SolveResult\n"
     "Every legal move (top=None) or the top best, best first. count_all: also count every legal move\n"
     "(SolveResult.count_all). first_vertical: list vertical moves on the empty board (default: only in\n"
     "the all-moves mode). ties: with top, also keep the moves tied with the last one kept (top=1,\n"
     "ties=True: every move of top score)."},
    {"_bind", (PyCFunction)SolverBase_bind, METH_VARARGS,
     "_bind(tables, nodes, dawg_root, gaddag_root, bingo_index, core, ruleset, rack_cache, move_type,\n"
     "snapshot_type, result_type, general, board_type, max_top): what solve passes to Tables.solve, and\n"
     "general(self, board, rack, **options), which takes every call solve does not."},
    {"_bind_like", (PyCFunction)SolverBase_bind_like, METH_O,
     "_bind_like(other): bound as the bound SolverBase other is (a copy of its references)."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject SolverBaseType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "scoring._solver.SolverBase",
    .tp_basicsize = sizeof(SolverBaseObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "The compiled part of scoring.solver.Solver: its solve.",
    .tp_new = PyType_GenericNew,
    .tp_dealloc = (destructor)SolverBase_dealloc,
    .tp_traverse = (traverseproc)SolverBase_traverse,
    .tp_clear = (inquiry)SolverBase_clear,
    .tp_methods = SolverBase_methods,
};

static struct PyModuleDef moduledef = {
    PyModuleDef_HEAD_INIT, "scoring._solver", "The compiled move generator (see scoring/solver.py).", -1, NULL,
};

PyMODINIT_FUNC PyInit__solver(void) {
    if (PyType_Ready(&TablesType) < 0 || PyType_Ready(&BingoIndexType) < 0 || PyType_Ready(&MoveBaseType) < 0 ||
        PyType_Ready(&SnapshotBaseType) < 0 || PyType_Ready(&ResultBaseType) < 0 || PyType_Ready(&SolverBaseType) < 0)
        return NULL;
    s_top = PyUnicode_InternFromString("top");
    s_count_all = PyUnicode_InternFromString("count_all");
    s_first_vertical = PyUnicode_InternFromString("first_vertical");
    s_ties = PyUnicode_InternFromString("ties");
    if (!s_top || !s_count_all || !s_first_vertical || !s_ties) return NULL;
    s_letter = PyUnicode_InternFromString("letter");
    s_blank = PyUnicode_InternFromString("blank");
    if (!s_letter || !s_blank) return NULL;
    PyObject *m = PyModule_Create(&moduledef);
    if (!m) return NULL;
    Py_INCREF(&TablesType);
    if (PyModule_AddObject(m, "Tables", (PyObject *)&TablesType) < 0) {
        Py_DECREF(&TablesType);
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(&BingoIndexType);
    if (PyModule_AddObject(m, "BingoIndex", (PyObject *)&BingoIndexType) < 0) {
        Py_DECREF(&BingoIndexType);
        Py_DECREF(m);
        return NULL;
    }
    if (PyModule_AddObjectRef(m, "MoveBase", (PyObject *)&MoveBaseType) < 0 ||
        PyModule_AddObjectRef(m, "SnapshotBase", (PyObject *)&SnapshotBaseType) < 0 ||
        PyModule_AddObjectRef(m, "ResultBase", (PyObject *)&ResultBaseType) < 0 ||
        PyModule_AddObjectRef(m, "SolverBase", (PyObject *)&SolverBaseType) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
