/* Collectives on intercommunicators: MPI_COMM_WORLD split into a group A
 * of the first k ranks and a group B of the rest (k = 1, and about a
 * third), every collective MPI-3.1 defines on intercommunicators, checked
 * exactly; nonblocking ones outstanding together; MPI_Comm_idup on an
 * intercommunicator; the error classes of what is not allowed. */
#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "affine.h"
#include "mtest.h"

static int wrank, wsize;

static int val(int wr, int i)
{
    return wr * 1000 + i;
}

static void run(int k)
{
    int inA = wrank < k, lsize, lrank, rsize;
    MPI_Comm local, inter;
    MPI_Comm_split(MPI_COMM_WORLD, inA, wrank, &local);
    /* leaders: world rank 0 for A, world rank k for B */
    MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, inA ? k : 0, 77, &inter);
    MPI_Comm_size(inter, &lsize);
    MPI_Comm_rank(inter, &lrank);
    MPI_Comm_remote_size(inter, &rsize);
    int rbase = inA ? k : 0; /* world rank of remote rank 0 */
    int c = 5;
    char what[80];
#define NAME(s) (snprintf(what, sizeof what, "k=%d %s (%s)", k, s, inA ? "A" : "B"), what)

    MPI_Barrier(inter);
    mt_ok(1, "%s", NAME("Barrier returns"));

    /* Bcast from A's last rank to B */
    int root = k - 1, buf[5];
    for (int i = 0; i < c; i++)
        buf[i] = inA && lrank == root ? val(wrank, i) : -1;
    MPI_Bcast(buf, c, MPI_INT, inA ? (lrank == root ? MPI_ROOT : MPI_PROC_NULL) : root, inter);
    int bad = 0;
    for (int i = 0; i < c; i++)
        bad |= buf[i] != (inA && lrank != root ? -1 : val(root, i));
    mt_ok(!bad, "%s", NAME("Bcast from A"));

    /* Reduce: B's data to A's rank 0, SUM and non-commutative */
    int s[5], r[5];
    for (int i = 0; i < c; i++) {
        s[i] = val(wrank, i);
        r[i] = -1;
    }
    MPI_Reduce(s, r, c, MPI_INT, MPI_SUM, inA ? (lrank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0, inter);
    if (inA && lrank == 0) {
        bad = 0;
        for (int i = 0; i < c; i++) {
            int e = 0;
            for (int w = k; w < wsize; w++)
                e += val(w, i);
            bad |= r[i] != e;
        }
        mt_ok(!bad, "%s", NAME("Reduce SUM of B at A's rank 0"));
    }
    MPI_Datatype at;
    MPI_Op aop;
    MPI_Type_contiguous(2, MPI_UINT32_T, &at);
    MPI_Type_commit(&at);
    MPI_Op_create(affine_fn, 0, &aop);
    affine as[5], ar[5];
    for (int i = 0; i < c; i++)
        as[i] = aval(wrank, i);
    /* B's rank 0 is the root; A contributes */
    MPI_Reduce(as, ar, c, at, aop, inA ? 0 : (lrank == 0 ? MPI_ROOT : MPI_PROC_NULL), inter);
    if (!inA && lrank == 0) {
        bad = 0;
        for (int i = 0; i < c; i++) {
            affine e = aexpect(0, k, i);
            bad |= ar[i].a != e.a || ar[i].b != e.b;
        }
        mt_ok(!bad, "%s", NAME("Reduce non-commutative of A at B's rank 0, in rank order"));
    }

    /* Allreduce: each group gets the other's sum */
    MPI_Allreduce(s, r, c, MPI_INT, MPI_SUM, inter);
    bad = 0;
    for (int i = 0; i < c; i++) {
        int e = 0;
        for (int w = rbase; w < rbase + rsize; w++)
            e += val(w, i);
        bad |= r[i] != e;
    }
    mt_ok(!bad, "%s", NAME("Allreduce: the remote group's sum"));

    /* Gather / Gatherv from B at A's rank 0; Scatter(v) back */
    int *g = malloc(sizeof(int) * (size_t)(wsize * c + 1));
    for (int i = 0; i < wsize * c; i++)
        g[i] = -1;
    MPI_Gather(s, c, MPI_INT, g, c, MPI_INT, inA ? (lrank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0, inter);
    if (inA && lrank == 0) {
        bad = 0;
        for (int j = 0; j < rsize; j++)
            for (int i = 0; i < c; i++)
                bad |= g[j * c + i] != val(rbase + j, i);
        mt_ok(!bad, "%s", NAME("Gather of B at A's rank 0"));
    }
    int *cnt = malloc(sizeof(int) * (size_t)wsize), *dsp = malloc(sizeof(int) * (size_t)wsize);
    for (int j = 0, off = 0; j < wsize; j++) {
        cnt[j] = j % 3 + 1;
        dsp[j] = off;
        off += cnt[j] + 1;
    }
    for (int i = 0; i < wsize * c; i++)
        g[i] = -1;
    MPI_Gatherv(s, inA ? 0 : cnt[lrank], MPI_INT, g, cnt, dsp, MPI_INT,
                inA ? (lrank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0, inter);
    if (inA && lrank == 0) {
        bad = 0;
        for (int j = 0; j < rsize; j++)
            for (int i = 0; i < cnt[j]; i++)
                bad |= g[dsp[j] + i] != val(rbase + j, i);
        mt_ok(!bad, "%s", NAME("Gatherv of B at A's rank 0"));
    }
    int sc[5] = {-1, -1, -1, -1, -1};
    if (inA && lrank == 0)
        for (int j = 0; j < rsize; j++)
            for (int i = 0; i < c; i++)
                g[j * c + i] = val(rbase + j, i) + 7;
    MPI_Scatter(g, c, MPI_INT, sc, c, MPI_INT, inA ? (lrank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0, inter);
    if (!inA) {
        bad = 0;
        for (int i = 0; i < c; i++)
            bad |= sc[i] != val(wrank, i) + 7;
        mt_ok(!bad, "%s", NAME("Scatter from A's rank 0 to B"));
    }
    MPI_Scatterv(g, cnt, dsp, MPI_INT, sc, inA ? 0 : cnt[lrank], MPI_INT,
                 inA ? (lrank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0, inter);

    /* Allgather: the remote group's blocks */
    for (int i = 0; i < wsize * c; i++)
        g[i] = -1;
    MPI_Allgather(s, c, MPI_INT, g, c, MPI_INT, inter);
    bad = 0;
    for (int j = 0; j < rsize; j++)
        for (int i = 0; i < c; i++)
            bad |= g[j * c + i] != val(rbase + j, i);
    mt_ok(!bad, "%s", NAME("Allgather: the remote group's blocks"));
    MPI_Allgatherv(s, cnt[lrank], MPI_INT, g, cnt, dsp, MPI_INT, inter);
    bad = 0;
    for (int j = 0; j < rsize; j++)
        for (int i = 0; i < cnt[j]; i++)
            bad |= g[dsp[j] + i] != val(rbase + j, i);
    mt_ok(!bad, "%s", NAME("Allgatherv"));

    /* Alltoall: block j to remote rank j */
    int *ta = malloc(sizeof(int) * (size_t)(wsize * c)), *tr = malloc(sizeof(int) * (size_t)(wsize * c));
    for (int j = 0; j < rsize; j++)
        for (int i = 0; i < c; i++)
            ta[j * c + i] = wrank * 100000 + (rbase + j) * 100 + i;
    MPI_Alltoall(ta, c, MPI_INT, tr, c, MPI_INT, inter);
    bad = 0;
    for (int j = 0; j < rsize; j++)
        for (int i = 0; i < c; i++)
            bad |= tr[j * c + i] != (rbase + j) * 100000 + wrank * 100 + i;
    mt_ok(!bad, "%s", NAME("Alltoall"));
    int *c5 = malloc(sizeof(int) * (size_t)wsize), *d5 = malloc(sizeof(int) * (size_t)wsize);
    MPI_Datatype *ty = malloc(sizeof(MPI_Datatype) * (size_t)wsize);
    for (int j = 0; j < wsize; j++) {
        c5[j] = c;
        d5[j] = j * c * (int)sizeof(int);
        ty[j] = MPI_INT;
    }
    for (int i = 0; i < wsize * c; i++)
        tr[i] = -1;
    MPI_Alltoallw(ta, c5, d5, ty, tr, c5, d5, ty, inter);
    bad = 0;
    for (int j = 0; j < rsize; j++)
        for (int i = 0; i < c; i++)
            bad |= tr[j * c + i] != (rbase + j) * 100000 + wrank * 100 + i;
    mt_ok(!bad, "%s", NAME("Alltoallw"));

    /* Reduce_scatter_block: |A| rcA = |B| rcB; A's ranks get blocks of B's sum */
    int rc = rsize, total = lsize * rc; /* lsize * rsize elements per vector */
    int *rs = malloc(sizeof(int) * (size_t)total), *rr = malloc(sizeof(int) * (size_t)rc);
    for (int i = 0; i < total; i++)
        rs[i] = val(wrank, i);
    MPI_Reduce_scatter_block(rs, rr, rc, MPI_INT, MPI_SUM, inter);
    bad = 0;
    for (int i = 0; i < rc; i++) {
        int e = 0;
        for (int w = rbase; w < rbase + rsize; w++)
            e += val(w, lrank * rc + i);
        bad |= rr[i] != e;
    }
    mt_ok(!bad, "%s", NAME("Reduce_scatter_block: my block of the remote group's sum"));
    int *rcs = malloc(sizeof(int) * (size_t)lsize);
    for (int j = 0; j < lsize; j++)
        rcs[j] = rc;
    MPI_Reduce_scatter(rs, rr, rcs, MPI_INT, MPI_SUM, inter);
    bad = 0;
    for (int i = 0; i < rc; i++) {
        int e = 0;
        for (int w = rbase; w < rbase + rsize; w++)
            e += val(w, lrank * rc + i);
        bad |= rr[i] != e;
    }
    mt_ok(!bad, "%s", NAME("Reduce_scatter"));

    /* nonblocking, outstanding together; and Comm_idup */
    MPI_Comm dup;
    MPI_Request q[4];
    int x = wrank, y = -1, z[5];
    MPI_Iallreduce(&x, &y, 1, MPI_INT, MPI_MAX, inter, &q[0]);
    for (int i = 0; i < c; i++)
        z[i] = !inA ? val(wrank, i) : -1;
    MPI_Ibcast(z, c, MPI_INT, inA ? 0 : (lrank == 0 ? MPI_ROOT : MPI_PROC_NULL), inter, &q[1]);
    MPI_Ibarrier(inter, &q[2]);
    MPI_Comm_idup(inter, &dup, &q[3]);
    MPI_Waitall(4, q, MPI_STATUSES_IGNORE);
    mt_is_int(y, rbase + rsize - 1, "%s", NAME("Iallreduce MAX: the remote group's highest world rank"));
    if (inA) {
        bad = 0;
        for (int i = 0; i < c; i++)
            bad |= z[i] != val(k, i);
        mt_ok(!bad, "%s", NAME("Ibcast from B's rank 0 to A"));
    }
    int flag = 0, dsz = 0;
    MPI_Comm_test_inter(dup, &flag);
    MPI_Comm_remote_size(dup, &dsz);
    mt_ok(flag && dsz == rsize, "%s", NAME("Comm_idup of an intercommunicator is one"));
    MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_MIN, dup);
    mt_is_int(y, rbase, "%s", NAME("Allreduce MIN on the idup'ed intercommunicator"));
    /* messages on the dup and on inter stay apart */
    int p1 = -1, p2 = -1, o1 = wrank + 1, o2 = wrank + 2;
    MPI_Request pq[4];
    MPI_Irecv(&p2, 1, MPI_INT, 0, 3, dup, &pq[0]);
    MPI_Irecv(&p1, 1, MPI_INT, 0, 3, inter, &pq[1]);
    if (lrank == 0) {
        /* rank 0 of each group sends to every remote rank on both */
        for (int j = 0; j < rsize; j++) {
            MPI_Send(&o1, 1, MPI_INT, j, 3, inter);
            MPI_Send(&o2, 1, MPI_INT, j, 3, dup);
        }
    }
    MPI_Waitall(2, pq, MPI_STATUSES_IGNORE);
    mt_ok(p1 == rbase + 1 && p2 == rbase + 2, "%s", NAME("p2p on the idup'ed and the original stay apart"));

    /* what is not allowed */
    MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN);
    int cls, rcode = MPI_Scan(&x, &y, 1, MPI_INT, MPI_SUM, inter);
    MPI_Error_class(rcode, &cls);
    mt_is_int(cls, MPI_ERR_COMM, "%s", NAME("Scan on an intercommunicator: MPI_ERR_COMM"));
    rcode = MPI_Allreduce(MPI_IN_PLACE, &y, 1, MPI_INT, MPI_SUM, inter);
    MPI_Error_class(rcode, &cls);
    mt_is_int(cls, MPI_ERR_BUFFER, "%s", NAME("MPI_IN_PLACE on an intercommunicator: MPI_ERR_BUFFER"));
    rcode = MPI_Bcast(&x, 1, MPI_INT, rsize, inter);
    MPI_Error_class(rcode, &cls);
    mt_is_int(cls, MPI_ERR_ROOT, "%s", NAME("Bcast root = remote size: MPI_ERR_ROOT"));
    MPI_Barrier(inter);

    free(g);
    free(cnt);
    free(dsp);
    free(ta);
    free(tr);
    free(c5);
    free(d5);
    free(ty);
    free(rs);
    free(rr);
    free(rcs);
    MPI_Op_free(&aop);
    MPI_Type_free(&at);
    MPI_Comm_free(&dup);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&local);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    mt_rank = wrank;
    run(1);
    if (wsize / 3 > 1)
        run(wsize / 3);
    MPI_Finalize();
    return mt_done();
}
