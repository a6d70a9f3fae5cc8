/* MPI test: objects freed while an operation that uses them is pending.
 * MPI lets a program free an op, a datatype, a communicator or an error
 * handler right after starting a nonblocking (or persistent) operation on
 * it: the object must live until the operation completes, and the
 * operation must complete as if nothing had been freed. Each case frees
 * the object, then makes new objects of the same kind (which would take
 * the freed memory), then completes the operation and checks exact values.
 * Rank 0 starts each collective first and the others a little later, so
 * that rank 0's part of the work happens after the free. */
#include <stdlib.h>
#include <unistd.h>

#include "test/mpi/mtest.h"

static int rank, size;

static void op_sum(void *in, void *io, int *len, MPI_Datatype *dt)
{
    (void)dt;
    for (int i = 0; i < *len; i++)
        ((int *)io)[i] += ((int *)in)[i];
}

static void op_decoy(void *in, void *io, int *len, MPI_Datatype *dt)
{
    (void)dt;
    for (int i = 0; i < *len; i++)
        ((int *)io)[i] = ((int *)io)[i] * ((int *)in)[i] + 1000;
}

/* the ranks other than 0 start late, so rank 0 waits inside MPI */
static void late(void)
{
    if (rank != 0)
        usleep(50000);
}

/* New objects of each kind, to take the memory of freed ones. */
static void decoys(MPI_Op *ops, MPI_Datatype *types, int n)
{
    for (int i = 0; i < n; i++) {
        MPI_Op_create(op_decoy, 1, &ops[i]);
        MPI_Type_vector(3, 1, 2, MPI_SHORT, &types[i]);
        MPI_Type_commit(&types[i]);
    }
}

static void decoys_free(MPI_Op *ops, MPI_Datatype *types, int n)
{
    for (int i = 0; i < n; i++) {
        MPI_Op_free(&ops[i]);
        MPI_Type_free(&types[i]);
    }
}

#define N 5

/* A user op freed before the reduction that uses it completes. */
static void t_op(void)
{
    MPI_Op sum, dops[4];
    MPI_Datatype dtypes[4];
    MPI_Request r;
    int in[N], out[N], want[N], rc;
    for (int i = 0; i < N; i++) {
        in[i] = (rank + 1) * (i + 1);
        want[i] = size * (size + 1) / 2 * (i + 1);
    }

    /* Iallreduce */
    late();
    MPI_Op_create(op_sum, 1, &sum);
    MPI_Iallreduce(in, out, N, MPI_INT, sum, MPI_COMM_WORLD, &r);
    rc = MPI_Op_free(&sum);
    mt_is_int(rc, MPI_SUCCESS, "MPI_Op_free of an op an Iallreduce still uses");
    mt_ok(sum == MPI_OP_NULL, "MPI_Op_free sets the handle to MPI_OP_NULL");
    decoys(dops, dtypes, 4);
    rc = MPI_Wait(&r, MPI_STATUS_IGNORE);
    mt_is_int(rc, MPI_SUCCESS, "MPI_Wait on an Iallreduce whose op was freed");
    mt_ok(memcmp(out, want, sizeof(want)) == 0, "Iallreduce with a freed user op: exact sums");
    decoys_free(dops, dtypes, 4);

    /* Ireduce to the last rank */
    late();
    MPI_Op_create(op_sum, 1, &sum);
    memset(out, 0, sizeof(out));
    MPI_Ireduce(in, out, N, MPI_INT, sum, size - 1, MPI_COMM_WORLD, &r);
    MPI_Op_free(&sum);
    decoys(dops, dtypes, 4);
    rc = MPI_Wait(&r, MPI_STATUS_IGNORE);
    mt_is_int(rc, MPI_SUCCESS, "MPI_Wait on an Ireduce whose op was freed");
    if (rank == size - 1)
        mt_ok(memcmp(out, want, sizeof(want)) == 0, "Ireduce with a freed user op: exact sums at the root");
    decoys_free(dops, dtypes, 4);

    /* Iscan and Ireduce_scatter_block, both pending when the op goes */
    late();
    MPI_Op_create(op_sum, 1, &sum);
    int scan[N], blk[2 * 16], rsb[2];
    for (int i = 0; i < 2 * size; i++)
        blk[i] = (rank + 1) * 100 + i;
    MPI_Request rr[2];
    MPI_Iscan(in, scan, N, MPI_INT, sum, MPI_COMM_WORLD, &rr[0]);
    MPI_Ireduce_scatter_block(blk, rsb, 2, MPI_INT, sum, MPI_COMM_WORLD, &rr[1]);
    MPI_Op_free(&sum);
    decoys(dops, dtypes, 4);
    rc = MPI_Waitall(2, rr, MPI_STATUSES_IGNORE);
    mt_is_int(rc, MPI_SUCCESS, "MPI_Waitall on Iscan and Ireduce_scatter_block whose op was freed");
    int ok = 1;
    for (int i = 0; i < N; i++)
        ok &= scan[i] == (rank + 1) * (rank + 2) / 2 * (i + 1);
    mt_ok(ok, "Iscan with a freed user op: exact prefix sums");
    int s = size * (size + 1) / 2;
    mt_ok(rsb[0] == s * 100 + size * (2 * rank) && rsb[1] == s * 100 + size * (2 * rank + 1),
          "Ireduce_scatter_block with a freed user op: exact block");
    decoys_free(dops, dtypes, 4);
}

