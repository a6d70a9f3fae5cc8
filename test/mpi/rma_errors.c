/* Wrong use of one-sided communication under MPI_ERRORS_RETURN: each call
 * returns an error of the standard's class (MPI_Error_class) and the
 * program goes on, a correct epoch afterwards working: Put outside an
 * epoch, unlock without a lock and the other synchronisation mistakes ->
 * MPI_ERR_RMA_SYNC; a target beyond the window -> MPI_ERR_RMA_RANGE (a
 * negative displacement: MPI_ERR_DISP also);
 * Win_shared_query on a window not made by allocate_shared and Win_attach
 * on one not made by create_dynamic -> MPI_ERR_RMA_FLAVOR; a bad rank ->
 * MPI_ERR_RANK; a bad datatype or op -> MPI_ERR_TYPE / MPI_ERR_OP;
 * MPI_WIN_NULL -> MPI_ERR_WIN; MPI_MODE_NOCHECK while another rank holds
 * a conflicting lock -> MPI_ERR_RMA_CONFLICT. The standard leaves some of these to the
 * implementation ("where detected"): a class other than the one expected
 * prints a "# note" and fails only with RMA_STRICT=1, which rma_errors.sh
 * sets (issue 20 asks rdmpi for every class). Cases an implementation may
 * not detect are made harmless: the window is the first half of a larger
 * buffer, so a Put beyond it lands in memory nobody reads. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "mtest.h"

#define N 16

static int rank, size, strict, to, from;

static const char *cname(int c)
{
    static char s[MPI_MAX_ERROR_STRING];
    int len;
    if (c == MPI_SUCCESS)
        return "MPI_SUCCESS";
    MPI_Error_string(c, s, &len);
    return s;
}

/* rc must be of class exp; any error class besides it is only a note
 * unless RMA_STRICT; success is a note too (not detected) */
static void expect(int rc, int exp, const char *what, const char *expname)
{
    int cls = rc;
    if (rc != MPI_SUCCESS)
        MPI_Error_class(rc, &cls);
    if (cls == exp || strict) {
        mt_ok(cls == exp, "%s: %s", what, expname);
        if (cls != exp)
            printf("# [rank %d] %s: class %d (%s)\n", rank, what, cls, cname(cls));
    } else if (rank == 0)
        printf("# note: %s: class %d (%s), not %s (checked with RMA_STRICT=1)\n", what, cls, cname(cls), expname);
}
#define EXPECT(rc, cls, what) expect((rc), (cls), (what), #cls)

static void user_sum(void *in, void *inout, int *len, MPI_Datatype *t)
{
    (void)t;
    for (int i = 0; i < *len; i++)
        ((int *)inout)[i] += ((int *)in)[i];
}

