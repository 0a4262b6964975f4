/*
 * lexicon._graph: the compiled word graph's hot paths (see graph_format.h).
 *
 *   build(words: list[str], alphabet: str, gaddag: bool, threads: int = 1)
 *       -> (edges: bytes | None, word_count: int, edge_count: int)
 *     Encodes and validates the words (GIL held), then, with the GIL
 *     released: sorts and deduplicates them, builds the minimised DAWG and
 *     the minimised GADDAG with Daciuk et al.'s incremental algorithm for
 *     sorted input, using one registry of sibling lists so that the two
 *     share every equivalent node (with threads=2 a second thread sorts the
 *     GADDAG's groups meanwhile: the same file). Returns the edge array (little-endian
 *     u32, edges 0 and 1 holding the root pointers) or None when it does not
 *     fit the 24-bit child index (edge_count still tells how big it is).
 *     Bad input raises ValueError(("letter", word_index, char_index)) or
 *     ValueError(("length", word_index, length)); a non-str raises TypeError.
 *
 *   pack_lines(data, alphabet, extra, apostrophe, upper, lower), build_packed(records, alphabet_size, gaddag)
 *     A word list read straight from its UTF-8 bytes into sorted, distinct records (the lines it
 *     cannot read as words are handed back), and the graph built from such records.
 *
 *   Core(edges_buffer, alphabet: str)
 *     Read-only view of an edge array (e.g. a memoryview of an mmap):
 *     `word in core`, contains_many, encode, decode, accepts(root, codes),
 *     words() iterator, validate(...), release().
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "graph_format.h"
#include "anagram_index.h"

#define MAX_WORD 15      /* letters in a word */
#define MAX_ENTRY 16     /* symbols in a GADDAG entry (word + separator) */
#define NSYM 66          /* record symbols: 0 pad, 1 separator, 2..64 letters */
#define MAX_SIBLINGS 64  /* separator + 63 letters */

/* ------------------------------------------------------------------ */
/* Alphabet lookup                                                      */
/* ------------------------------------------------------------------ */

typedef struct {
    int size;
    Py_UCS4 letters[KWG_MAX_LETTERS];
    uint8_t bmp[65536]; /* code point -> letter code (0 = not a letter) */
} alphabet_t;

/* Fills `a` from a str of distinct letters; returns -1 with an exception set. */
static int alphabet_init(alphabet_t *a, PyObject *alphabet) {
    if (!PyUnicode_Check(alphabet)) {
        PyErr_SetString(PyExc_TypeError, "alphabet must be a str");
        return -1;
    }
    Py_ssize_t n = PyUnicode_GET_LENGTH(alphabet);
    if (n < 1 || n > (Py_ssize_t)KWG_MAX_LETTERS) {
        PyErr_Format(PyExc_ValueError, "alphabet must have 1..%u letters, not %zd",
                     KWG_MAX_LETTERS, n);
        return -1;
    }
    memset(a->bmp, 0, sizeof a->bmp);
    a->size = (int)n;
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_UCS4 cp = PyUnicode_READ_CHAR(alphabet, i);
        for (Py_ssize_t j = 0; j < i; j++) {
            if (a->letters[j] == cp) {
                PyErr_Format(PyExc_ValueError, "alphabet repeats the letter %c", (int)cp);
                return -1;
            }
        }
        a->letters[i] = cp;
        if (cp < 65536) a->bmp[cp] = (uint8_t)(i + 1);
    }
    return 0;
}

static inline int alphabet_code(const alphabet_t *a, Py_UCS4 cp) {
    if (cp < 65536) return a->bmp[cp];
    for (int i = 0; i < a->size; i++)
        if (a->letters[i] == cp) return i + 1;
    return 0;
}

/* ------------------------------------------------------------------ */
/* Sorting fixed 16-byte records (MSD radix, American flag, in place)   */
/* ------------------------------------------------------------------ */

typedef struct {
    uint8_t s[MAX_ENTRY];
} rec_t;

/* Records compared as two big-endian 64-bit numbers: the order of memcmp, without its call. */
static inline uint64_t rec_hi(const rec_t *r) {
    uint64_t v;
    memcpy(&v, r->s, 8);
    return __builtin_bswap64(v);
}

static inline uint64_t rec_lo(const rec_t *r) {
    uint64_t v;
    memcpy(&v, r->s + 8, 8);
    return __builtin_bswap64(v);
}

static inline int rec_less(const rec_t *a, const rec_t *b) {
    uint64_t ah = rec_hi(a), bh = rec_hi(b);
    return ah < bh || (ah == bh && rec_lo(a) < rec_lo(b));
}

static inline int rec_equal(const rec_t *a, const rec_t *b) {
    return rec_hi(a) == rec_hi(b) && rec_lo(a) == rec_lo(b);
}

/* The records agree on their first `depth` symbols: comparing them whole gives the same order. */
static void insertion_sort(rec_t *a, size_t n, int depth) {
    (void)depth;
    for (size_t i = 1; i < n; i++) {
        rec_t t = a[i];
        size_t j = i;
        while (j > 0 && rec_less(&t, &a[j - 1])) {
            a[j] = a[j - 1];
            j--;
        }
        a[j] = t;
    }
}

static void radix_sort(rec_t *a, size_t n, int depth) {
    if (depth >= MAX_ENTRY) return;
    if (n < 64) {
        insertion_sort(a, n, depth);
        return;
    }
    size_t count[NSYM] = {0}, next[NSYM], end[NSYM];
    for (size_t i = 0; i < n; i++) count[a[i].s[depth]]++;
    size_t pos = 0;
    for (int b = 0; b < NSYM; b++) {
        next[b] = pos;
        pos += count[b];
        end[b] = pos;
    }
    for (int b = 0; b < NSYM; b++) {
        while (next[b] < end[b]) {
            rec_t r = a[next[b]];
            int rb = r.s[depth];
            while (rb != b) {
                rec_t t = a[next[rb]];
                a[next[rb]++] = r;
                r = t;
                rb = r.s[depth];
            }
            a[next[b]++] = r;
        }
    }
    /* bucket 0: the records ended before `depth`, so they are all equal */
    size_t start = count[0];
    for (int b = 1; b < NSYM; b++) {
        if (count[b] > 1) radix_sort(a + start, count[b], depth + 1);
        start += count[b];
    }
}

/* ------------------------------------------------------------------ */
/* Registry of frozen sibling lists + incremental minimisation          */
/* ------------------------------------------------------------------ */

/* Build-time edge: child index (32 bits), end, accepts, tile. Widened so that
 * an oversized graph can be finished and measured before being refused. */
#define BE_CHILD(e) ((uint32_t)(e))
#define BE_END ((uint64_t)1 << 32)
#define BE_ACC ((uint64_t)1 << 33)
#define BE_TILE(e) ((uint32_t)((e) >> 34))
#define BE_MAKE(tile, acc) (((uint64_t)(tile) << 34) | ((acc) ? BE_ACC : 0))

typedef struct {
    uint32_t start; /* 0 = empty slot (lists start at index >= 2) */
    uint32_t hash;
} slot_t;

typedef struct {
    uint64_t *arena;
    size_t len, cap;
    slot_t *slots;
    size_t mask, used;
    /* incremental construction state */
    uint64_t pend[MAX_ENTRY + 1][MAX_SIBLINGS];
    int pcount[MAX_ENTRY + 1];
    uint8_t prev[MAX_ENTRY];
    int prevlen;
    int failed; /* out of memory */
} builder_t;

