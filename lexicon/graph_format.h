/*
 * The compiled word graph ("KWG" file): one array of 32-bit edges holding a
 * minimised DAWG and a minimised GADDAG that share suffix nodes.
 * Shared by the builder (lexicon/_graph.c) and the move generator
 * (scoring/_solver.c). No Python here.
 *
 * File layout (all integers little-endian):
 *   offset  0  char[8]  magic "DUPKWG01"
 *   offset  8  u32      format version (1)
 *   offset 12  u32      flags (bit 0: GADDAG present)
 *   offset 16  u32      alphabet size N (letter codes 1..N; 0 is the GADDAG separator)
 *   offset 20  u32      node count
 *   offset 24  u32      word count
 *   offset 28  u32      alphabet byte length A (UTF-8, the letters concatenated in code order)
 *   offset 32  u8[32]   SHA-256 of the body (everything from offset 128 to the end)
 *   offset 64  u8[64]   reserved, zero
 *   offset 128 u8[A]    alphabet, zero-padded to a multiple of 4 bytes
 *   then       u32[node count] edges
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
#define KWG_VERSION 1u
#define KWG_HEADER_SIZE 128u
#define KWG_FLAG_GADDAG 1u
#define KWG_MAX_LETTERS 63u
#define KWG_MAX_NODES (1u << 24)

#define KWG_CHILD(e) ((uint32_t)(e) & 0xFFFFFFu)
#define KWG_IS_END(e) (((uint32_t)(e) >> 24) & 1u)
#define KWG_ACCEPTS(e) (((uint32_t)(e) >> 25) & 1u)
#define KWG_TILE(e) ((uint32_t)(e) >> 26)
#define KWG_EDGE(tile, accepts, is_end, child) \
    (((uint32_t)(tile) << 26) | ((uint32_t)(accepts) << 25) | ((uint32_t)(is_end) << 24) | (uint32_t)(child))

#define KWG_DAWG_ROOT(nodes) KWG_CHILD((nodes)[0])
#define KWG_GADDAG_ROOT(nodes) KWG_CHILD((nodes)[1])

#endif
