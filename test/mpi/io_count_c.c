/* MPI test: the large-count file accesses (MPI_File_read_c ...), each the
 * code of its int twin. Usage: io_count_c DIR (1 or 2 ranks). Every rank
 * owns a block of B ints per step; each step writes its blocks by one
 * _c form and reads them back by its read twin, and at the end the whole
 * file is read by POSIX against the image: every write form put its
 * bytes where it should. Then MPI_File_get_type_extent_c and the count
 * errors (MPI_ERR_COUNT, under the files' default MPI_ERRORS_RETURN). */
#include <stdint.h>

#include "test/mpi/iotest.h"

#define B 64     /* ints a rank's block */
#define STEPS 11 /* the write forms */

static int me, np;

static void fill(int *b, int step)
{
    for (int i = 0; i < B; i++)
        b[i] = 100000 * step + 1000 * me + i;
}

static int same(const int *a, const int *b)
{
    return memcmp(a, b, sizeof(int) * B) == 0;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    mt_rank = me;
    char path[4096];
    snprintf(path, sizeof path, "%s/count_c", argc > 1 ? argv[1] : ".");
    MPI_File fh;
    MPI_Status st;
    MPI_Request r;
    MPI_Count c = -1;
    int out[B], in[B];
    const MPI_Offset blk = (MPI_Offset)sizeof(int) * B; /* bytes */
    mt_is_int(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                            MPI_INFO_NULL, &fh),
              MPI_SUCCESS, "MPI_File_open");

    /* step s: rank me's block at byte (s * np + me) * blk */
