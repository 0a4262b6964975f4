/*
 * The compiled word graph ("KWG" file): one array of 32-bit edges holding a
 * minimised DAWG and a minimised GADDAG that share suffix nodes.
 * Shared by the builder (lexicon/_graph.c) and the move generator
 * (scoring/_solver.c). No Python here.
 *
 * File layout (all integers little-endian):
 *   offset  0  char[8]  magic "DUPKWG01"
 *   offset  8  u32      format version (2; version 1 is the same without the anagram section)
 *   offset 12  u32      flags (bit 0: GADDAG present, bit 1: anagram section present)
 *   offset 16  u32      alphabet size N (letter codes 1..N; 0 is the GADDAG separator)
 *   offset 20  u32      node count
 *   offset 24  u32      word count
 *   offset 28  u32      alphabet byte length A (UTF-8, the letters concatenated in code order)
 *   offset 32  u8[32]   SHA-256 of the body: the alphabet block and the edges (the lexicon's content
 *                       hash: the words and the alphabet, whatever the format version)
 *   offset 64  u8[32]   SHA-256 of the anagram section (zero without it)
 *   offset 96  u8[32]   reserved, zero
 *   offset 128 u8[A]    alphabet, zero-padded to a multiple of 4 bytes
 *   then       u32[node count] edges
 *   then       (with flag bit 1) zero bytes up to a multiple of 8, and the anagram section to the end:
 *     offset  0  char[8]  magic "DUPANA03" (read too: version 2, "DUPANA02", which ends its header at
 *                         offset 592 and has no table five; version 1, "DUPANA01", which ends it at
 *                         offset 560 and has no tables three, four and five)
 *     offset  8  u32      rack size R (the index is for racks of R tiles)
 *     offset 12  u32      alphabet size
 *     offset 16  u64      slots of table one (a power of two, at least 16), 24: entries in it
 *     offset 32  u64      slots of table two (likewise), 40: entries in it
 *     offset 48  u64[64]  the per-letter key numbers z
 *     offset 560 u64      slots of table three (likewise), 568: entries in it
 *     offset 576 u64      slots of table four (likewise), 584: entries in it
 *     offset 592 u64      slots of table five (likewise), 600: entries in it
 *     offset 608 u64[slots one] keys of table one, u64[slots one] its values, u64[slots two] keys of
 *                         table two, u64[slots three] keys of table three, u64[slots four] keys of table
 *                         four, u64[slots five] keys of table five (see lexicon/anagram_index.h: what
 *                         they mean and how they are probed)
 *   Everything the solver needs besides the rule set's own tables: it maps the section and probes it
 *   in place, nothing is built at load.
 *
 * Edge word:
 *   bits  0..23  index of the first edge of the child list (0 = no children)
 *   bit   24     last edge of its sibling list
 *   bit   25     accepts: the path ending with this edge spells a whole word
 *   bits 26..31  letter code (0 = separator, 1..N letters)
 * Sibling lists are sorted by letter code. Edge 0's child index is the DAWG
 * root list; edge 1's child index is the GADDAG root list (0 if absent).
 *
 * GADDAG entries for a word c1..cn: for i = n: rev(c1..cn) (no separator);
 * for 1 <= i < n: rev(c1..ci) SEP c(i+1)..cn. "accepts" is set on the edge of
 * the last letter of each entry.
 */
#ifndef DUP_GRAPH_FORMAT_H
#define DUP_GRAPH_FORMAT_H

#include <stdint.h>

#define KWG_MAGIC "DUPKWG01"
#define KWG_VERSION 2u
#define KWG_HEADER_SIZE 128u
#define KWG_FLAG_GADDAG 1u
#define KWG_FLAG_ANAGRAMS 2u
#define KWG_MAX_LETTERS 63u
#define KWG_MAX_NODES (1u << 24)
#define KWG_MAX_WORD 15

#define KWG_ANA_MAGIC "DUPANA03"
#define KWG_ANA_HEADER_SIZE 608u
#define KWG_ANA_MAGIC_V2 "DUPANA02" /* read: the same without table five (nor its header's last 16 bytes) */
#define KWG_ANA_HEADER_SIZE_V2 592u
#define KWG_ANA_MAGIC_V1 "DUPANA01" /* read: without tables three, four and five (its header ends at 560) */
#define KWG_ANA_HEADER_SIZE_V1 560u

typedef struct {
    char magic[8];
    uint32_t rack_size;
    uint32_t nletters;
    uint64_t one_cap, one_n, two_cap, two_n;
    uint64_t z[64];
    uint64_t three_cap, three_n, four_cap, four_n;
    uint64_t five_cap, five_n;
} KwgAnaHeader;
_Static_assert(sizeof(KwgAnaHeader) == KWG_ANA_HEADER_SIZE, "the anagram section's header is 608 bytes");

#define KWG_CHILD(e) ((uint32_t)(e) & 0xFFFFFFu)
#define KWG_IS_END(e) (((uint32_t)(e) >> 24) & 1u)
#define KWG_ACCEPTS(e) (((uint32_t)(e) >> 25) & 1u)
#define KWG_TILE(e) ((uint32_t)(e) >> 26)
#define KWG_EDGE(tile, accepts, is_end, child) \
    (((uint32_t)(tile) << 26) | ((uint32_t)(accepts) << 25) | ((uint32_t)(is_end) << 24) | (uint32_t)(child))

#define KWG_DAWG_ROOT(nodes) KWG_CHILD((nodes)[0])
#define KWG_GADDAG_ROOT(nodes) KWG_CHILD((nodes)[1])

#endif