static inline uint64_t mix64(uint64_t h) {
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    return h;
}

static int builder_init(builder_t *b) {
    memset(b->pcount, 0, sizeof b->pcount);
    b->prevlen = 0;
    b->failed = 0;
    b->cap = 1 << 20;
    b->len = 2; /* edges 0 and 1: root pointers, filled at the end */
    b->arena = malloc(b->cap * sizeof *b->arena);
    b->mask = (1 << 20) - 1;
    b->used = 0;
    b->slots = calloc(b->mask + 1, sizeof *b->slots);
    if (!b->arena || !b->slots) return -1;
    b->arena[0] = b->arena[1] = 0;
    return 0;
}

static void builder_free(builder_t *b) {
    free(b->arena);
    free(b->slots);
    b->arena = NULL;
    b->slots = NULL;
}

static int registry_grow(builder_t *b) {
    size_t ncap = (b->mask + 1) * 2;
    slot_t *ns = calloc(ncap, sizeof *ns);
    if (!ns) return -1;
    size_t nmask = ncap - 1;
    for (size_t i = 0; i <= b->mask; i++) {
        slot_t s = b->slots[i];
        if (!s.start) continue;
        size_t j = s.hash & nmask;
        while (ns[j].start) j = (j + 1) & nmask;
        ns[j] = s;
    }
    free(b->slots);
    b->slots = ns;
    b->mask = nmask;
    return 0;
}

static inline int same_edges(const uint64_t *a, const uint64_t *b, int k) {
    for (int i = 0; i < k; i++)
        if (a[i] != b[i]) return 0;
    return 1;
}

/* Returns the index of a list equal to edges[0..k) (end bit already set on the
 * last one), appending it to the arena if it is new. 0 for an empty list. */
static uint32_t registry_get(builder_t *b, const uint64_t *edges, int k) {
    if (k == 0 || b->failed) return 0;
    uint64_t h64 = (uint64_t)k;
    for (int i = 0; i < k; i++) h64 = mix64(h64 ^ edges[i]) + (uint64_t)i;
    uint32_t h = (uint32_t)(h64 ^ (h64 >> 32));
    size_t j = h & b->mask;
    for (;;) {
        slot_t s = b->slots[j];
        if (!s.start) break;
        if (s.hash == h && same_edges(b->arena + s.start, edges, k)) return s.start;
        j = (j + 1) & b->mask;
    }
    if (b->len + (size_t)k > 0xFFFFFFF0u) { /* beyond any 32-bit index */
        b->failed = 1;
        return 0;
    }
    if (b->len + (size_t)k > b->cap) {
        size_t ncap = b->cap * 2;
        uint64_t *na = realloc(b->arena, ncap * sizeof *na);
        if (!na) {
            b->failed = 1;
            return 0;
        }
        b->arena = na;
        b->cap = ncap;
    }
    uint32_t start = (uint32_t)b->len;
    memcpy(b->arena + start, edges, (size_t)k * sizeof *edges);
    b->len += (size_t)k;
    b->slots[j].start = start;
    b->slots[j].hash = h;
    if (++b->used * 4 > (b->mask + 1) * 3 && registry_grow(b) < 0) b->failed = 1;
    return start;
}

static inline uint32_t freeze(builder_t *b, int d) {
    int k = b->pcount[d];
    if (k == 0) return 0;
    b->pend[d][k - 1] |= BE_END;
    uint32_t id = registry_get(b, b->pend[d], k);
    b->pcount[d] = 0;
    return id;
}

/* Adds one entry (record symbols: 1 separator, 2.. letters); entries must come
 * in strictly increasing order within one run. */
static void builder_add(builder_t *b, const uint8_t *s, int len) {
    int p = 0, lim = len < b->prevlen ? len : b->prevlen;
    while (p < lim && s[p] == b->prev[p]) p++;
    for (int d = b->prevlen; d > p; d--) {
        uint32_t id = freeze(b, d);
        b->pend[d - 1][b->pcount[d - 1] - 1] |= id;
    }
    for (int d = p; d < len; d++) {
        b->pend[d][b->pcount[d]++] = BE_MAKE(s[d] - 1, d == len - 1);
        b->pcount[d + 1] = 0;
        b->prev[d] = s[d];
    }
    b->prevlen = len;
}

/* Freezes the current run and returns its root list (0 if it was empty). */
static uint32_t builder_finish(builder_t *b) {
    for (int d = b->prevlen; d > 0; d--) {
        uint32_t id = freeze(b, d);
        b->pend[d - 1][b->pcount[d - 1] - 1] |= id;
    }
    uint32_t root = freeze(b, 0);
    b->prevlen = 0;
    b->pcount[0] = 0;
    return root;
}

/* Sorts the records and moves the distinct ones to the front; returns how many there are. */
static size_t sort_unique(rec_t *w, size_t n) {
    radix_sort(w, n, 0);
    size_t u = 0;
    for (size_t i = 0; i < n; i++)
        if (u == 0 || !rec_equal(&w[u - 1], &w[i])) w[u++] = w[i];
    return u;
}

static inline int rec_len(const rec_t *r) {
    int n = 0;
    while (n < MAX_ENTRY && r->s[n]) n++;
    return n;
}

typedef struct {
    rec_t *words;
    size_t nwords; /* in: encoded words; out: distinct words */
    int presorted; /* the words are sorted and distinct already (and read-only) */
    int threads;   /* 2: sort the GADDAG groups in a second thread */
    int nletters;
    int gaddag;
    builder_t b;
    uint32_t dawg_root, gaddag_root;
    int oom;
} job_t;

/* The GADDAG entry of the word c (len letters) split after position p: c[p], c[p-1], ..., c[0],
 * then the separator and c[p+1..] unless p is the last letter. */
static inline void make_entry(rec_t *r, const uint8_t *c, int len, int p) {
    uint8_t *e = r->s;
    int k = 0;
    for (int q = p; q >= 0; q--) e[k++] = c[q];
    if (p < len - 1) {
        e[k++] = 1;
        for (int q = p + 1; q < len; q++) e[k++] = c[q];
    }
    while (k < MAX_ENTRY) e[k++] = 0;
}

#define PAIR(r) ((size_t)(r).s[1] * NSYM + (r).s[2])

/* PAIR of make_entry(c, len, p), without making it (len >= 2). */
static inline size_t entry_pair(const uint8_t *c, int len, int p) {
    if (p >= 2) return (size_t)c[p - 1] * NSYM + c[p - 2];
    if (p == 1) return (size_t)c[0] * NSYM + (len > 2 ? 1 : 0);
    return (size_t)1 * NSYM + c[1];
}

/* The GADDAG entries whose first symbol is x, sorted, into `ent` (returns how many): counted and placed
 * by their next two symbols (one pass over the words holding x for each), then each bucket sorted from
 * the fourth symbol on. `cnt` and `pos` have NSYM * NSYM counters. */