#define AT(s) (((MPI_Offset)(s) * np + me) * blk)
    /* explicit offsets */
    const char *names[STEPS] = {"write_at_c",  "write_at_all_c", "iwrite_at_c", "iwrite_at_all_c",
                                "write_c",     "write_all_c",    "iwrite_c",    "iwrite_all_c",
                                "write_at_all_begin_c", "write_all_begin_c", "write_ordered_c"};
    for (int s = 0; s < STEPS; s++) {
        fill(out, s);
        memset(in, 0, sizeof in);
        int rc = MPI_SUCCESS, rr = MPI_SUCCESS;
        c = -1;
        if (s >= 4 && s <= 7)
            MPI_File_seek(fh, AT(s), MPI_SEEK_SET); /* (the individual pointer, in bytes: the default view) */
        switch (s) {
        case 0:
            rc = MPI_File_write_at_c(fh, AT(s), out, B, MPI_INT, &st);
            rr = MPI_File_read_at_c(fh, AT(s), in, B, MPI_INT, &st);
            break;
        case 1:
            rc = MPI_File_write_at_all_c(fh, AT(s), out, B, MPI_INT, &st);
            rr = MPI_File_read_at_all_c(fh, AT(s), in, B, MPI_INT, &st);
            break;
        case 2:
            rc = MPI_File_iwrite_at_c(fh, AT(s), out, B, MPI_INT, &r);
            MPI_Wait(&r, &st);
            rr = MPI_File_iread_at_c(fh, AT(s), in, B, MPI_INT, &r);
            MPI_Wait(&r, &st);
            break;
        case 3:
            rc = MPI_File_iwrite_at_all_c(fh, AT(s), out, B, MPI_INT, &r);
            MPI_Wait(&r, &st);
            rr = MPI_File_iread_at_all_c(fh, AT(s), in, B, MPI_INT, &r);
            MPI_Wait(&r, &st);
            break;
        case 4:
            rc = MPI_File_write_c(fh, out, B, MPI_INT, &st);
            MPI_File_seek(fh, AT(s), MPI_SEEK_SET);
            rr = MPI_File_read_c(fh, in, B, MPI_INT, &st);
            break;
        case 5:
            rc = MPI_File_write_all_c(fh, out, B, MPI_INT, &st);
            MPI_File_seek(fh, AT(s), MPI_SEEK_SET);
            rr = MPI_File_read_all_c(fh, in, B, MPI_INT, &st);
            break;
        case 6:
            rc = MPI_File_iwrite_c(fh, out, B, MPI_INT, &r);
            MPI_Wait(&r, &st);
            MPI_File_seek(fh, AT(s), MPI_SEEK_SET);
            rr = MPI_File_iread_c(fh, in, B, MPI_INT, &r);
            MPI_Wait(&r, &st);
            break;
        case 7:
            rc = MPI_File_iwrite_all_c(fh, out, B, MPI_INT, &r);
            MPI_Wait(&r, &st);
            MPI_File_seek(fh, AT(s), MPI_SEEK_SET);
            rr = MPI_File_iread_all_c(fh, in, B, MPI_INT, &r);
            MPI_Wait(&r, &st);
            break;
        case 8:
            rc = MPI_File_write_at_all_begin_c(fh, AT(s), out, B, MPI_INT);
            MPI_File_write_at_all_end(fh, out, &st);
            rr = MPI_File_read_at_all_begin_c(fh, AT(s), in, B, MPI_INT);
            MPI_File_read_at_all_end(fh, in, &st);
            break;
        case 9:
            MPI_File_seek(fh, AT(s), MPI_SEEK_SET);
            rc = MPI_File_write_all_begin_c(fh, out, B, MPI_INT);
            MPI_File_write_all_end(fh, out, &st);
            MPI_File_seek(fh, AT(s), MPI_SEEK_SET);
            rr = MPI_File_read_all_begin_c(fh, in, B, MPI_INT);
            MPI_File_read_all_end(fh, in, &st);
            break;
        case 10:
            /* the shared pointer, in rank order: rank me's block at (s * np + me) */
            MPI_File_seek_shared(fh, (MPI_Offset)s * np * blk, MPI_SEEK_SET);
            rc = MPI_File_write_ordered_c(fh, out, B, MPI_INT, &st);
            MPI_File_seek_shared(fh, (MPI_Offset)s * np * blk, MPI_SEEK_SET);
            rr = MPI_File_read_ordered_c(fh, in, B, MPI_INT, &st);
            break;
        }
        MPI_Get_count_c(&st, MPI_INT, &c);
        mt_ok(rc == MPI_SUCCESS && rr == MPI_SUCCESS && same(in, out) && c == B,
              "MPI_File_%s and its read twin: %d ints back (count %lld)", names[s], B, (long long)c);
    }
    /* the ordered split forms and the shared pointer's own, one more step
     * each, read back by read_at */
    int extra[3][B];
    for (int k = 0; k < 3; k++) {
        int s = STEPS + k;
        fill(out, s);
        MPI_File_seek_shared(fh, (MPI_Offset)s * np * blk, MPI_SEEK_SET);
        if (k == 0) {
            MPI_File_write_ordered_begin_c(fh, out, B, MPI_INT);
            MPI_File_write_ordered_end(fh, out, &st);
        } else if (k == 1) {
            /* one rank at a time on the shared pointer: in rank order */
            for (int q = 0; q < np; q++) {
                if (q == me)
                    MPI_File_write_shared_c(fh, out, B, MPI_INT, &st);
                MPI_Barrier(MPI_COMM_WORLD);
            }
        } else {
            for (int q = 0; q < np; q++) {
                if (q == me) {
                    MPI_File_iwrite_shared_c(fh, out, B, MPI_INT, &r);
                    MPI_Wait(&r, &st);
                }
                MPI_Barrier(MPI_COMM_WORLD);
            }
        }
        MPI_File_sync(fh);
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_File_read_at_c(fh, AT(s), extra[k], B, MPI_INT, &st);
        mt_ok(same(extra[k], out), "MPI_File_%s: the block at its place",
              k == 0 ? "write_ordered_begin_c" : k == 1 ? "write_shared_c" : "iwrite_shared_c");
    }
    /* the shared pointer's reads: back from the first of these steps */
    MPI_File_seek_shared(fh, (MPI_Offset)STEPS * np * blk, MPI_SEEK_SET);
    MPI_File_read_ordered_begin_c(fh, in, B, MPI_INT);
    MPI_File_read_ordered_end(fh, in, &st);
    fill(out, STEPS);
    mt_ok(same(in, out), "MPI_File_read_ordered_begin_c");
    for (int k = 1; k < 3; k++) {
        MPI_File_seek_shared(fh, (MPI_Offset)(STEPS + k) * np * blk, MPI_SEEK_SET);
        fill(out, STEPS + k);
        for (int q = 0; q < np; q++) {
            if (q == me) {
                if (k == 1) {
                    MPI_File_read_shared_c(fh, in, B, MPI_INT, &st);
                } else {
                    MPI_File_iread_shared_c(fh, in, B, MPI_INT, &r);
                    MPI_Wait(&r, &st);
                }
            }
            MPI_Barrier(MPI_COMM_WORLD);
        }
        mt_ok(same(in, out), "MPI_File_%s", k == 1 ? "read_shared_c" : "iread_shared_c");
    }

    /* the whole file by POSIX, on rank 0 */
    MPI_File_sync(fh);
    MPI_Barrier(MPI_COMM_WORLD);
    if (me == 0) {
        int total = (STEPS + 3) * np * B;
        int *img = malloc(sizeof(int) * (size_t)total);
        for (int s = 0; s < STEPS + 3; s++)
            for (int q = 0; q < np; q++)
                for (int i = 0; i < B; i++)
                    img[(s * np + q) * B + i] = 100000 * s + 1000 * q + i;
        mt_ok(io_file_is(path, (const unsigned char *)img, (long)sizeof(int) * total),
              "the file, read by POSIX, is every rank's blocks in place (%d bytes)", (int)sizeof(int) * total);
        free(img);
    }

    /* MPI_File_get_type_extent_c, the errors */
    mt_is_int(MPI_File_get_type_extent_c(fh, MPI_DOUBLE, &c), MPI_SUCCESS, "MPI_File_get_type_extent_c");
    mt_is_int(c, 8, "... of MPI_DOUBLE: 8");
    int cls = -1, rc = MPI_File_write_at_c(fh, 0, out, -1, MPI_INT, &st);
    MPI_Error_class(rc, &cls);
    mt_is_int(cls, MPI_ERR_COUNT, "MPI_File_write_at_c of count -1: MPI_ERR_COUNT");
    rc = MPI_File_read_c(fh, in, INT64_MAX / 2, MPI_INT, &st);
    MPI_Error_class(rc, &cls);
    mt_is_int(cls, MPI_ERR_COUNT, "MPI_File_read_c of 2^62 ints: MPI_ERR_COUNT");
    rc = MPI_File_iread_shared_c(fh, in, -3, MPI_INT, &r);
    MPI_Error_class(rc, &cls);
    mt_is_int(cls, MPI_ERR_COUNT, "MPI_File_iread_shared_c of count -3: MPI_ERR_COUNT");
    mt_is_int(MPI_File_close(&fh), MPI_SUCCESS, "MPI_File_close (and delete)");
    printf("done [rank %d] %d checks, %d failed\n", me, mt_checks, mt_failed);
    MPI_Finalize();
    return mt_failed != 0;
}
