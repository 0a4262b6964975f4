/*
 * The anagram index of a word graph: which multisets of rack_size letters spell
 * a word, and with which extra letter; which multisets of rack_size + 2 letters
 * do, and which of rack_size + 3 and rack_size + 4; and which multisets of at most
 * rack_size letters, with 0, 1 or 2 letters more of any kind, do. The move generator
 * (scoring/_solver.c) uses the first four to drop the bingo bonus from the bounds of spans where
 * no whole-rack word exists, and the fifth to drop from a span's exact bound the tiles (blanks: any
 * letter) that spell no word with the span's board tiles.
 *
 * Built here once, from the DAWG, and either stored in the compiled file (its
 * "anagram section", laid out in graph_format.h, written by lexicon/_graph.c)
 * or, for a file without the section, built in memory by the solver. Both use
 * this code: the same keys and the same values, only the table sizes differ.
 *
 * A multiset is keyed by the sum of per-letter random 64-bit numbers z[L]
 * (0 is replaced by 1: 0 marks an empty slot). A collision can only turn a
 * "no word" into a "maybe", which keeps the search exact (the index only ever
 * forbids). Tables: open addressing, linear probing from ana_mix64(key), a power
 * of two slots, always at least one empty slot (lookups end).
 *
 *   one: key of M (rack_size letters) -> bit 0 if M spells a word, bit L if M + L does
 *   two: key of M (rack_size + 2 letters) -> non-zero if M spells a word
 *   three: key of M (rack_size + 3 letters) -> non-zero if M spells a word
 *   four: key of M (rack_size + 4 letters) -> non-zero if M spells a word
 *   five: key of M (at most rack_size letters) + b * z[0], b = 0, 1 or 2 -> non-zero if M and b
 *         letters more spell a word (of |M| + b letters; z[0] is no letter's: 0 is the separator)
 *   (a section of version 1, "DUPANA01", has none of tables three, four and five, one of version 2,
 *   "DUPANA02", no table five: their cap is 0, and the solver then allows every such span)
 *
 * No Python here.
 */
#ifndef DUP_ANAGRAM_INDEX_H
#define DUP_ANAGRAM_INDEX_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "graph_format.h"

#define ANA_MAXC 64
#define ANA_MAX_RACK 8
#define ANA_TABLES 5 /* one to five; table one has values, the others keys only */
#define ANA_VERSION 3 /* the section written (graph_format.h: KWG_ANA_MAGIC); versions 1 and 2 are read */
#define ANA_SPELL_BLANKS 2 /* table five: multisets with up to this many letters left out */
#define ANA_MIN_CAP ((size_t)1 << 12)  /* built in memory */
#define ANA_MIN_STORED_CAP ((size_t)16) /* stored: a small lexicon's file stays small */

typedef struct {
    uint64_t *keys, *vals; /* vals NULL: a table of keys only (every key present means "a word") */
    size_t cap, n;
    int keys_only;         /* built in memory: no values (tables two to five) */
} HSet;

