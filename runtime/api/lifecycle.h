/* lifecycle.h - bringing the library up and down (lifecycle.c): every
 * floor in order, from the services to the collectives. */
#ifndef RD_API_LIFECYCLE_H
#define RD_API_LIFECYCLE_H

#include <stddef.h>

#include "runtime/base/error.h"

/* Bring up / tear down every floor (params, log, job, communicators, the
 * p2p engine, the collectives). On failure, err holds the reason. */
rd_status rd_init(int required, int *provided, char *err, size_t errlen);
rd_status rd_finalize(void);

#endif
