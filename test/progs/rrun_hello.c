/* rrun_hello.c - a plain PMIx client for the rrun tests.
 *
 * PMIx_Init, read the job size, own local rank and hostname, put a key,
 * commit, fence, read every peer's key and check its value, finalize.
 * Prints one line with what it saw:
 *   rank R size N local_rank L host H peers ok
 * and exits 1 (after a message on stderr) when anything does not match. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pmix.h>

static pmix_proc_t me;

static int fail(const char *what, pmix_status_t rc)
{
    fprintf(stderr, "rrun_hello rank %u: %s: %s\n", me.rank, what, PMIx_Error_string(rc));
    return 1;
}

/* Read a key of `rank` in my namespace as an unsigned number, whatever
 * integer type the server used. */
static pmix_status_t get_uint(pmix_rank_t rank, const char *key, uint64_t *out)
{
    pmix_proc_t proc;
    pmix_value_t *val = NULL;
    pmix_status_t rc;

    PMIX_LOAD_PROCID(&proc, me.nspace, rank);
    rc = PMIx_Get(&proc, key, NULL, 0, &val);
    if (rc != PMIX_SUCCESS)
        return rc;
    switch (val->type) {
    case PMIX_UINT32: *out = val->data.uint32; break;
    case PMIX_UINT16: *out = val->data.uint16; break;
    case PMIX_PROC_RANK: *out = val->data.rank; break;
    case PMIX_INT: *out = (uint64_t)val->data.integer; break;
    default: rc = PMIX_ERR_TYPE_MISMATCH; break;
    }
    PMIX_VALUE_RELEASE(val);
    return rc;
}

int main(void)
{
    pmix_proc_t proc;
    pmix_value_t value, *val = NULL;
    pmix_status_t rc;
    uint64_t size, local_rank;
    char host[256], key[64], expect[128];
    int err = 0;

    rc = PMIx_Init(&me, NULL, 0);
    if (rc != PMIX_SUCCESS)
        return fail("PMIx_Init", rc);
    if ((rc = get_uint(PMIX_RANK_WILDCARD, PMIX_JOB_SIZE, &size)) != PMIX_SUCCESS)
        return fail("PMIx_Get(JOB_SIZE)", rc);
    if ((rc = get_uint(me.rank, PMIX_LOCAL_RANK, &local_rank)) != PMIX_SUCCESS)
        return fail("PMIx_Get(LOCAL_RANK)", rc);
    PMIX_LOAD_PROCID(&proc, me.nspace, me.rank);
    if ((rc = PMIx_Get(&proc, PMIX_HOSTNAME, NULL, 0, &val)) != PMIX_SUCCESS)
        return fail("PMIx_Get(HOSTNAME)", rc);
    snprintf(host, sizeof(host), "%s", val->type == PMIX_STRING ? val->data.string : "?");
    PMIX_VALUE_RELEASE(val);

    snprintf(expect, sizeof(expect), "value-of-%u", me.rank);
    value.type = PMIX_STRING;
    value.data.string = expect;
    if ((rc = PMIx_Put(PMIX_GLOBAL, "rrun.test.key", &value)) != PMIX_SUCCESS)
        return fail("PMIx_Put", rc);
    if ((rc = PMIx_Commit()) != PMIX_SUCCESS)
        return fail("PMIx_Commit", rc);
    PMIX_LOAD_PROCID(&proc, me.nspace, PMIX_RANK_WILDCARD);
    if ((rc = PMIx_Fence(&proc, 1, NULL, 0)) != PMIX_SUCCESS)
        return fail("PMIx_Fence", rc);
    for (uint64_t r = 0; r < size; r++) {
        PMIX_LOAD_PROCID(&proc, me.nspace, (pmix_rank_t)r);
        snprintf(key, sizeof(key), "value-of-%" PRIu64, r);
        rc = PMIx_Get(&proc, "rrun.test.key", NULL, 0, &val);
        if (rc != PMIX_SUCCESS) {
            fail("PMIx_Get(peer key)", rc);
            err = 1;
            continue;
        }
        if (val->type != PMIX_STRING || strcmp(val->data.string, key) != 0) {
            fprintf(stderr, "rrun_hello rank %u: peer %" PRIu64 " has a wrong value\n", me.rank, r);
            err = 1;
        }
        PMIX_VALUE_RELEASE(val);
    }
    printf("rank %u size %" PRIu64 " local_rank %" PRIu64 " host %s peers %s\n", me.rank, size,
           local_rank, host, err ? "BAD" : "ok");
    fflush(stdout);
    if ((rc = PMIx_Finalize(NULL, 0)) != PMIX_SUCCESS)
        return fail("PMIx_Finalize", rc);
    return err;
}
