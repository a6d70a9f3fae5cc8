/* names.h - the name service's upcalls (names.c), for server.c's module. */
#ifndef RRUN_NAMES_H
#define RRUN_NAMES_H

#include <pmix_server.h>

pmix_status_t rrun_up_publish(const pmix_proc_t *proc, const pmix_info_t info[], size_t ninfo,
                              pmix_op_cbfunc_t cbfunc, void *cbdata);
pmix_status_t rrun_up_lookup(const pmix_proc_t *proc, char **keys, const pmix_info_t info[], size_t ninfo,
                             pmix_lookup_cbfunc_t cbfunc, void *cbdata);
pmix_status_t rrun_up_unpublish(const pmix_proc_t *proc, char **keys, const pmix_info_t info[], size_t ninfo,
                                pmix_op_cbfunc_t cbfunc, void *cbdata);

#endif
