/* sanitizer.c - what a sanitizer build of librdmpi tells the sanitizers
 * (compiled only with --enable-sanitizers).
 *
 * LeakSanitizer asks every program for built-in suppressions through
 * __lsan_default_suppressions (a weak reference in its runtime, so the
 * definition of any loaded library is found). librdmpi gives the leaks
 * of the third-party libraries it and its plug-ins use (runtime/base/lsan.supp:
 * libpmix frees less than it allocates at PMIx_Finalize), so that a
 * program linked with it does not end with status 1 for them, under rrun,
 * mpirun, srun or alone; rrun is built with it too. The program's and
 * rdmpi's own leaks are still reported; a program's own list in
 * LSAN_OPTIONS=suppressions=FILE adds to this one. */
#include "config.h"

const char *__lsan_default_suppressions(void);

const char *__lsan_default_suppressions(void)
{
    return
#include "runtime/base/lsan_supp.h"
        ;
}
