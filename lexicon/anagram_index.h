/*
 * The anagram index of a word graph: which multisets of rack_size letters spell
 * a word, and with which extra letter; which multisets of rack_size + 2 letters
 * do, and which of rack_size + 3 and rack_size + 4. The move generator (scoring/_solver.c) uses it to drop the bingo bonus
 * from the bounds of spans where no whole-rack word exists.
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
 *   (a section of version 1, "DUPANA01", has neither of these two: their cap is 0, and the solver then
 *   allows every such span)
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
#define ANA_MIN_CAP ((size_t)1 << 12)  /* built in memory */
#define ANA_MIN_STORED_CAP ((size_t)16) /* stored: a small lexicon's file stays small */

typedef struct {
    uint64_t *keys, *vals;
    size_t cap, n;
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
    uint64_t *vals = (uint64_t *)calloc(cap, sizeof(uint64_t));
    if (!keys || !vals) {
        free(keys);
        free(vals);
        return -1;
    }
    for (size_t i = 0; i < h->cap; i++)
        if (h->keys[i]) hs_place(keys, vals, cap, h->keys[i], h->vals[i]);
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
    h->vals[j] |= bits;
    return 0;
}

static inline uint64_t hs_get(const HSet *h, uint64_t key) {
    if (!key) key = 1;
    if (!h->cap) return 0;
    size_t j = (size_t)ana_mix64(key) & (h->cap - 1);
    while (h->keys[j]) {
        if (h->keys[j] == key) return h->vals[j];
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
    HSet one, two, three, four;
    const uint64_t *z;
    const uint32_t *nodes;
    size_t nnodes;
    int rack_size;
    uint8_t path[KWG_MAX_WORD + 1];
    int failed;
} AnaWalk;

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
                if (len == R) {
                    if (hs_or(&w->one, h2, 1) < 0) w->failed = 1;
                } else if (len == R + 1) {
                    uint64_t seen = 0;
                    for (int k = 0; k < len && !w->failed; k++) {
                        uint32_t X = w->path[k];
                        if ((seen >> X) & 1u) continue;
                        seen |= 1ull << X;
                        if (hs_or(&w->one, h2 - w->z[X], 1ull << X) < 0) w->failed = 1;
                    }
                } else if (len == R + 2) {
                    if (hs_or(&w->two, h2, 1) < 0) w->failed = 1;
                } else if (len == R + 3) {
                    if (hs_or(&w->three, h2, 1) < 0) w->failed = 1;
                } else if (len == R + 4) {
                    if (hs_or(&w->four, h2, 1) < 0) w->failed = 1;
                }
            }
            if (len < R + 4 && len < KWG_MAX_WORD && KWG_CHILD(e)) ana_walk(w, KWG_CHILD(e), len, h2);
        }
        if (KWG_IS_END(e)) break;
    }
}

/* Builds the four tables from the DAWG (nodes: a validated edge array). Returns 0, or -1 when out of
 * memory (the tables are then freed). The caller frees one, two, three and four with hs_free. */
static int ana_build(const uint32_t *nodes, size_t nnodes, uint32_t dawg_root, int rack_size,
                     const uint64_t z[ANA_MAXC], HSet *one, HSet *two, HSet *three, HSet *four) {
    AnaWalk w;
    memset(&w, 0, sizeof w);
    w.z = z;
    w.nodes = nodes;
    w.nnodes = nnodes;
    w.rack_size = rack_size;
    if (hs_grow(&w.one) < 0 || hs_grow(&w.two) < 0 || hs_grow(&w.three) < 0 || hs_grow(&w.four) < 0)
        w.failed = 1;
    if (!w.failed && dawg_root && dawg_root < nnodes) ana_walk(&w, dawg_root, 0, 0);
    if (w.failed) {
        hs_free(&w.one);
        hs_free(&w.two);
        hs_free(&w.three);
        hs_free(&w.four);
        return -1;
    }
    *one = w.one;
    *two = w.two;
    *three = w.three;
    *four = w.four;
    return 0;
}

/* The size in bytes of a stored section with these tables (three_cap 0: a version-1 section, without
 * tables three and four and its header's last four fields). */
static size_t ana_section_size(size_t one_cap, size_t two_cap, size_t three_cap, size_t four_cap) {
    return (three_cap ? KWG_ANA_HEADER_SIZE : KWG_ANA_HEADER_SIZE_V1) +
           8 * (2 * one_cap + two_cap + three_cap + four_cap);
}

/* Writes the section of the tables into out (ana_section_size bytes, zeroed by the caller), with
 * the stored sizes (caps[0..3]: tables one to four, from ana_stored_cap). */
