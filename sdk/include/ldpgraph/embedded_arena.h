/* The memory of a bare-metal build (cmake/cortex-m4f.cmake): the caller's
 * buffer, and nothing else. There is no heap: malloc, free, calloc, realloc
 * (and so C++'s new and delete) are this file's, over that buffer, first fit
 * with neighbours merged on free; the C library cannot grow a heap (_sbrk
 * fails). Install the arena before any other SDK call.
 *
 * How much a report needs: docs/sdk.md gives the formula in the graph's size
 * and the user's degree, ldpgraph_arena_high_water() the measured figure.
 * An allocation the arena cannot serve returns NULL from malloc; C++'s new
 * then aborts (no exceptions in this build), so size the arena from the
 * formula. Single-threaded, as the whole bare-metal build. */
#ifndef LDPGRAPH_EMBEDDED_ARENA_H_
#define LDPGRAPH_EMBEDDED_ARENA_H_

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Hands over `buffer` (any alignment; `size` bytes, at least 64). Returns 0,
 * or -1 for a NULL or too small buffer, or an arena that is already in use
 * (blocks still allocated). */
int ldpgraph_arena_install(void* buffer, size_t size);

/* Bytes in allocated blocks now, headers included. */
size_t ldpgraph_arena_in_use(void);

/* The most of the buffer ever needed: from its start to the end of the
 * highest block allocated since the install or the last reset. */
size_t ldpgraph_arena_high_water(void);
void ldpgraph_arena_reset_high_water(void);

#ifdef __cplusplus
}
#endif

#endif /* LDPGRAPH_EMBEDDED_ARENA_H_ */