static size_t sort_group(const job_t *job, int x, const uint8_t *lens, const uint64_t *masks, rec_t *ent,
                         size_t *cnt, size_t *pos) {
    const rec_t *w = job->words;
    size_t n = job->nwords;
    uint64_t bit = (uint64_t)1 << (x - 2);
    rec_t e;
    memset(cnt, 0, NSYM * NSYM * sizeof *cnt);
    for (size_t i = 0; i < n; i++) {
        if (!(masks[i] & bit)) continue;
        for (int p = 0; p < lens[i]; p++)
            if (w[i].s[p] == x) cnt[entry_pair(w[i].s, lens[i], p)]++;
    }
    size_t m = 0;
    for (size_t k = 0; k < NSYM * NSYM; k++) {
        pos[k] = m;
        m += cnt[k];
    }
    for (size_t i = 0; i < n; i++) {
        if (!(masks[i] & bit)) continue;
        for (int p = 0; p < lens[i]; p++)
            if (w[i].s[p] == x) {
                make_entry(&e, w[i].s, lens[i], p);
                ent[pos[PAIR(e)]++] = e;
            }
    }
    size_t at = 0;
    for (size_t k = 0; k < NSYM * NSYM; k++) {
        if (cnt[k] > 1) radix_sort(ent + at, cnt[k], 3);
        at += cnt[k];
    }
    return m;
}

/* The GADDAG groups, sorted by a second thread while this one adds the previous group to the builder
 * (two buffers in turn); the groups come in the same order either way, so the file is the same. */
typedef struct {
    const job_t *job;
    const uint8_t *lens;
    const uint64_t *masks;
    const size_t *freq;
    rec_t *buf[2];
    size_t len[2];
    int ready[2];
    size_t *cnt;
    pthread_mutex_t mu;
    pthread_cond_t cv;
} sorter_t;

static void *sorter_main(void *arg) {
    sorter_t *t = arg;
    int slot = 0;
    for (int x = 2; x < 2 + t->job->nletters; x++) {
        if (!t->freq[x]) continue;
        pthread_mutex_lock(&t->mu);
        while (t->ready[slot]) pthread_cond_wait(&t->cv, &t->mu);
        pthread_mutex_unlock(&t->mu);
        size_t m = sort_group(t->job, x, t->lens, t->masks, t->buf[slot], t->cnt, t->cnt + NSYM * NSYM);
        pthread_mutex_lock(&t->mu);
        t->len[slot] = m;
        t->ready[slot] = 1;
        pthread_cond_broadcast(&t->cv);
        pthread_mutex_unlock(&t->mu);
        slot ^= 1;
    }
    return NULL;
}

/* Adds every GADDAG group with the sorter thread; 0 when it could not start (nothing added then). */
static int add_groups_threaded(job_t *job, sorter_t *t) {
    pthread_t thread;
    if (pthread_mutex_init(&t->mu, NULL)) return 0;
    if (pthread_cond_init(&t->cv, NULL)) {
        pthread_mutex_destroy(&t->mu);
        return 0;
    }
    int started = pthread_create(&thread, NULL, sorter_main, t) == 0;
    int slot = 0;
    for (int x = 2; started && x < 2 + job->nletters; x++) {
        if (!t->freq[x]) continue;
        pthread_mutex_lock(&t->mu);
        while (!t->ready[slot]) pthread_cond_wait(&t->cv, &t->mu);
        pthread_mutex_unlock(&t->mu);
        for (size_t i = 0; i < t->len[slot]; i++) builder_add(&job->b, t->buf[slot][i].s, rec_len(&t->buf[slot][i]));
        pthread_mutex_lock(&t->mu);
        t->ready[slot] = 0;
        pthread_cond_broadcast(&t->cv);
        pthread_mutex_unlock(&t->mu);
        slot ^= 1;
    }
    if (started) pthread_join(thread, NULL);
    pthread_cond_destroy(&t->cv);
    pthread_mutex_destroy(&t->mu);
    return started;
}

static void run_build(job_t *job) {
    rec_t *w = job->words;
    size_t n = job->nwords;
    if (!job->presorted) job->nwords = n = sort_unique(w, n);

    builder_t *b = &job->b;
    uint8_t *lens = malloc(n ? n : 1);
    uint64_t *masks = job->gaddag ? malloc((n ? n : 1) * sizeof *masks) : NULL;
    if (!lens || (job->gaddag && !masks)) {
        free(lens);
        job->oom = 1;
        return;
    }
    size_t freq[NSYM] = {0};
    for (size_t i = 0; i < n; i++) {
        int len = rec_len(&w[i]);
        lens[i] = (uint8_t)len;
        builder_add(b, w[i].s, len);
        uint64_t mask = 0;
        for (int k = 0; k < len; k++) {
            freq[w[i].s[k]]++;
            mask |= (uint64_t)1 << (w[i].s[k] - 2);
        }
        if (masks) masks[i] = mask;
    }
    job->dawg_root = builder_finish(b);

    if (job->gaddag && n) {
        /* Entries grouped by their first symbol (the letter the split follows), so that only one or two
         * groups are held at a time: the groups go to the two buffers in turn (most[0], most[1]: the
         * biggest group each gets; most[2]: the biggest of all, for one thread). */
        size_t most[3] = {0, 0, 0};
        int turn = 0;
        for (int x = 2; x < 2 + job->nletters; x++) {
            if (!freq[x]) continue;
            if (freq[x] > most[turn]) most[turn] = freq[x];
            if (freq[x] > most[2]) most[2] = freq[x];
            turn ^= 1;
        }
        sorter_t t = {.job = job, .lens = lens, .masks = masks, .freq = freq};
        int two = job->threads > 1 && most[1] > 0;
        t.buf[0] = malloc((two ? most[0] : most[2]) * sizeof(rec_t));
        t.buf[1] = two ? malloc(most[1] * sizeof(rec_t)) : NULL;
        t.cnt = malloc(2 * NSYM * NSYM * sizeof *t.cnt);
        if (!t.buf[0] || !t.cnt) {
            free(t.buf[0]);
            free(t.buf[1]);
            free(t.cnt);
            free(lens);
            free(masks);
            job->oom = 1;
            return;
        }
        if (!t.buf[1] || !add_groups_threaded(job, &t)) {
            rec_t *one = two ? realloc(t.buf[0], (most[2] ? most[2] : 1) * sizeof(rec_t)) : t.buf[0];
            if (!one) {
                job->oom = 1;
                most[2] = 0; /* nothing more is sorted; buf[0] is freed below */
            } else {
                t.buf[0] = one;
            }
            for (int x = 2; most[2] && x < 2 + job->nletters; x++) {
                if (!freq[x]) continue;
                size_t m = sort_group(job, x, lens, masks, t.buf[0], t.cnt, t.cnt + NSYM * NSYM);
                for (size_t i = 0; i < m; i++) builder_add(b, t.buf[0][i].s, rec_len(&t.buf[0][i]));
            }
        }
        free(t.buf[0]);
        free(t.buf[1]);
        free(t.cnt);
        job->gaddag_root = builder_finish(b);
    }
    free(lens);
    free(masks);
    if (b->failed) job->oom = 1;
}

/* Builds the graph of job->words (not freed here) and returns (edges | None, word count, edge count);
 * frees the job. */