static void ana_write_section(uint8_t *out, const HSet *one, const HSet *two, const HSet *three, const HSet *four,
                              const size_t caps[4], int nletters, int rack_size, const uint64_t z[ANA_MAXC]) {
    size_t one_cap = caps[0];
    KwgAnaHeader hd;
    memset(&hd, 0, sizeof hd);
    memcpy(hd.magic, KWG_ANA_MAGIC, 8);
    hd.rack_size = (uint32_t)rack_size;
    hd.nletters = (uint32_t)nletters;
    hd.one_cap = one_cap;
    hd.one_n = one->n;
    hd.two_cap = caps[1];
    hd.two_n = two->n;
    hd.three_cap = caps[2];
    hd.three_n = three->n;
    hd.four_cap = caps[3];
    hd.four_n = four->n;
    memcpy(hd.z, z, sizeof hd.z);
    memcpy(out, &hd, sizeof hd);
    uint64_t *one_keys = (uint64_t *)(out + KWG_ANA_HEADER_SIZE);
    uint64_t *one_vals = one_keys + one_cap;
    for (size_t i = 0; i < one->cap; i++)
        if (one->keys[i]) hs_place(one_keys, one_vals, one_cap, one->keys[i], one->vals[i]);
    /* then the tables of keys only, one after the other */
    const HSet *keyed[3] = {two, three, four};
    uint64_t *keys = one_vals + one_cap;
    for (int t = 0; t < 3; t++) {
        for (size_t i = 0; i < keyed[t]->cap; i++)
            if (keyed[t]->keys[i]) hs_place(keys, NULL, caps[t + 1], keyed[t]->keys[i], 0);
        keys += caps[t + 1];
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

/* Checks a stored section of `size` bytes (8-aligned) and points the tables into it: version 2
 * (KWG_ANA_MAGIC) or version 1 (without tables three and four: left empty, cap 0). Returns NULL or what is
 * wrong. Never reads outside the section; every table has an empty slot, so lookups end. */
static const char *ana_map_section(const uint8_t *sec, size_t size, HSet *one, HSet *two, HSet *three,
                                   HSet *four, uint64_t z[ANA_MAXC], int *rack_size, int *nletters) {
    KwgAnaHeader hd;
    memset(&hd, 0, sizeof hd);
    if (size < KWG_ANA_HEADER_SIZE_V1) return "the anagram section is truncated (shorter than its header)";
    memcpy(&hd, sec, KWG_ANA_HEADER_SIZE_V1);
    int v1 = memcmp(hd.magic, KWG_ANA_MAGIC_V1, 8) == 0;
    if (!v1 && memcmp(hd.magic, KWG_ANA_MAGIC, 8) != 0) return "the anagram section has a wrong magic";
    if (!v1) {
        if (size < KWG_ANA_HEADER_SIZE) return "the anagram section is truncated (shorter than its header)";
        memcpy(&hd, sec, sizeof hd);
    }
    if (hd.rack_size < 1 || hd.rack_size > ANA_MAX_RACK || hd.nletters < 1 || hd.nletters > KWG_MAX_LETTERS)
        return "the anagram section has a bad rack size or alphabet size";
    const uint64_t limit = (uint64_t)1 << 40;
    uint64_t caps[4] = {hd.one_cap, hd.two_cap, hd.three_cap, hd.four_cap};
    uint64_t ns[4] = {hd.one_n, hd.two_n, hd.three_n, hd.four_n};
    for (int t = 0; t < (v1 ? 2 : 4); t++)
        if (caps[t] < ANA_MIN_STORED_CAP || caps[t] > limit || (caps[t] & (caps[t] - 1)) || ns[t] >= caps[t])
            return "the anagram section has bad table sizes";
    if (ana_section_size((size_t)hd.one_cap, (size_t)hd.two_cap, (size_t)hd.three_cap, (size_t)hd.four_cap) != size)
        return "the anagram section's size does not match its table sizes (truncated?)";
    static const char *const full[4] = {
        "the anagram section's first table has no empty slot", "the anagram section's second table has no empty slot",
        "the anagram section's third table has no empty slot", "the anagram section's fourth table has no empty slot"};
    HSet t[4];
    memset(t, 0, sizeof t); /* version 1: three and four stay empty */
    const uint64_t *keys = (const uint64_t *)(sec + (v1 ? KWG_ANA_HEADER_SIZE_V1 : KWG_ANA_HEADER_SIZE));
    for (int k = 0; k < (v1 ? 2 : 4); k++) {
        const uint64_t *vals = k == 0 ? keys + caps[0] : keys; /* table one: keys, then values */
        if (ana_map_table(keys, vals, caps[k], ns[k], &t[k]) < 0) return full[k];
        keys += k == 0 ? 2 * caps[0] : caps[k];
    }
    *one = t[0];
    *two = t[1];
    *three = t[2];
    *four = t[3];
    memcpy(z, hd.z, sizeof hd.z);
    *rack_size = (int)hd.rack_size;
    *nletters = (int)hd.nletters;
    return NULL;
}

#endif