static inline uint64_t ana_mix64(uint64_t x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

/* the per-letter numbers of the keys (the same in every build: a file stores them anyway) */
static void ana_letter_keys(uint64_t z[ANA_MAXC]) {
    uint64_t seed = 0x5DEECE66Dull;
    for (int i = 0; i < ANA_MAXC; i++) {
        seed = ana_mix64(seed + (uint64_t)i);
        z[i] = seed;
    }
}

static void hs_place(uint64_t *keys, uint64_t *vals, size_t cap, uint64_t key, uint64_t val) {
    size_t j = (size_t)ana_mix64(key) & (cap - 1);
    while (keys[j]) j = (j + 1) & (cap - 1);
    keys[j] = key;
    if (vals) vals[j] = val;
}

/* a table of `cap` slots holding the entries of h (cap a power of two above h->n) */
static int hs_resize(HSet *h, size_t cap) {
    uint64_t *keys = (uint64_t *)calloc(cap, sizeof(uint64_t));
    uint64_t *vals = h->keys_only ? NULL : (uint64_t *)calloc(cap, sizeof(uint64_t));
    if (!keys || (!vals && !h->keys_only)) {
        free(keys);
        free(vals);
        return -1;
    }
    for (size_t i = 0; i < h->cap; i++)
        if (h->keys[i]) hs_place(keys, vals, cap, h->keys[i], h->vals ? h->vals[i] : 0);
    free(h->keys);
    free(h->vals);
    h->keys = keys;
    h->vals = vals;
    h->cap = cap;
    return 0;
}

static int hs_grow(HSet *h) { return hs_resize(h, h->cap ? h->cap * 2 : ANA_MIN_CAP); }

static int hs_or(HSet *h, uint64_t key, uint64_t bits) {
    if (!key) key = 1;
    if (2 * (h->n + 1) > h->cap && hs_grow(h) < 0) return -1;
    size_t j = (size_t)ana_mix64(key) & (h->cap - 1);
    while (h->keys[j] && h->keys[j] != key) j = (j + 1) & (h->cap - 1);
    if (!h->keys[j]) {
        h->keys[j] = key;
        h->n++;
    }
    if (h->vals) h->vals[j] |= bits;
    return 0;
}

static inline uint64_t hs_get(const HSet *h, uint64_t key) {
    if (!key) key = 1;
    if (!h->cap) return 0;
    size_t j = (size_t)ana_mix64(key) & (h->cap - 1);
    while (h->keys[j]) {
        if (h->keys[j] == key) return h->vals ? h->vals[j] : 1;
        j = (j + 1) & (h->cap - 1);
    }
    return 0;
}

static void hs_free(HSet *h) {
    free(h->keys);
    free(h->vals);
    memset(h, 0, sizeof *h);
}

/* the slots a stored table gets: the fewest (a power of two, at least ANA_MIN_STORED_CAP) with at
 * most 5/8 of them used (in memory the builder keeps at most 1/2 used) */
static size_t ana_stored_cap(size_t n) {
    size_t cap = ANA_MIN_STORED_CAP;
    while (8 * n > 5 * cap) cap *= 2;
    return cap;
}

typedef struct {
    HSet t[ANA_TABLES];
    const uint64_t *z;
    const uint32_t *nodes;
    size_t nnodes;
    int rack_size;
    uint8_t path[KWG_MAX_WORD + 1];
    int failed;
} AnaWalk;

/* Table five: the word of `len` letters w->path (key h) less none, one or two of its letters, each such
 * multiset once per word. */
static void ana_spelled(AnaWalk *w, int len, uint64_t h) {
    const uint64_t *z = w->z;
    uint8_t letter[KWG_MAX_WORD + 1], count[KWG_MAX_WORD + 1];
    int n = 0;
    uint64_t seen = 0;
    for (int k = 0; k < len; k++) {
        uint32_t X = w->path[k];
        if ((seen >> X) & 1u) {
            for (int d = 0; d < n; d++)
                if (letter[d] == X) count[d]++;
            continue;
        }
        seen |= 1ull << X;
        letter[n] = (uint8_t)X;
        count[n++] = 1;
    }
    HSet *five = &w->t[4];
    if (hs_or(five, h, 1) < 0) w->failed = 1;
    for (int a = 0; a < n; a++) {
        uint64_t h1 = h - z[letter[a]] + z[0];
        if (hs_or(five, h1, 1) < 0) w->failed = 1;
        for (int b = a; b < n; b++)
            if ((b > a || count[a] > 1) && hs_or(five, h1 - z[letter[b]] + z[0], 1) < 0) w->failed = 1;
    }
}

static void ana_walk(AnaWalk *w, uint32_t list, int depth, uint64_t h) {
    const int R = w->rack_size;
    for (uint32_t i = list; i < w->nnodes && !w->failed; i++) {
        uint32_t e = w->nodes[i];
        uint32_t L = KWG_TILE(e);
        if (L >= 1) {
            uint64_t h2 = h + w->z[L];
            w->path[depth] = (uint8_t)L;
            int len = depth + 1;
            if (KWG_ACCEPTS(e)) {
                if (len <= R) ana_spelled(w, len, h2);
                if (len == R) {
                    if (hs_or(&w->t[0], h2, 1) < 0) w->failed = 1;
                } else if (len == R + 1) {
                    uint64_t seen = 0;
                    for (int k = 0; k < len && !w->failed; k++) {
                        uint32_t X = w->path[k];
                        if ((seen >> X) & 1u) continue;
                        seen |= 1ull << X;
                        if (hs_or(&w->t[0], h2 - w->z[X], 1ull << X) < 0) w->failed = 1;
                    }
                } else if (len == R + 2) {
                    if (hs_or(&w->t[1], h2, 1) < 0) w->failed = 1;
                } else if (len == R + 3) {
                    if (hs_or(&w->t[2], h2, 1) < 0) w->failed = 1;
                } else if (len == R + 4) {
                    if (hs_or(&w->t[3], h2, 1) < 0) w->failed = 1;
                }
            }
            if (len < R + 4 && len < KWG_MAX_WORD && KWG_CHILD(e)) ana_walk(w, KWG_CHILD(e), len, h2);
        }
        if (KWG_IS_END(e)) break;
    }
}

/* Builds the five tables from the DAWG (nodes: a validated edge array). Returns 0, or -1 when out of
 * memory (the tables are then freed). The caller frees them with hs_free. */
static int ana_build(const uint32_t *nodes, size_t nnodes, uint32_t dawg_root, int rack_size,
                     const uint64_t z[ANA_MAXC], HSet t[ANA_TABLES]) {
    AnaWalk w;
    memset(&w, 0, sizeof w);
    w.z = z;
    w.nodes = nodes;
    w.nnodes = nnodes;
    w.rack_size = rack_size;
    for (int k = 0; k < ANA_TABLES; k++) {
        w.t[k].keys_only = k > 0;
        if (hs_grow(&w.t[k]) < 0) w.failed = 1;
    }
    if (!w.failed && dawg_root && dawg_root < nnodes) ana_walk(&w, dawg_root, 0, 0);
    if (w.failed) {
        for (int k = 0; k < ANA_TABLES; k++) hs_free(&w.t[k]);
        return -1;
    }
    memcpy(t, w.t, sizeof w.t);
    return 0;
}

/* A stored section of version 1, 2 or 3: its header's size and its tables (version 1 has no tables three,
 * four and five, version 2 no table five). */
static size_t ana_header_size(int version) {
    return version == 1 ? KWG_ANA_HEADER_SIZE_V1 : version == 2 ? KWG_ANA_HEADER_SIZE_V2 : KWG_ANA_HEADER_SIZE;
}

static int ana_ntables(int version) { return version == 1 ? 2 : version == 2 ? 4 : ANA_TABLES; }

/* The size in bytes of a stored section of that version with tables of these slots (caps[0..4]: tables
 * one to five). */
static size_t ana_section_size(int version, const size_t caps[ANA_TABLES]) {
    size_t slots = caps[0]; /* table one: keys and values */
    for (int k = 0; k < ana_ntables(version); k++) slots += caps[k];
    return ana_header_size(version) + 8 * slots;
}

/* Writes the section (version ANA_VERSION) of the tables into out (ana_section_size bytes, zeroed by the caller),
 * with the stored sizes (caps[0..4]: tables one to five, from ana_stored_cap). */
static void ana_write_section(uint8_t *out, const HSet t[ANA_TABLES], const size_t caps[ANA_TABLES], int nletters,
                              int rack_size, const uint64_t z[ANA_MAXC]) {
    size_t one_cap = caps[0];
    KwgAnaHeader hd;
    memset(&hd, 0, sizeof hd);
    memcpy(hd.magic, KWG_ANA_MAGIC, 8);
    hd.rack_size = (uint32_t)rack_size;
    hd.nletters = (uint32_t)nletters;
    hd.one_cap = one_cap;
    hd.one_n = t[0].n;
    hd.two_cap = caps[1];
    hd.two_n = t[1].n;
    hd.three_cap = caps[2];
    hd.three_n = t[2].n;
    hd.four_cap = caps[3];
    hd.four_n = t[3].n;
    hd.five_cap = caps[4];
    hd.five_n = t[4].n;
    memcpy(hd.z, z, sizeof hd.z);
    memcpy(out, &hd, sizeof hd);
    uint64_t *one_keys = (uint64_t *)(out + KWG_ANA_HEADER_SIZE);
    uint64_t *one_vals = one_keys + one_cap;
    for (size_t i = 0; i < t[0].cap; i++)
        if (t[0].keys[i]) hs_place(one_keys, one_vals, one_cap, t[0].keys[i], t[0].vals[i]);
    /* then the tables of keys only, one after the other */
    uint64_t *keys = one_vals + one_cap;
    for (int k = 1; k < ANA_TABLES; k++) {
        for (size_t i = 0; i < t[k].cap; i++)
            if (t[k].keys[i]) hs_place(keys, NULL, caps[k], t[k].keys[i], 0);
        keys += caps[k];
    }
}

/* A stored table (vals: its values; a table of keys only passes its keys: any non-zero is "a word"),
 * checked to have an empty slot (found at once in a sound table: at most 5/8 are used). */
static int ana_map_table(const uint64_t *keys, const uint64_t *vals, uint64_t cap, uint64_t n, HSet *h) {
    size_t i = 0;
    while (i < cap && keys[i]) i++;
    if (i == cap) return -1;
    h->keys = (uint64_t *)keys;
    h->vals = (uint64_t *)vals;
    h->cap = (size_t)cap;
    h->n = (size_t)n;
    return 0;
}

/* Checks a stored section of `size` bytes (8-aligned) and points the tables into it: version 3
 * (KWG_ANA_MAGIC), 2 (without table five) or 1 (without tables three, four and five): a table it lacks is
 * left empty (cap 0). Returns NULL or what is wrong. Never reads outside the section; every table has an
 * empty slot, so lookups end. */
static const char *ana_map_section(const uint8_t *sec, size_t size, HSet out[ANA_TABLES], uint64_t z[ANA_MAXC],
                                   int *rack_size, int *nletters) {
    KwgAnaHeader hd;
    memset(&hd, 0, sizeof hd);
    if (size < KWG_ANA_HEADER_SIZE_V1) return "the anagram section is truncated (shorter than its header)";
    memcpy(&hd, sec, KWG_ANA_HEADER_SIZE_V1);
    int version = memcmp(hd.magic, KWG_ANA_MAGIC, 8) == 0      ? ANA_VERSION
                  : memcmp(hd.magic, KWG_ANA_MAGIC_V2, 8) == 0 ? 2
                  : memcmp(hd.magic, KWG_ANA_MAGIC_V1, 8) == 0 ? 1
                                                                : 0;
    if (!version) return "the anagram section has a wrong magic";
    size_t header = ana_header_size(version);
    int ntables = ana_ntables(version);
    if (size < header) return "the anagram section is truncated (shorter than its header)";
    memcpy(&hd, sec, header);
    if (hd.rack_size < 1 || hd.rack_size > ANA_MAX_RACK || hd.nletters < 1 || hd.nletters > KWG_MAX_LETTERS)
        return "the anagram section has a bad rack size or alphabet size";
    const uint64_t limit = (uint64_t)1 << 40;
    uint64_t caps[ANA_TABLES] = {hd.one_cap, hd.two_cap, hd.three_cap, hd.four_cap, hd.five_cap};
    uint64_t ns[ANA_TABLES] = {hd.one_n, hd.two_n, hd.three_n, hd.four_n, hd.five_n};
    size_t sizes[ANA_TABLES] = {0, 0, 0, 0, 0};
    for (int k = 0; k < ntables; k++) {
        if (caps[k] < ANA_MIN_STORED_CAP || caps[k] > limit || (caps[k] & (caps[k] - 1)) || ns[k] >= caps[k])
            return "the anagram section has bad table sizes";
        sizes[k] = (size_t)caps[k];
    }
    if (ana_section_size(version, sizes) != size)
        return "the anagram section's size does not match its table sizes (truncated?)";
    static const char *const full[ANA_TABLES] = {
        "the anagram section's first table has no empty slot", "the anagram section's second table has no empty slot",
        "the anagram section's third table has no empty slot", "the anagram section's fourth table has no empty slot",
        "the anagram section's fifth table has no empty slot"};
    HSet t[ANA_TABLES];
    memset(t, 0, sizeof t); /* the tables an older version lacks stay empty */
    const uint64_t *keys = (const uint64_t *)(sec + header);
    for (int k = 0; k < ntables; k++) {
        const uint64_t *vals = k == 0 ? keys + caps[0] : keys; /* table one: keys, then values */
        if (ana_map_table(keys, vals, caps[k], ns[k], &t[k]) < 0) return full[k];
        keys += k == 0 ? 2 * caps[0] : caps[k];
    }
    memcpy(out, t, sizeof t);
    memcpy(z, hd.z, sizeof hd.z);
    *rack_size = (int)hd.rack_size;
    *nletters = (int)hd.nletters;
    return NULL;
}

#endif