static PyObject *run_job(job_t *job) {
    if (builder_init(&job->b) < 0) {
        builder_free(&job->b);
        free(job);
        return PyErr_NoMemory();
    }
    Py_BEGIN_ALLOW_THREADS
    run_build(job);
    Py_END_ALLOW_THREADS
    job->words = NULL;
    if (job->oom) {
        builder_free(&job->b);
        free(job);
        return PyErr_NoMemory();
    }
    builder_t *b = &job->b;
    size_t count = b->len;
    PyObject *edges;
    if (count > KWG_MAX_NODES) {
        edges = Py_NewRef(Py_None);
    } else {
        b->arena[0] = BE_END | job->dawg_root;
        b->arena[1] = BE_END | job->gaddag_root;
        edges = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(count * 4));
        if (!edges) {
            builder_free(b);
            free(job);
            return NULL;
        }
        uint8_t *out = (uint8_t *)PyBytes_AS_STRING(edges);
        for (size_t i = 0; i < count; i++) {
            uint64_t e = b->arena[i];
            uint32_t v = KWG_EDGE(BE_TILE(e), (e & BE_ACC) ? 1 : 0, (e & BE_END) ? 1 : 0, BE_CHILD(e));
            out[4 * i] = (uint8_t)v;
            out[4 * i + 1] = (uint8_t)(v >> 8);
            out[4 * i + 2] = (uint8_t)(v >> 16);
            out[4 * i + 3] = (uint8_t)(v >> 24);
        }
    }
    PyObject *result = Py_BuildValue("(Nnn)", edges, (Py_ssize_t)job->nwords, (Py_ssize_t)count);
    builder_free(b);
    free(job);
    return result;
}

