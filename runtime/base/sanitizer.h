/* sanitizer.h - what the code needs to know about a sanitizer build.
 *
 * RD_ASAN: compiled with AddressSanitizer (GCC says so with
 * __SANITIZE_ADDRESS__, Clang through __has_feature). Then the program's
 * malloc is the sanitizer's allocator, which takes and gives back its
 * memory by raw system calls: libucm's hooks of the C library's mmap and
 * munmap never see them. Its free hook does see every free (see
 * transports/shm/shm_xmap.c), through the allocator interface below
 * (<sanitizer/allocator_interface.h>, which GCC does not install). */
#ifndef RD_SANITIZER_H
#define RD_SANITIZER_H

#include <stddef.h>

#if defined(__SANITIZE_ADDRESS__)
#define RD_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RD_ASAN 1
#endif
#endif

#ifdef RD_ASAN
/* Both hooks are called by the allocator, on the thread that allocates or
 * frees, the free hook before the chunk is released (its size can still
 * be asked); a process has room for a few pairs; 0: not installed. */
int __sanitizer_install_malloc_and_free_hooks(void (*malloc_hook)(const volatile void *, size_t),
                                              void (*free_hook)(const volatile void *));
/* the size asked for when p (a chunk's start) was allocated */
size_t __sanitizer_get_allocated_size(const volatile void *p);
/* whether p is the start of a live chunk of the sanitizer's allocator */
int __sanitizer_get_ownership(const volatile void *p);
#endif

#endif