/* a correct fence epoch and a correct lock epoch on win */
static void works(MPI_Win win, int *mem, const char *after)
{
    int v = 900 + rank, g = -1;
    mem[3] = -1;
    mt_is_int(MPI_Win_fence(0, win), MPI_SUCCESS, "after %s: fence", after);
    mt_is_int(MPI_Put(&v, 1, MPI_INT, to, 3, 1, MPI_INT, win), MPI_SUCCESS, "after %s: Put", after);
    mt_is_int(MPI_Win_fence(0, win), MPI_SUCCESS, "after %s: closing fence", after);
    mt_is_int(mem[3], 900 + from, "after %s: a fence epoch works", after);
    MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
    mt_is_int(MPI_Win_lock(MPI_LOCK_SHARED, to, 0, win), MPI_SUCCESS, "after %s: lock", after);
    MPI_Get(&g, 1, MPI_INT, to, 3, 1, MPI_INT, win);
    mt_is_int(MPI_Win_unlock(to, win), MPI_SUCCESS, "after %s: unlock", after);
    mt_is_int(g, 900 + rank, "after %s: a lock epoch works", after);
    MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    mt_rank = rank;
    strict = getenv("RMA_STRICT") && atoi(getenv("RMA_STRICT")) > 0;
    to = (rank + 1) % size;
    from = (rank + size - 1) % size;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);

    int *mem = calloc(2 * N, sizeof(int)), v = 1, g = 0;
    MPI_Win win;
    MPI_Win_create(mem, N * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    mt_is_int(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN), MPI_SUCCESS, "Win_set_errhandler ERRORS_RETURN");

    /* synchronisation mistakes */
    EXPECT(MPI_Put(&v, 1, MPI_INT, to, 0, 1, MPI_INT, win), MPI_ERR_RMA_SYNC, "Put outside an epoch");
    EXPECT(MPI_Get(&g, 1, MPI_INT, to, 0, 1, MPI_INT, win), MPI_ERR_RMA_SYNC, "Get outside an epoch");
    EXPECT(MPI_Accumulate(&v, 1, MPI_INT, to, 0, 1, MPI_INT, MPI_SUM, win), MPI_ERR_RMA_SYNC,
           "Accumulate outside an epoch");
    EXPECT(MPI_Win_unlock(to, win), MPI_ERR_RMA_SYNC, "unlock without lock");
    EXPECT(MPI_Win_unlock_all(win), MPI_ERR_RMA_SYNC, "unlock_all without lock_all");
    EXPECT(MPI_Win_flush(to, win), MPI_ERR_RMA_SYNC, "flush outside a passive-target epoch");
    EXPECT(MPI_Win_complete(win), MPI_ERR_RMA_SYNC, "Win_complete without Win_start");
    EXPECT(MPI_Win_wait(win), MPI_ERR_RMA_SYNC, "Win_wait without Win_post");
    {
        MPI_Request rq = MPI_REQUEST_NULL;
        EXPECT(MPI_Rput(&v, 1, MPI_INT, to, 0, 1, MPI_INT, win, &rq), MPI_ERR_RMA_SYNC,
               "Rput outside a passive-target epoch");
        if (rq != MPI_REQUEST_NULL)
            MPI_Request_free(&rq);
    }
    MPI_Win_lock(MPI_LOCK_SHARED, to, 0, win);
    EXPECT(MPI_Win_lock(MPI_LOCK_SHARED, to, 0, win), MPI_ERR_RMA_SYNC, "lock of a target already locked");
    mt_is_int(MPI_Win_unlock(to, win), MPI_SUCCESS, "unlock after a refused second lock");
    MPI_Barrier(MPI_COMM_WORLD);
    works(win, mem, "synchronisation errors");

    /* out of range (the window is N ints; mem has 2 N) */
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, to, 0, win);
    EXPECT(MPI_Put(&v, 1, MPI_INT, to, N, 1, MPI_INT, win), MPI_ERR_RMA_RANGE, "Put beyond the window");
    {
        int two[2] = {1, 2};
        EXPECT(MPI_Put(two, 2, MPI_INT, to, N - 1, 2, MPI_INT, win), MPI_ERR_RMA_RANGE,
               "Put straddling the window's end");
    }
    EXPECT(MPI_Get(&g, 1, MPI_INT, to, N + 3, 1, MPI_INT, win), MPI_ERR_RMA_RANGE, "Get beyond the window");
    {
        /* MPI_ERR_DISP (invalid displacement) is as right here */
        int rc = MPI_Put(&v, 1, MPI_INT, to, -1, 1, MPI_INT, win), cls = rc;
        if (rc != MPI_SUCCESS)
            MPI_Error_class(rc, &cls);
        expect(cls == MPI_ERR_DISP ? MPI_ERR_RMA_RANGE : rc, MPI_ERR_RMA_RANGE, "Put at a negative displacement",
               "MPI_ERR_RMA_RANGE or MPI_ERR_DISP");
    }
    mt_is_int(MPI_Win_unlock(to, win), MPI_SUCCESS, "unlock after out-of-range errors");
    MPI_Barrier(MPI_COMM_WORLD);
    works(win, mem, "range errors");

    /* bad rank, datatype, op */
    MPI_Win_lock_all(0, win);
    EXPECT(MPI_Put(&v, 1, MPI_INT, size, 0, 1, MPI_INT, win), MPI_ERR_RANK, "Put to rank = size");
    EXPECT(MPI_Get(&g, 1, MPI_INT, -5, 0, 1, MPI_INT, win), MPI_ERR_RANK, "Get from a negative rank");
    EXPECT(MPI_Put(&v, 1, MPI_DATATYPE_NULL, to, 0, 1, MPI_INT, win), MPI_ERR_TYPE,
           "Put with MPI_DATATYPE_NULL");
    EXPECT(MPI_Rput(&v, 1, MPI_INT, to, 0, 1, MPI_INT, win, NULL), MPI_ERR_ARG, "Rput with a NULL request");
    EXPECT(MPI_Rget(&g, 1, MPI_INT, to, 0, 1, MPI_INT, win, NULL), MPI_ERR_ARG, "Rget with a NULL request");
    EXPECT(MPI_Raccumulate(&v, 1, MPI_INT, to, 0, 1, MPI_INT, MPI_SUM, win, NULL), MPI_ERR_ARG,
           "Raccumulate with a NULL request");
    EXPECT(MPI_Rget_accumulate(&v, 1, MPI_INT, &g, 1, MPI_INT, to, 0, 1, MPI_INT, MPI_SUM, win, NULL), MPI_ERR_ARG,
           "Rget_accumulate with a NULL request");
    {
        MPI_Datatype unc;
        MPI_Type_contiguous(2, MPI_INT, &unc); /* never committed */
        int two[2] = {1, 2};
        EXPECT(MPI_Put(two, 1, unc, to, 0, 1, unc, win), MPI_ERR_TYPE, "Put with an uncommitted datatype");
        MPI_Type_free(&unc);
    }
    EXPECT(MPI_Accumulate(&v, 1, MPI_INT, to, 0, 1, MPI_INT, MPI_OP_NULL, win), MPI_ERR_OP,
           "Accumulate with MPI_OP_NULL");
    {
        MPI_Op uop;
        MPI_Op_create(user_sum, 1, &uop);
        EXPECT(MPI_Accumulate(&v, 1, MPI_INT, to, 0, 1, MPI_INT, uop, win), MPI_ERR_OP,
               "Accumulate with a user-defined op");
        MPI_Op_free(&uop);
    }
    {
        double d = 1, dc = 0, dr;
        EXPECT(MPI_Compare_and_swap(&d, &dc, &dr, MPI_DOUBLE, to, 0, win), MPI_ERR_TYPE,
               "Compare_and_swap on MPI_DOUBLE");
    }
    mt_is_int(MPI_Win_unlock_all(win), MPI_SUCCESS, "unlock_all after argument errors");
    MPI_Barrier(MPI_COMM_WORLD);
    works(win, mem, "argument errors");

    /* flavours */
    {
        MPI_Aint qs;
        int qu;
        void *qb;
        EXPECT(MPI_Win_shared_query(win, rank, &qs, &qu, &qb), MPI_ERR_RMA_FLAVOR,
               "Win_shared_query on a Win_create window");
        int extra[4];
        EXPECT(MPI_Win_attach(win, extra, sizeof extra), MPI_ERR_RMA_FLAVOR, "Win_attach on a Win_create window");
        EXPECT(MPI_Win_detach(win, mem), MPI_ERR_RMA_FLAVOR, "Win_detach on a Win_create window");
    }
    MPI_Barrier(MPI_COMM_WORLD);
    works(win, mem, "flavour errors");

    /* MPI_WIN_NULL (reported on MPI_COMM_WORLD / SELF: ERRORS_RETURN there) */
    EXPECT(MPI_Win_fence(0, MPI_WIN_NULL), MPI_ERR_WIN, "Win_fence on MPI_WIN_NULL");
    EXPECT(MPI_Put(&v, 1, MPI_INT, to, 0, 1, MPI_INT, MPI_WIN_NULL), MPI_ERR_WIN, "Put on MPI_WIN_NULL");
    EXPECT(MPI_Win_lock(MPI_LOCK_SHARED, to, 0, MPI_WIN_NULL), MPI_ERR_WIN, "Win_lock on MPI_WIN_NULL");
    {
        MPI_Win nw = MPI_WIN_NULL;
        EXPECT(MPI_Win_free(&nw), MPI_ERR_WIN, "Win_free of MPI_WIN_NULL");
    }
    MPI_Barrier(MPI_COMM_WORLD);
    works(win, mem, "MPI_WIN_NULL errors");

    /* MPI_MODE_NOCHECK while another rank holds a conflicting lock:
     * MPI_ERR_RMA_CONFLICT where detected (rdmpi: the target's lock word
     * is mapped here, on the node), and nothing taken: NOCHECK works once
     * the lock is gone */
    if (size >= 2) {
        int *am, rc;
        MPI_Win aw;
        MPI_Win_allocate(N * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &am, &aw);
        MPI_Win_set_errhandler(aw, MPI_ERRORS_RETURN);
        if (rank == 1)
            mt_is_int(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, aw), MPI_SUCCESS, "exclusive lock on rank 0 (held)");
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank == 0) {
            rc = MPI_Win_lock(MPI_LOCK_SHARED, 0, MPI_MODE_NOCHECK, aw);
            EXPECT(rc, MPI_ERR_RMA_CONFLICT, "lock with MPI_MODE_NOCHECK while rank 1 holds an exclusive lock");
            if (rc == MPI_SUCCESS)
                MPI_Win_unlock(0, aw);
            rc = MPI_Win_lock_all(MPI_MODE_NOCHECK, aw);
            EXPECT(rc, MPI_ERR_RMA_CONFLICT, "lock_all with MPI_MODE_NOCHECK while rank 1 holds an exclusive lock");
            if (rc == MPI_SUCCESS)
                MPI_Win_unlock_all(aw);
        }
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank == 1)
            mt_is_int(MPI_Win_unlock(0, aw), MPI_SUCCESS, "unlock of rank 0 after the conflicts");
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank == 0) {
            mt_is_int(MPI_Win_lock(MPI_LOCK_SHARED, 0, MPI_MODE_NOCHECK, aw), MPI_SUCCESS,
                      "lock with MPI_MODE_NOCHECK once nobody holds one");
            mt_is_int(MPI_Win_unlock(0, aw), MPI_SUCCESS, "its unlock");
        }
        mt_is_int(MPI_Win_free(&aw), MPI_SUCCESS, "Win_free of the allocated window");
    }
    mt_is_int(MPI_Win_free(&win), MPI_SUCCESS, "Win_free after all the errors");
    free(mem);
    MPI_Finalize();
    return mt_done();
}
