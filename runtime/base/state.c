/* state.c - the library's life cycle and its big lock (state.h). */
#include "runtime/base/state.h"

struct rd_state rd_state;
int rd_threaded;
pthread_mutex_t rd_big_lock = PTHREAD_MUTEX_INITIALIZER;
