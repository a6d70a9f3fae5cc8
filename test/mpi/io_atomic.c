/* MPI test: atomic mode (runtime/io/PLAN.md 4.4; MPI-3.1 13.6.1) on 2 and
 * 4 ranks. set/get_atomicity, MPI_ERR_NOT_SAME when the ranks' flags
 * differ. Then rounds of overlapping strided writes: rank r writes, through
 * a view of 64-byte blocks every 96 bytes shifted by 32 * r, R bytes of
 * the value of (round, r), all ranks at once, with data sieving forced on
 * and small buffers (many read-modify-write windows, which in non-atomic
 * mode interleave). After each round every byte must hold the value of one
 * of the ranks whose view covers it, and for every two ranks the bytes
 * they both cover must all have the same winner (each write is one
 * indivisible whole). A reader sees a region written by another rank
 * concurrently either wholly old or wholly new. argv[1]: a directory. */
#include <fcntl.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mtest.h"

static int rank, size;

enum { BLK = 64, STRIDE = 96, SHIFT = 32, DATA = 24 * 1024, ROUNDS = 40 };

/* does rank q's view cover file byte x, and at which stream byte */
static long covers(int q, long x)
{
    long y = x - (long)q * SHIFT;
    if (y < 0 || y % STRIDE >= BLK)
        return -1;
    long s = (y / STRIDE) * BLK + y % STRIDE;
    return s < DATA ? s : -1;
}

static unsigned char val(int round, int q) { return (unsigned char)(1 + round * 8 + q); }

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    mt_rank = rank;
    char p[1024];
    snprintf(p, sizeof p, "%s/atomic.dat", argc > 1 ? argv[1] : ".");
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "romio_ds_write", "enable");
    MPI_Info_set(info, "romio_ds_read", "enable");
    MPI_Info_set(info, "ind_wr_buffer_size", "1024");
    MPI_Info_set(info, "ind_rd_buffer_size", "1024");
    MPI_File fh;
    int rc = MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE, info, &fh);
    MPI_Info_free(&info);
    mt_is_int(rc, MPI_SUCCESS, "open");
    if (rc) {
        MPI_Finalize();
        return 0;
    }
    int flag = -1;
    MPI_File_get_atomicity(fh, &flag);
    mt_is_int(flag, 0, "a new file is not in atomic mode");
    if (size > 1) {
        rc = MPI_File_set_atomicity(fh, rank == 0);
        mt_is_int(rc, MPI_ERR_NOT_SAME, "set_atomicity with rank 0 true, the others false: MPI_ERR_NOT_SAME");
        MPI_File_get_atomicity(fh, &flag);
        mt_is_int(flag, 0, "still not atomic");
    }
    rc = MPI_File_set_atomicity(fh, 1);
    MPI_File_get_atomicity(fh, &flag);
    mt_ok(rc == MPI_SUCCESS && flag == 1, "set_atomicity(true) on every rank: get_atomicity true");

    MPI_Datatype b, ft;
    MPI_Type_create_hindexed(1, (int[]){BLK}, (MPI_Aint[]){0}, MPI_BYTE, &b);
    MPI_Type_create_resized(b, 0, STRIDE, &ft);
    MPI_Type_commit(&ft);
    rc = MPI_File_set_view(fh, (MPI_Offset)rank * SHIFT, MPI_BYTE, ft, "native", MPI_INFO_NULL);
    mt_is_int(rc, MPI_SUCCESS, "set_view: 64-byte blocks every 96, shifted by 32 * rank");
    long flen = (long)(size - 1) * SHIFT + (DATA / BLK - 1) * STRIDE + BLK;
    unsigned char *mine = malloc(DATA), *file = malloc((size_t)flen);
    int bad_rounds = 0, bad_vals = 0;
    for (int round = 0; round < ROUNDS; round++) {
        memset(mine, val(round, rank), DATA);
        MPI_Barrier(MPI_COMM_WORLD);
        rc = MPI_File_write_at(fh, 0, mine, DATA, MPI_BYTE, MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS)
            bad_vals++;
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank != 0)
            continue;
        int fd = open(p, O_RDONLY);
        ssize_t got = fd >= 0 ? pread(fd, file, (size_t)flen, 0) : -1;
        if (fd >= 0)
            close(fd);
        if (got != flen) {
            bad_rounds++;
            continue;
        }
        /* winner[q][s]: which of q, s won their common bytes; -1 none yet */
        int winner[4][4];
        memset(winner, -1, sizeof winner);
        int incons = 0;
        for (long x = 0; x < flen; x++) {
            int cov[4], nc = 0, who = -1;
            for (int q = 0; q < size && q < 4; q++)
                if (covers(q, x) >= 0) {
                    cov[nc++] = q;
                    if (file[x] == val(round, q))
                        who = q;
                }
            if (nc == 0)
                continue;
            if (who < 0) {
                if (!bad_vals++)
                    printf("# round %d byte %ld: %d is no writer's value\n", round, x, file[x]);
                continue;
            }
            for (int i = 0; i < nc; i++) {
                int q = cov[i];
                if (q == who)
                    continue;
                if (winner[q][who] < 0)
                    winner[q][who] = winner[who][q] = who;
                else if (winner[q][who] != who)
                    incons++;
            }
        }
        if (incons) {
            if (!bad_rounds)
                printf("# round %d: %d bytes where two writers' overlap has mixed winners\n", round, incons);
            bad_rounds++;
        }
    }
    if (rank == 0) {
        mt_ok(bad_vals == 0, "%d rounds of %d concurrent overlapping strided writes: every byte one writer's value",
              ROUNDS, size);
        mt_ok(bad_rounds == 0, "every overlap of two writers is one writer's whole, in every round");
    } else {
        mt_ok(bad_vals == 0, "every write succeeded");
    }

    /* a reader beside a writer: rank 1 rewrites its whole view while rank 0
     * reads rank 1's view */
    if (size > 1) {
        MPI_Offset disp1 = SHIFT;
        MPI_File_set_view(fh, rank == 0 ? disp1 : (MPI_Offset)rank * SHIFT, MPI_BYTE, ft, "native", MPI_INFO_NULL);
        int mixed = 0;
        for (int round = 0; round < 10; round++) {
            if (rank == 1) {
                memset(mine, 0xA0 + round, DATA);
                MPI_File_write_at(fh, 0, mine, DATA, MPI_BYTE, MPI_STATUS_IGNORE);
            }
            MPI_Barrier(MPI_COMM_WORLD);
            if (rank == 1)
                memset(mine, 0xB0 + round, DATA);
            if (rank == 1)
                MPI_File_write_at(fh, 0, mine, DATA, MPI_BYTE, MPI_STATUS_IGNORE);
            else if (rank == 0) {
                MPI_File_read_at(fh, 0, file, DATA, MPI_BYTE, MPI_STATUS_IGNORE);
                int old = 0, nw = 0;
                for (long i = 0; i < DATA; i++) {
                    old += file[i] == 0xA0 + round;
                    nw += file[i] == 0xB0 + round;
                }
                if (!(old == DATA || nw == DATA))
                    mixed++;
            }
            MPI_Barrier(MPI_COMM_WORLD);
        }
        if (rank == 0)
            mt_ok(mixed == 0, "10 reads beside a writer of the same bytes: each wholly old or wholly new");
    }
    MPI_File_close(&fh);
    MPI_Type_free(&b);
    MPI_Type_free(&ft);
    free(mine);
    free(file);
    printf("done [rank %d] %d checks, %d failed\n", rank, mt_checks, mt_failed);
    MPI_Finalize();
    return 0;
}