/* A derived datatype freed before the operations that use it complete:
 * point-to-point (eager and rendezvous sizes), persistent requests and
 * nonblocking collectives. */
static void t_type(void)
{
    MPI_Op dops[4];
    MPI_Datatype dtypes[4], vec;
    int rc;
    /* every other int of 2 * n */
    for (int n = 4; n <= (1 << 18); n *= 256) {
        int *buf = malloc(sizeof(int) * 2 * (size_t)n), *got = malloc(sizeof(int) * 2 * (size_t)n);
        MPI_Type_vector(n, 1, 2, MPI_INT, &vec);
        MPI_Type_commit(&vec);
        for (int i = 0; i < 2 * n; i++) {
            buf[i] = i * 7 + 1;
            got[i] = -1;
        }
        int peer_to = (rank + 1) % size, peer_from = (rank + size - 1) % size;
        MPI_Request r[2];
        MPI_Irecv(got, 1, vec, peer_from, 5, MPI_COMM_WORLD, &r[0]);
        MPI_Isend(buf, 1, vec, peer_to, 5, MPI_COMM_WORLD, &r[1]);
        rc = MPI_Type_free(&vec);
        mt_is_int(rc, MPI_SUCCESS, "MPI_Type_free of a type an Isend and an Irecv use (%d ints)", n);
        decoys(dops, dtypes, 4);
        late();
        rc = MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
        mt_is_int(rc, MPI_SUCCESS, "MPI_Waitall on an Isend and an Irecv whose type was freed (%d ints)", n);
        int ok = 1;
        for (int i = 0; i < 2 * n; i++)
            ok &= got[i] == (i % 2 ? -1 : i * 7 + 1);
        mt_ok(ok, "Isend/Irecv of a freed vector type: the right ints land, the gaps stay (%d ints)", n);
        decoys_free(dops, dtypes, 4);

        /* Ibcast from rank 0 */
        late();
        MPI_Type_vector(n, 1, 2, MPI_INT, &vec);
        MPI_Type_commit(&vec);
        for (int i = 0; i < 2 * n; i++)
            got[i] = rank == 0 ? i * 3 : -1;
        MPI_Ibcast(got, 1, vec, 0, MPI_COMM_WORLD, &r[0]);
        MPI_Type_free(&vec);
        decoys(dops, dtypes, 4);
        rc = MPI_Wait(&r[0], MPI_STATUS_IGNORE);
        mt_is_int(rc, MPI_SUCCESS, "MPI_Wait on an Ibcast whose type was freed (%d ints)", n);
        ok = 1;
        for (int i = 0; i < 2 * n; i++)
            ok &= got[i] == (i % 2 && rank ? -1 : i * 3);
        mt_ok(ok, "Ibcast of a freed vector type: exact values, gaps untouched (%d ints)", n);
        decoys_free(dops, dtypes, 4);
        free(buf);
        free(got);
    }

    /* persistent requests outlive the type: started three times */
    MPI_Type_vector(3, 1, 2, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    int sb[6], rb[6];
    MPI_Request p[2];
    MPI_Recv_init(rb, 1, vec, (rank + size - 1) % size, 9, MPI_COMM_WORLD, &p[0]);
    MPI_Send_init(sb, 1, vec, (rank + 1) % size, 9, MPI_COMM_WORLD, &p[1]);
    MPI_Type_free(&vec);
    decoys(dops, dtypes, 4);
    for (int round = 0; round < 3; round++) {
        for (int i = 0; i < 6; i++) {
            sb[i] = 1000 * round + 10 * rank + i;
            rb[i] = -1;
        }
        MPI_Startall(2, p);
        rc = MPI_Waitall(2, p, MPI_STATUSES_IGNORE);
        int from = (rank + size - 1) % size, ok = rc == MPI_SUCCESS;
        for (int i = 0; i < 6; i++)
            ok &= rb[i] == (i % 2 ? -1 : 1000 * round + 10 * from + i);
        mt_ok(ok, "persistent send/recv of a freed type, round %d: exact values", round);
    }
    MPI_Request_free(&p[0]);
    MPI_Request_free(&p[1]);
    decoys_free(dops, dtypes, 4);
}

static int eh_calls, eh_class;
static MPI_Comm eh_comm;

static void eh_fn(MPI_Comm *comm, int *code, ...)
{
    eh_calls++;
    eh_comm = *comm;
    MPI_Error_class(*code, &eh_class);
}

/* A communicator freed with nonblocking operations pending on it: they
 * complete, and their errors still go to its error handler (freed too). */
static void t_comm(void)
{
    MPI_Comm c;
    MPI_Request r[3];
    int rc, x = -1, y = 0, sum = -1, one = 1;
    int to = (rank + 1) % size, from = (rank + size - 1) % size;

    /* p2p and a collective pending across the free */
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    y = 100 + rank;
    late();
    MPI_Irecv(&x, 1, MPI_INT, from, 3, c, &r[0]);
    MPI_Iallreduce(&one, &sum, 1, MPI_INT, MPI_SUM, c, &r[1]);
    MPI_Isend(&y, 1, MPI_INT, to, 3, c, &r[2]);
    rc = MPI_Comm_free(&c);
    mt_is_int(rc, MPI_SUCCESS, "MPI_Comm_free with an Irecv, an Isend and an Iallreduce pending");
    mt_ok(c == MPI_COMM_NULL, "MPI_Comm_free sets the handle to MPI_COMM_NULL");
    {
        /* new communicators take the freed memory; their traffic, with the
         * same tag, must not meet the freed one's */
        MPI_Comm d[3];
        int decoy = -7 - rank, dx = 0;
        for (int i = 0; i < 3; i++)
            MPI_Comm_dup(MPI_COMM_WORLD, &d[i]);
        MPI_Sendrecv(&decoy, 1, MPI_INT, to, 3, &dx, 1, MPI_INT, from, 3, d[0], MPI_STATUS_IGNORE);
        mt_is_int(dx, -7 - from, "a communicator made after the free carries its own message");
        for (int i = 0; i < 3; i++)
            MPI_Comm_free(&d[i]);
    }
    MPI_Status st3[3];
    rc = MPI_Waitall(3, r, st3);
    mt_is_int(rc, MPI_SUCCESS, "MPI_Waitall on an Irecv, an Iallreduce and an Isend of a freed communicator");
    mt_is_int(sum, size, "Iallreduce on a freed communicator: exact sum");
    mt_is_int(x, 100 + from, "Irecv on a freed communicator: exact value");
    mt_ok(st3[0].MPI_SOURCE == from && st3[0].MPI_TAG == 3, "the receive's status names its source and tag");

    /* both sides free the communicator with the send and the receive
     * pending (rendezvous size) */
    {
        int n = 1 << 17;
        int *sb = malloc(sizeof(int) * (size_t)n), *rb = malloc(sizeof(int) * (size_t)n);
        for (int i = 0; i < n; i++) {
            sb[i] = rank * n + i;
            rb[i] = -1;
        }
        MPI_Comm_dup(MPI_COMM_WORLD, &c);
        MPI_Irecv(rb, n, MPI_INT, from, 4, c, &r[0]);
        MPI_Isend(sb, n, MPI_INT, to, 4, c, &r[1]);
        MPI_Ibarrier(c, &r[2]);
        MPI_Comm_free(&c);
        MPI_Comm d;
        MPI_Comm_dup(MPI_COMM_WORLD, &d);
        late();
        MPI_Status st[3];
        rc = MPI_Waitall(3, r, st);
        mt_is_int(rc, MPI_SUCCESS, "MPI_Waitall on Irecv, Isend and Ibarrier of a freed communicator");
        int ok = 1;
        for (int i = 0; i < n; i++)
            ok &= rb[i] == from * n + i;
        mt_ok(ok, "512 KiB sent and received on a freed communicator: exact values");
        mt_ok(st[0].MPI_SOURCE == from && st[0].MPI_TAG == 4, "the receive's status names its source and tag");
        MPI_Comm_free(&d);
        free(sb);
        free(rb);
    }

    /* persistent requests keep their communicator: started after the free */
    {
        int sv, rv;
        MPI_Request p[2];
        MPI_Comm_dup(MPI_COMM_WORLD, &c);
        MPI_Recv_init(&rv, 1, MPI_INT, from, 6, c, &p[0]);
        MPI_Send_init(&sv, 1, MPI_INT, to, 6, c, &p[1]);
        MPI_Comm_free(&c);
        MPI_Comm d;
        MPI_Comm_dup(MPI_COMM_WORLD, &d);
        for (int round = 0; round < 3; round++) {
            sv = rank * 10 + round;
            rv = -1;
            MPI_Startall(2, p);
            rc = MPI_Waitall(2, p, MPI_STATUSES_IGNORE);
            mt_ok(rc == MPI_SUCCESS && rv == from * 10 + round,
                  "persistent send/recv on a freed communicator, round %d: exact value", round);
        }
        MPI_Request_free(&p[0]);
        MPI_Request_free(&p[1]);
        MPI_Comm_free(&d);
    }

    /* an error of a pending receive goes to the freed communicator's
     * handler (MPI_ERRORS_RETURN here), not MPI_COMM_WORLD's */
    {
        int small = -1, big[2] = {rank, rank + 1};
        MPI_Comm_dup(MPI_COMM_WORLD, &c);
        MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
        MPI_Irecv(&small, 1, MPI_INT, from, 8, c, &r[0]);
        MPI_Isend(big, 2, MPI_INT, to, 8, c, &r[1]);
        MPI_Comm_free(&c);
        late();
        /* the send first: the receive then holds the last reference */
        rc = MPI_Wait(&r[1], MPI_STATUS_IGNORE);
        mt_is_int(rc, MPI_SUCCESS, "the send on the freed communicator completes");
        rc = MPI_Wait(&r[0], MPI_STATUS_IGNORE);
        mt_is_int(rc, MPI_ERR_TRUNCATE, "a truncated receive on a freed communicator returns MPI_ERR_TRUNCATE (its handler: MPI_ERRORS_RETURN)");
        mt_is_int(small, from, "the truncated receive keeps what fits");
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    }

    /* the same with a user handler freed too: it is still called */
    {
        int small = -1, big[2] = {rank, rank + 1};
        MPI_Errhandler eh;
        MPI_Comm_create_errhandler(eh_fn, &eh);
        MPI_Comm_dup(MPI_COMM_WORLD, &c);
        MPI_Comm_set_errhandler(c, eh);
        rc = MPI_Errhandler_free(&eh);
        mt_ok(rc == MPI_SUCCESS && eh == MPI_ERRHANDLER_NULL, "MPI_Errhandler_free of a handler a communicator holds");
        MPI_Irecv(&small, 1, MPI_INT, from, 8, c, &r[0]);
        MPI_Isend(big, 2, MPI_INT, to, 8, c, &r[1]);
        MPI_Comm keep = c;
        MPI_Comm_free(&c);
        {
            /* a new handler and a new communicator take the freed memory */
            MPI_Errhandler e2;
            MPI_Comm d;
            MPI_Comm_create_errhandler(eh_fn, &e2);
            MPI_Comm_dup(MPI_COMM_WORLD, &d);
            MPI_Comm_free(&d);
            MPI_Errhandler_free(&e2);
        }
        late();
        eh_calls = 0;
        MPI_Wait(&r[1], MPI_STATUS_IGNORE);
        rc = MPI_Wait(&r[0], MPI_STATUS_IGNORE);
        mt_is_int(rc, MPI_ERR_TRUNCATE, "the truncated receive returns MPI_ERR_TRUNCATE after the user's handler");
        mt_is_int(eh_calls, 1, "the freed handler of the freed communicator is called once");
        mt_is_int(eh_class, MPI_ERR_TRUNCATE, "the handler gets MPI_ERR_TRUNCATE");
        mt_ok(eh_comm == keep, "the handler gets the communicator of the receive");
    }

    /* MPI_Comm_idup of a parent freed before the idup completes */
    {
        MPI_Comm p, n;
        MPI_Comm_dup(MPI_COMM_WORLD, &p);
        late();
        MPI_Comm_idup(p, &n, &r[0]);
        MPI_Comm_free(&p);
        rc = MPI_Wait(&r[0], MPI_STATUS_IGNORE);
        mt_is_int(rc, MPI_SUCCESS, "MPI_Comm_idup completes after its parent was freed");
        int s = 0;
        rc = MPI_Allreduce(&one, &s, 1, MPI_INT, MPI_SUM, n);
        mt_ok(rc == MPI_SUCCESS && s == size, "the communicator an idup of a freed parent made works");
        MPI_Comm_free(&n);
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    mt_rank = rank;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    t_op();
    t_type();
    t_comm();
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return mt_done();
}