static PyObject *py_build(PyObject *self, PyObject *args) {
    PyObject *words, *alphabet;
    int gaddag, threads = 1;
    if (!PyArg_ParseTuple(args, "OUp|i:build", &words, &alphabet, &gaddag, &threads)) return NULL;
    alphabet_t *alpha = malloc(sizeof *alpha);
    if (!alpha) return PyErr_NoMemory();
    if (alphabet_init(alpha, alphabet) < 0) {
        free(alpha);
        return NULL;
    }
    PyObject *seq = PySequence_Fast(words, "words must be a sequence of str");
    if (!seq) {
        free(alpha);
        return NULL;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    PyObject **items = PySequence_Fast_ITEMS(seq);
    job_t *job = calloc(1, sizeof *job);
    rec_t *recs = malloc((size_t)(n ? n : 1) * sizeof *recs);
    if (!job || !recs) {
        free(alpha);
        free(job);
        free(recs);
        Py_DECREF(seq);
        return PyErr_NoMemory();
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *w = items[i];
        if (!PyUnicode_Check(w)) {
            PyErr_Format(PyExc_TypeError, "word #%zd is %.100s, not str", i, Py_TYPE(w)->tp_name);
            goto fail;
        }
        Py_ssize_t len = PyUnicode_GET_LENGTH(w);
        int kind = PyUnicode_KIND(w);
        const void *data = PyUnicode_DATA(w);
        uint8_t *s = recs[i].s;
        for (Py_ssize_t k = 0; k < len; k++) {
            int code = alphabet_code(alpha, PyUnicode_READ(kind, data, k));
            if (!code) {
                PyObject *detail = Py_BuildValue("(snn)", "letter", i, k);
                if (detail) PyErr_SetObject(PyExc_ValueError, detail);
                Py_XDECREF(detail);
                goto fail;
            }
            if (k < MAX_ENTRY) s[k] = (uint8_t)(code + 1);
        }
        if (len < 2 || len > MAX_WORD) {
            PyObject *detail = Py_BuildValue("(snn)", "length", i, len);
            if (detail) PyErr_SetObject(PyExc_ValueError, detail);
            Py_XDECREF(detail);
            goto fail;
        }
        for (Py_ssize_t k = len; k < MAX_ENTRY; k++) s[k] = 0;
    }
    Py_DECREF(seq);
    seq = NULL;

    job->words = recs;
    job->nwords = (size_t)n;
    job->nletters = alpha->size;
    job->gaddag = gaddag;
    job->threads = threads;
    free(alpha);
    alpha = NULL;
    PyObject *result = run_job(job);
    free(recs);
    return result;

fail:
    Py_XDECREF(seq);
    free(alpha);
    free(recs);
    free(job);
    return NULL;
}

/* ------------------------------------------------------------------ */
/* Packed words: a word list read straight from its bytes                */
/* ------------------------------------------------------------------ */

/* Decodes one UTF-8 character of s[0..n) (shortest form only, no surrogates): its code point and
 * length, or 0 when the bytes are not valid UTF-8. */
static inline int utf8_next(const uint8_t *s, size_t n, Py_UCS4 *cp) {
    uint8_t c = s[0];
    if (c < 0x80) {
        *cp = c;
        return 1;
    }
    if ((c & 0xE0) == 0xC0) {
        if (n < 2 || (s[1] & 0xC0) != 0x80) return 0;
        *cp = ((Py_UCS4)(c & 0x1F) << 6) | (s[1] & 0x3F);
        return *cp >= 0x80 ? 2 : 0;
    }
    if ((c & 0xF0) == 0xE0) {
        if (n < 3 || (s[1] & 0xC0) != 0x80 || (s[2] & 0xC0) != 0x80) return 0;
        *cp = ((Py_UCS4)(c & 0x0F) << 12) | ((Py_UCS4)(s[1] & 0x3F) << 6) | (s[2] & 0x3F);
        return *cp >= 0x800 && (*cp < 0xD800 || *cp > 0xDFFF) ? 3 : 0;
    }
    if ((c & 0xF8) == 0xF0) {
        if (n < 4 || (s[1] & 0xC0) != 0x80 || (s[2] & 0xC0) != 0x80 || (s[3] & 0xC0) != 0x80) return 0;
        *cp = ((Py_UCS4)(c & 0x07) << 18) | ((Py_UCS4)(s[1] & 0x3F) << 12) | ((Py_UCS4)(s[2] & 0x3F) << 6) |
              (s[3] & 0x3F);
        return *cp >= 0x10000 && *cp <= 0x10FFFF ? 4 : 0;
    }
    return 0;
}

static inline int blank(uint8_t c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

/* Case of the characters a word list may write (for "skip capitalised words"). */
#define CASE_UPPER 1 /* its lower case differs: a line with it is capitalised */
#define CASE_LOWER 2 /* its upper case differs */

typedef struct {
    alphabet_t alpha;
    int apostrophe;           /* letter code of ', 0 if none */
    int split;                /* capitalised lines apart */
    uint8_t casing[65536];    /* CASE_* by code point */
} packer_t;

/* Encodes one line (without its "\n") into `r`: 0 when it is blank, 1 when it is a word, -1 when the
 * fast reader leaves it to the caller (anything else: a foreign or unknown character, a bad length, an
 * apostrophe at an end or doubled, invalid UTF-8). *casing gets the CASE_* bits of its characters. */
static int pack_line(const packer_t *p, const uint8_t *s, size_t n, rec_t *r, int *casing) {
    const alphabet_t *a = &p->alpha;
    int apostrophe = p->apostrophe;
    while (n && blank(s[n - 1])) n--;
    while (n && blank(s[0])) s++, n--;
    if (!n) return 0;
    int len = 0;
    *casing = 0;
    for (size_t i = 0; i < n;) {
        Py_UCS4 cp;
        int k = utf8_next(s + i, n - i, &cp);
        if (!k) return -1;
        int code = alphabet_code(a, cp);
        if (!code || len == MAX_WORD) return -1;
        if (code == apostrophe && (len == 0 || r->s[len - 1] == apostrophe + 1)) return -1;
        if (cp < 65536) *casing |= p->casing[cp];
        r->s[len++] = (uint8_t)(code + 1);
        i += (size_t)k;
    }
    if (len < 2 || (apostrophe && r->s[len - 1] == apostrophe + 1)) return -1;
    memset(r->s + len, 0, (size_t)(MAX_ENTRY - len));
    return 1;
}

static int append_line(PyObject *list, size_t number, size_t start, size_t end) {
    PyObject *item = Py_BuildValue("(nnn)", (Py_ssize_t)number, (Py_ssize_t)start, (Py_ssize_t)end);
    int r = item ? PyList_Append(list, item) : -1;
    Py_XDECREF(item);
    return r;
}

/* Fills the packer from the arguments of pack_lines; -1 with an exception set. */
static int packer_init(packer_t *p, PyObject *alphabet, PyObject *extra, int apostrophe, PyObject *upper,
                       PyObject *lower) {
    if (alphabet_init(&p->alpha, alphabet) < 0) return -1;
    Py_ssize_t nextra = PyUnicode_GET_LENGTH(extra);
    for (Py_ssize_t i = 0; i + 1 < nextra; i += 2) {
        Py_UCS4 from = PyUnicode_READ_CHAR(extra, i), to = PyUnicode_READ_CHAR(extra, i + 1);
        int code = alphabet_code(&p->alpha, to);
        if (from < 65536 && code && !p->alpha.bmp[from]) p->alpha.bmp[from] = (uint8_t)code;
    }
    p->apostrophe = apostrophe;
    memset(p->casing, 0, sizeof p->casing);
    p->split = PyUnicode_GET_LENGTH(upper) > 0;
    for (int which = 0; which < 2; which++) {
        PyObject *chars = which ? lower : upper;
        for (Py_ssize_t i = 0; i < PyUnicode_GET_LENGTH(chars); i++) {
            Py_UCS4 cp = PyUnicode_READ_CHAR(chars, i);
            if (cp < 65536) p->casing[cp] |= which ? CASE_LOWER : CASE_UPPER;
        }
    }
    return 0;
}

/* Appends (number, start, end) of every capitalised word line to `list` (a second pass: only when the
 * list has lower-case words, so that a list in capitals costs nothing). */
static int find_capitalised(const packer_t *p, const uint8_t *s, size_t n, PyObject *list) {
    rec_t spare;
    size_t number = 0, at = 0;
    if (n >= 3 && s[0] == 0xEF && s[1] == 0xBB && s[2] == 0xBF) at = 3;
    while (at < n) {
        const uint8_t *nl = memchr(s + at, '\n', n - at);
        size_t end = nl ? (size_t)(nl - s) : n;
        number++;
        int casing = 0;
        if (pack_line(p, s + at, end - at, &spare, &casing) > 0 && (casing & CASE_UPPER) &&
            append_line(list, number, at, end) < 0)
            return -1;
        at = end + 1;
    }
    return 0;
}

/* pack_lines(data, alphabet, extra, apostrophe, upper, lower)
 *     -> (records, duplicates, words, left, cap_records, cap_words, cap_duplicates, cap_lines, has_lower)
 *   data: UTF-8 text, one word a line ("\n"; surrounding spaces, tabs and CR ignored, a BOM first);
 *   extra: pairs of characters, the second a letter of the alphabet the first is read as (e.g. the
 *   lower-case letters); apostrophe: the letter code of ' (never at an end or doubled), 0 if none;
 *   upper: when not empty, the lines with one of these characters (capitalised) are kept apart;
 *   lower: the lower-case characters (has_lower: some other line read as a word holds one).
 *   records: the distinct words as sorted 16-byte records; duplicates: words read again; words:
 *   lines read as words; left: (line number, start, end) of every other non-blank line; cap_*: the
 *   same for the capitalised lines (cap_lines: where they are, None unless has_lower). */
static PyObject *py_pack_lines(PyObject *self, PyObject *args) {
    Py_buffer data;
    PyObject *alphabet, *extra, *upper, *lower;
    int apostrophe;
    if (!PyArg_ParseTuple(args, "y*UUiUU:pack_lines", &data, &alphabet, &extra, &apostrophe, &upper, &lower))
        return NULL;
    PyObject *result = NULL, *left = PyList_New(0), *cap_lines = PyList_New(0);
    rec_t *recs = NULL, *caps = NULL;
    packer_t *p = malloc(sizeof *p);
    if (!p || !left || !cap_lines) {
        if (!p) PyErr_NoMemory();
        goto out;
    }
    if (packer_init(p, alphabet, extra, apostrophe, upper, lower) < 0) goto out;
    const uint8_t *s = data.buf;
    size_t n = (size_t)data.len, lines = 1;
    for (size_t i = 0; i < n; i++) lines += s[i] == '\n';
    if (lines > n / 3 + 2) lines = n / 3 + 2; /* a word line holds 2 characters and its "\n" at least */
    recs = malloc(lines * sizeof *recs);
    caps = p->split ? malloc(lines * sizeof *caps) : NULL;
    if (!recs || (p->split && !caps)) {
        PyErr_NoMemory();
        goto out;
    }
    size_t count = 0, ncaps = 0, number = 0, at = 0;
    int has_lower = 0;
    if (n >= 3 && s[0] == 0xEF && s[1] == 0xBB && s[2] == 0xBF) at = 3;
    while (at < n) {
        const uint8_t *nl = memchr(s + at, '\n', n - at);
        size_t end = nl ? (size_t)(nl - s) : n;
        number++;
        int casing = 0;
        rec_t *r = &recs[count];
        int got = pack_line(p, s + at, end - at, r, &casing);
        if (got > 0 && p->split && (casing & CASE_UPPER)) {
            caps[ncaps++] = *r;
        } else if (got > 0) {
            count++;
            has_lower |= (casing & CASE_LOWER) != 0;
        } else if (got < 0 && append_line(left, number, at, end) < 0) {
            goto out;
        }
        at = end + 1;
    }
    if (ncaps && has_lower && find_capitalised(p, s, n, cap_lines) < 0) goto out;
    size_t unique, cap_unique;
    Py_BEGIN_ALLOW_THREADS
    unique = sort_unique(recs, count);
    cap_unique = caps ? sort_unique(caps, ncaps) : 0;
    Py_END_ALLOW_THREADS
    PyObject *packed = PyBytes_FromStringAndSize((const char *)recs, (Py_ssize_t)(unique * sizeof *recs));
    free(recs);
    recs = NULL;
    PyObject *cap_packed = PyBytes_FromStringAndSize((const char *)caps, (Py_ssize_t)(cap_unique * sizeof *recs));
    if (packed && cap_packed)
        result = Py_BuildValue("(NnnONnnOO)", packed, (Py_ssize_t)(count - unique), (Py_ssize_t)(count + ncaps),
                               left, cap_packed, (Py_ssize_t)ncaps, (Py_ssize_t)(ncaps - cap_unique),
                               ncaps && has_lower ? cap_lines : Py_None, has_lower ? Py_True : Py_False);
    else {
        Py_XDECREF(packed);
        Py_XDECREF(cap_packed);
    }
out:
    Py_XDECREF(left);
    Py_XDECREF(cap_lines);
    free(recs);
    free(caps);
    free(p);
    PyBuffer_Release(&data);
    return result;
}

/* build_packed(records, alphabet_size, gaddag) -> as build(): the records of pack_lines (checked). */
static PyObject *py_build_packed(PyObject *self, PyObject *args) {
    Py_buffer data;
    int nletters, gaddag, threads = 1;
    if (!PyArg_ParseTuple(args, "y*ip|i:build_packed", &data, &nletters, &gaddag, &threads)) return NULL;
    const rec_t *w = data.buf;
    size_t n = (size_t)data.len / sizeof *w;
    const char *bad = NULL;
    if (data.len % (Py_ssize_t)sizeof *w || nletters < 1 || nletters > (int)KWG_MAX_LETTERS) bad = "not packed words";
    for (size_t i = 0; !bad && i < n; i++) {
        int len = rec_len(&w[i]);
        if (len < 2 || len > MAX_WORD) bad = "a packed word has a bad length";
        for (int k = 0; !bad && k < MAX_ENTRY; k++)
            if (k < len ? (w[i].s[k] < 2 || w[i].s[k] > nletters + 1) : w[i].s[k] != 0) bad = "a packed word is corrupt";
        if (!bad && i && memcmp(w[i - 1].s, w[i].s, MAX_ENTRY) >= 0) bad = "packed words are not sorted and distinct";
    }
    job_t *job = bad ? NULL : calloc(1, sizeof *job);
    if (!job) {
        PyBuffer_Release(&data);
        if (bad) PyErr_SetString(PyExc_ValueError, bad);
        else PyErr_NoMemory();
        return NULL;
    }
    job->words = (rec_t *)data.buf; /* only read: presorted */
    job->nwords = n;
    job->presorted = 1;
    job->nletters = nletters;
    job->gaddag = gaddag;
    job->threads = threads;
    PyObject *result = run_job(job);
    PyBuffer_Release(&data);
    return result;
}

/* ------------------------------------------------------------------ */
/* Core: read-only access to an edge array                              */
/* ------------------------------------------------------------------ */

typedef struct {
    PyObject_HEAD
    Py_buffer view;
    int has_view;
    const uint32_t *nodes;
    uint32_t n;
    uint32_t dawg_root, gaddag_root;
    alphabet_t alpha;
} CoreObject;

static int core_check(CoreObject *c) {
    if (!c->has_view) {
        PyErr_SetString(PyExc_ValueError, "the word graph is closed");
        return -1;
    }
    return 0;
}

/* Follows `codes` from the list at `node`; returns the last edge's index, 0 if
 * the path does not exist. */
static inline uint32_t walk(const uint32_t *nodes, uint32_t node, const uint8_t *codes, Py_ssize_t len) {
    uint32_t i = 0;
    for (Py_ssize_t k = 0; k < len; k++) {
        if (!node) return 0;
        uint32_t c = codes[k];
        for (i = node;; i++) {
            uint32_t e = nodes[i];
            uint32_t t = KWG_TILE(e);
            if (t == c) break;
            if (t > c || KWG_IS_END(e)) return 0;
        }
        node = KWG_CHILD(nodes[i]);
    }
    return i;
}

/* Encodes a str into codes (up to `cap`); returns its length, -1 if a letter is
 * foreign (its index in *bad), -2 if it is longer than `cap`. */
static Py_ssize_t encode_str(const alphabet_t *a, PyObject *w, uint8_t *out, Py_ssize_t cap, Py_ssize_t *bad) {
    Py_ssize_t len = PyUnicode_GET_LENGTH(w);
    int kind = PyUnicode_KIND(w);
    const void *data = PyUnicode_DATA(w);
    for (Py_ssize_t k = 0; k < len; k++) {
        int code = alphabet_code(a, PyUnicode_READ(kind, data, k));
        if (!code) {
            *bad = k;
            return -1;
        }
        if (k < cap) out[k] = (uint8_t)code;
    }
    return len > cap ? -2 : len;
}

static int core_has_word(CoreObject *c, PyObject *w) {
    if (!PyUnicode_Check(w)) return 0;
    uint8_t codes[MAX_WORD + 1];
    Py_ssize_t bad;
    Py_ssize_t len = encode_str(&c->alpha, w, codes, MAX_WORD + 1, &bad);
    if (len <= 0) return 0;
    uint32_t i = walk(c->nodes, c->dawg_root, codes, len);
    return i && KWG_ACCEPTS(c->nodes[i]);
}

static int core_sq_contains(PyObject *self, PyObject *w) {
    CoreObject *c = (CoreObject *)self;
    if (core_check(c) < 0) return -1;
    return core_has_word(c, w);
}

static PyObject *core_contains(PyObject *self, PyObject *w) {
    CoreObject *c = (CoreObject *)self;
    if (core_check(c) < 0) return NULL;
    return PyBool_FromLong(core_has_word(c, w));
}

static PyObject *core_contains_many(PyObject *self, PyObject *words) {
    CoreObject *c = (CoreObject *)self;
    if (core_check(c) < 0) return NULL;
    PyObject *it = PyObject_GetIter(words);
    if (!it) return NULL;
    PyObject *out = PyList_New(0);
    PyObject *w;
    while (out && (w = PyIter_Next(it))) {
        int r = PyList_Append(out, core_has_word(c, w) ? Py_True : Py_False);
        Py_DECREF(w);
        if (r < 0) Py_CLEAR(out);
    }
    Py_DECREF(it);
    if (PyErr_Occurred()) Py_CLEAR(out);
    return out;
}

static PyObject *core_encode(PyObject *self, PyObject *w) {
    CoreObject *c = (CoreObject *)self;
    if (!PyUnicode_Check(w)) {
        PyErr_Format(PyExc_TypeError, "expected str, not %.100s", Py_TYPE(w)->tp_name);
        return NULL;
    }
    Py_ssize_t len = PyUnicode_GET_LENGTH(w), bad;
    PyObject *out = PyBytes_FromStringAndSize(NULL, len);
    if (!out) return NULL;
    if (encode_str(&c->alpha, w, (uint8_t *)PyBytes_AS_STRING(out), len, &bad) < 0) {
        Py_DECREF(out);
        PyObject *detail = PyLong_FromSsize_t(bad);
        if (detail) PyErr_SetObject(PyExc_ValueError, detail);
        Py_XDECREF(detail);
        return NULL;
    }
    return out;
}

static PyObject *core_decode(PyObject *self, PyObject *arg) {
    CoreObject *c = (CoreObject *)self;
    Py_buffer b;
    if (PyObject_GetBuffer(arg, &b, PyBUF_SIMPLE) < 0) return NULL;
    const uint8_t *codes = b.buf;
    Py_UCS4 *buf = PyMem_Malloc((size_t)(b.len ? b.len : 1) * sizeof *buf);
    if (!buf) {
        PyBuffer_Release(&b);
        return PyErr_NoMemory();
    }
    PyObject *out = NULL;
    for (Py_ssize_t k = 0; k < b.len; k++) {
        if (codes[k] < 1 || codes[k] > c->alpha.size) {
            PyObject *detail = Py_BuildValue("(ni)", k, (int)codes[k]);
            if (detail) PyErr_SetObject(PyExc_ValueError, detail);
            Py_XDECREF(detail);
            goto done;
        }
        buf[k] = c->alpha.letters[codes[k] - 1];
    }
    out = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, buf, b.len);
done:
    PyMem_Free(buf);
    PyBuffer_Release(&b);
    return out;
}

static PyObject *core_accepts(PyObject *self, PyObject *args) {
    CoreObject *c = (CoreObject *)self;
    unsigned long root;
    Py_buffer b;
    if (!PyArg_ParseTuple(args, "ky*:accepts", &root, &b)) return NULL;
    if (core_check(c) < 0 || root >= c->n || root == 1) {
        if (!PyErr_Occurred()) PyErr_Format(PyExc_ValueError, "root %lu is not a list index", root);
        PyBuffer_Release(&b);
        return NULL;
    }
    int ok = 0;
    if (b.len > 0) {
        uint32_t i = walk(c->nodes, (uint32_t)root, b.buf, b.len);
        ok = i && KWG_ACCEPTS(c->nodes[i]);
    }
    PyBuffer_Release(&b);
    return PyBool_FromLong(ok);
}

/* validate(alphabet_size, has_gaddag, count_words) -> DAWG word count or -1.
 * Checks that every walk stays inside the array and terminates: child indices
 * point before the sibling list holding the edge (so the graph is acyclic),
 * lists are sorted, terminated, and letters are in the alphabet. */
static PyObject *core_validate(PyObject *self, PyObject *args) {
    CoreObject *c = (CoreObject *)self;
    int nletters, has_gaddag, count_words;
    if (!PyArg_ParseTuple(args, "ipp:validate", &nletters, &has_gaddag, &count_words)) return NULL;
    if (core_check(c) < 0) return NULL;
    const uint32_t *nodes = c->nodes;
    uint32_t n = c->n;
    char msg[200] = "";
    if (n < 2) {
        PyErr_SetString(PyExc_ValueError, "the edge array has fewer than 2 edges");
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS
    /* the common case first: one pass without branches that only says whether every edge is sound;
     * the pass below, which names the first fault, runs only when it is not */
    uint32_t bad = 0, first = 2, prev_tile = 0;
    for (uint32_t i = 2; i < n; i++) {
        uint32_t e = nodes[i], ch = KWG_CHILD(e), t = KWG_TILE(e);
        bad |= (uint32_t)(t > (uint32_t)nletters);
        bad |= (uint32_t)(ch != 0) & ((uint32_t)(ch < 2) | (uint32_t)(ch >= first));
        bad |= (uint32_t)(ch == 0) & (uint32_t)!KWG_ACCEPTS(e);
        bad |= (uint32_t)(i > first) & (uint32_t)(prev_tile >= t);
        prev_tile = t;
        first = KWG_IS_END(e) ? i + 1 : first;
    }
    uint32_t start = bad || first != n ? 2 : n;
    for (uint32_t i = start; i < n; i++) {
        uint32_t e = nodes[i], ch = KWG_CHILD(e), t = KWG_TILE(e);
        if (t > (uint32_t)nletters) {
            snprintf(msg, sizeof msg, "edge %u has letter code %u, the alphabet has %d letters", i, t, nletters);
            break;
        }
        if (ch != 0 && (ch < 2 || ch >= start)) {
            snprintf(msg, sizeof msg, "edge %u points to %u, outside the lists before it", i, ch);
            break;
        }
        if (ch == 0 && !KWG_ACCEPTS(e)) {
            snprintf(msg, sizeof msg, "edge %u leads nowhere and accepts nothing", i);
            break;
        }
        if (i > start && KWG_TILE(nodes[i - 1]) >= t) {
            snprintf(msg, sizeof msg, "the sibling list holding edge %u is not sorted", i);
            break;
        }
        if (KWG_IS_END(e)) start = i + 1;
    }
    if (!msg[0] && start != n) snprintf(msg, sizeof msg, "the last sibling list (from edge %u) is not terminated", start);
    Py_END_ALLOW_THREADS
    if (msg[0]) {
        PyErr_SetString(PyExc_ValueError, msg);
        return NULL;
    }
    uint32_t dr = KWG_CHILD(nodes[0]), gr = KWG_CHILD(nodes[1]);
    if (dr == 1 || dr >= n || gr == 1 || gr >= n) {
        PyErr_SetString(PyExc_ValueError, "a root pointer is out of range");
        return NULL;
    }
    if (!has_gaddag && gr != 0) {
        PyErr_SetString(PyExc_ValueError, "the flags say there is no GADDAG but edge 1 points to one");
        return NULL;
    }
    if (has_gaddag && gr == 0 && dr != 0) {
        PyErr_SetString(PyExc_ValueError, "the flags say there is a GADDAG but edge 1 does not point to one");
        return NULL;
    }
    if (!count_words) return PyLong_FromLong(-1);
    /* words[i] = accepted paths through edge i and its later siblings */
    uint32_t *words = malloc((size_t)n * sizeof *words);
    if (!words) return PyErr_NoMemory();
    Py_BEGIN_ALLOW_THREADS
    words[0] = words[1] = 0;
    uint32_t s = 2;
    while (s < n) {
        uint32_t t = s;
        while (!KWG_IS_END(nodes[t])) t++;
        for (uint32_t i = t + 1; i-- > s;) {
            uint64_t v = KWG_ACCEPTS(nodes[i]);
            uint32_t ch = KWG_CHILD(nodes[i]);
            if (ch) v += words[ch];
            if (i < t) v += words[i + 1];
            words[i] = v > 0xFFFFFFFFu ? 0xFFFFFFFFu : (uint32_t)v;
        }
        s = t + 1;
    }
    Py_END_ALLOW_THREADS
    long count = dr ? (long)words[dr] : 0;
    free(words);
    return PyLong_FromLong(count);
}

static PyObject *core_release(PyObject *self, PyObject *unused) {
    CoreObject *c = (CoreObject *)self;
    if (c->has_view) {
        PyBuffer_Release(&c->view);
        c->has_view = 0;
        c->nodes = NULL;
        c->n = 0;
    }
    Py_RETURN_NONE;
}

static PyObject *core_words(PyObject *self, PyObject *unused);

static PyMethodDef core_methods[] = {
    {"contains", core_contains, METH_O, "contains(word) -> bool"},
    {"contains_many", core_contains_many, METH_O, "contains_many(iterable) -> list[bool]"},
    {"encode", core_encode, METH_O, "encode(str) -> bytes of letter codes; ValueError(index)"},
    {"decode", core_decode, METH_O, "decode(bytes) -> str; ValueError((index, code))"},
    {"accepts", core_accepts, METH_VARARGS, "accepts(root, codes) -> bool: the path is accepted"},
    {"validate", core_validate, METH_VARARGS, "validate(alphabet_size, has_gaddag, count_words)"},
    {"words", core_words, METH_NOARGS, "iterator over the DAWG's words"},
    {"release", core_release, METH_NOARGS, "releases the buffer"},
    {NULL, NULL, 0, NULL},
};

static int core_init(PyObject *self, PyObject *args, PyObject *kwds) {
    CoreObject *c = (CoreObject *)self;
    PyObject *buf, *alphabet;
    if (!PyArg_ParseTuple(args, "OU:Core", &buf, &alphabet)) return -1;
    if (c->has_view) {
        PyBuffer_Release(&c->view);
        c->has_view = 0;
    }
    if (alphabet_init(&c->alpha, alphabet) < 0) return -1;
    if (PyObject_GetBuffer(buf, &c->view, PyBUF_SIMPLE) < 0) return -1;
    c->has_view = 1;
    if (c->view.len % 4 || c->view.len / 4 < 2 || c->view.len / 4 > KWG_MAX_NODES) {
        PyErr_SetString(PyExc_ValueError, "the edge buffer must hold 2..2**24 u32 edges");
        PyBuffer_Release(&c->view);
        c->has_view = 0;
        return -1;
    }
    c->nodes = c->view.buf;
    c->n = (uint32_t)(c->view.len / 4);
    c->dawg_root = KWG_CHILD(c->nodes[0]);
    c->gaddag_root = KWG_CHILD(c->nodes[1]);
    if (c->dawg_root >= c->n) c->dawg_root = 0;
    if (c->gaddag_root >= c->n) c->gaddag_root = 0;
    return 0;
}

static void core_dealloc(PyObject *self) {
    CoreObject *c = (CoreObject *)self;
    if (c->has_view) PyBuffer_Release(&c->view);
    Py_TYPE(self)->tp_free(self);
}

static PySequenceMethods core_as_sequence = {
    .sq_contains = core_sq_contains,
};

static PyTypeObject CoreType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "lexicon._graph.Core",
    .tp_basicsize = sizeof(CoreObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Core(edges_buffer, alphabet): read-only word graph access",
    .tp_new = PyType_GenericNew,
    .tp_init = core_init,
    .tp_dealloc = core_dealloc,
    .tp_methods = core_methods,
    .tp_as_sequence = &core_as_sequence,
};

/* ------------------------------------------------------------------ */
/* Word iterator (depth-first over the DAWG, letter-code order)         */
/* ------------------------------------------------------------------ */

#define ITER_DEPTH 64

typedef struct {
    PyObject_HEAD
    CoreObject *core;
    int depth;
    uint32_t stack[ITER_DEPTH];
    uint8_t visited[ITER_DEPTH];
    Py_UCS4 buf[ITER_DEPTH];
} WordIterObject;

static PyObject *worditer_next(PyObject *self) {
    WordIterObject *it = (WordIterObject *)self;
    CoreObject *c = it->core;
    if (core_check(c) < 0) return NULL;
    const uint32_t *nodes = c->nodes;
    while (it->depth >= 0) {
        int d = it->depth;
        uint32_t i = it->stack[d], e = nodes[i];
        if (!it->visited[d]) {
            it->visited[d] = 1;
            uint32_t t = KWG_TILE(e);
            it->buf[d] = (t >= 1 && (int)t <= c->alpha.size) ? c->alpha.letters[t - 1] : '?';
            if (KWG_CHILD(e)) {
                if (d + 1 >= ITER_DEPTH) {
                    PyErr_SetString(PyExc_ValueError, "word graph path too deep");
                    return NULL;
                }
                it->depth = d + 1;
                it->stack[d + 1] = KWG_CHILD(e);
                it->visited[d + 1] = 0;
            }
            if (KWG_ACCEPTS(e)) return PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, it->buf, d + 1);
            continue;
        }
        if (KWG_IS_END(e))
            it->depth = d - 1;
        else {
            it->stack[d] = i + 1;
            it->visited[d] = 0;
        }
    }
    return NULL;
}

static void worditer_dealloc(PyObject *self) {
    WordIterObject *it = (WordIterObject *)self;
    Py_XDECREF(it->core);
    Py_TYPE(self)->tp_free(self);
}

static PyTypeObject WordIterType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "lexicon._graph.WordIter",
    .tp_basicsize = sizeof(WordIterObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_iter = PyObject_SelfIter,
    .tp_iternext = worditer_next,
    .tp_dealloc = worditer_dealloc,
};

static PyObject *core_words(PyObject *self, PyObject *unused) {
    CoreObject *c = (CoreObject *)self;
    if (core_check(c) < 0) return NULL;
    WordIterObject *it = PyObject_New(WordIterObject, &WordIterType);
    if (!it) return NULL;
    Py_INCREF(c);
    it->core = c;
    it->depth = c->dawg_root ? 0 : -1;
    it->stack[0] = c->dawg_root;
    it->visited[0] = 0;
    return (PyObject *)it;
}

/* ------------------------------------------------------------------ */
/* The anagram section (lexicon/anagram_index.h)                         */
/* ------------------------------------------------------------------ */

static PyObject *py_anagram_section(PyObject *self, PyObject *args) {
    (void)self;
    Py_buffer eb;
    unsigned long droot;
    int nletters, rack_size;
    if (!PyArg_ParseTuple(args, "y*kii:anagram_section", &eb, &droot, &nletters, &rack_size)) return NULL;
    if (nletters < 1 || nletters > (int)KWG_MAX_LETTERS || rack_size < 1 || rack_size > ANA_MAX_RACK ||
        eb.len % 4 || droot >= (unsigned long)(eb.len / 4)) {
        PyBuffer_Release(&eb);
        PyErr_SetString(PyExc_ValueError, "bad edge array, alphabet size or rack size");
        return NULL;
    }
    uint64_t z[ANA_MAXC];
    ana_letter_keys(z);
    HSet t[ANA_TABLES];
    int failed;
    Py_BEGIN_ALLOW_THREADS
    failed = ana_build((const uint32_t *)eb.buf, (size_t)eb.len / 4, (uint32_t)droot, rack_size, z, t);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&eb);
    if (failed) return PyErr_NoMemory();
    size_t caps[ANA_TABLES];
    for (int k = 0; k < ANA_TABLES; k++) caps[k] = ana_stored_cap(t[k].n);
    size_t size = ana_section_size(ANA_VERSION, caps);
    PyObject *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)size);
    if (out) {
        uint8_t *buf = (uint8_t *)PyBytes_AS_STRING(out);
        Py_BEGIN_ALLOW_THREADS
        memset(buf, 0, size);
        ana_write_section(buf, t, caps, nletters, rack_size, z);
        Py_END_ALLOW_THREADS
    }
    for (int k = 0; k < ANA_TABLES; k++) hs_free(&t[k]);
    return out;
}

