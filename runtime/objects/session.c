/* session.c - a session's memory (session.h). */
#include <stdlib.h>

#include "runtime/objects/session.h"

void rd_session_release(struct rd_session_s *s)
{
    if (s && atomic_fetch_sub_explicit(&s->refs, 1, memory_order_acq_rel) == 1)
        free(s);
}