/* ------------------------------------------------------------------ */

static PyMethodDef module_methods[] = {
    {"anagram_section", py_anagram_section, METH_VARARGS,
     "anagram_section(edges, dawg_root, alphabet_size, rack_size) -> bytes: the file's anagram section"},
    {"build", py_build, METH_VARARGS,
     "build(words, alphabet, gaddag, threads=1) -> (edges bytes | None, word_count, edge_count)"},
    {"pack_lines", py_pack_lines, METH_VARARGS,
     "pack_lines(data, alphabet, extra, apostrophe, upper, lower) -> (records, duplicates, words, left,"
     " cap_records, cap_words, cap_duplicates, cap_lines, has_lower)"},
    {"build_packed", py_build_packed, METH_VARARGS,
     "build_packed(records, alphabet_size, gaddag, threads=1) -> (edges bytes | None, word_count, edge_count)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef graph_module = {
    PyModuleDef_HEAD_INIT, "lexicon._graph", "Compiled word graph core (see graph_format.h).", -1,
    module_methods,
};

PyMODINIT_FUNC PyInit__graph(void) {
    if (PyType_Ready(&CoreType) < 0 || PyType_Ready(&WordIterType) < 0) return NULL;
    PyObject *m = PyModule_Create(&graph_module);
    if (!m) return NULL;
    if (PyModule_AddObjectRef(m, "Core", (PyObject *)&CoreType) < 0 ||
        PyModule_AddIntConstant(m, "MAX_NODES", KWG_MAX_NODES) < 0 ||
        PyModule_AddIntConstant(m, "MAX_LETTERS", KWG_MAX_LETTERS) < 0 ||
        PyModule_AddIntConstant(m, "MAX_WORD", MAX_WORD) < 0 ||
        PyModule_AddIntConstant(m, "VERSION", KWG_VERSION) < 0 ||
        PyModule_AddIntConstant(m, "HEADER_SIZE", KWG_HEADER_SIZE) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
