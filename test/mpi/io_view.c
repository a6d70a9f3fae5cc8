/* MPI test: file views and independent access through them (runtime/io/
 * PLAN.md stage 2) on 1-4 ranks. Each rank writes through a view with
 * holes that interleaves with the other ranks' views: explicit offsets
 * and the individual pointer; etypes of int and of a struct with a hole;
 * a resized filetype; a displacement. Then every rank checks the whole
 * file, read by POSIX pread, against an image this program computes from
 * its own formula of every rank's view, reads its data back through its
 * view, and checks get_byte_offset, get_position, get_view. Each scenario
 * runs with data sieving forced on (small buffers: many read-modify-write
 * windows, racing the other ranks' windows over the same bytes), forced
 * off, and automatic. set_view's refusals are agreed by all ranks.
 * argv[1]: a directory for the files (made by io_view.sh); argv[2]
 * "threaded": all of it under MPI_THREAD_MULTIPLE. */
#include <fcntl.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "iotest.h"

static int rank, size;
static char dir[900];

static int ival(int q, long k) { return q * 1000003 + (int)k * 7 + 1; }

static MPI_Info hints(int mode)
{
    MPI_Info info;
    MPI_Info_create(&info);
    if (mode == 1) { /* sieving on, small buffers */
        MPI_Info_set(info, "romio_ds_read", "enable");
        MPI_Info_set(info, "romio_ds_write", "enable");
        MPI_Info_set(info, "ind_rd_buffer_size", "200");
        MPI_Info_set(info, "ind_wr_buffer_size", "200");
    } else if (mode == -1) {
        MPI_Info_set(info, "romio_ds_read", "disable");
        MPI_Info_set(info, "romio_ds_write", "disable");
    }
    return info;
}

static const char *mname(int mode) { return mode == 1 ? "sieving on" : mode == -1 ? "sieving off" : "automatic"; }

static int count_of(MPI_Status *st, MPI_Datatype t)
{
    int c = -7;
    MPI_Get_count(st, t, &c);
    return c;
}

/* A: etype int, rank q owns B ints of every p * B (a block resized to the
 * whole stripe), disp 64. N ints per rank: the first N1 at explicit offset
 * 0, the rest with the individual pointer after a seek. */
enum { A_B = 3, A_N = 600, A_N1 = 250, A_DISP = 64 };

static long a_off(int q, long k) /* file offset of rank q's int k */
{
    return A_DISP + (k / A_B) * (long)size * A_B * 4 + (long)q * A_B * 4 + (k % A_B) * 4;
}

static void scen_a(int mode)
{
    char p[1024];
    snprintf(p, sizeof p, "%s/a%d.dat", dir, mode + 1);
    MPI_Info info = hints(mode);
    MPI_File fh;
    int rc = MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_CREATE | MPI_MODE_RDWR, info, &fh);
    MPI_Info_free(&info);
    mt_is_int(rc, MPI_SUCCESS, "A (%s): open", mname(mode));
    if (rc)
        return;
    /* a background the holes must keep: rank 0 writes it before the views */
    long total = a_off(size - 1, A_N - 1) + 4 + 40;
    unsigned char *img = malloc((size_t)total);
    for (long i = 0; i < total; i++)
        img[i] = (unsigned char)(i * 5 + 11);
    if (rank == 0)
        MPI_File_write_at(fh, 0, img, (int)total, MPI_BYTE, MPI_STATUS_IGNORE);
    MPI_Barrier(MPI_COMM_WORLD);

    MPI_Datatype blk, ft;
    MPI_Type_create_hindexed(1, (int[]){A_B}, (MPI_Aint[]){(MPI_Aint)rank * A_B * 4}, MPI_INT, &blk);
    MPI_Type_create_resized(blk, 0, (MPI_Aint)size * A_B * 4, &ft);
    MPI_Type_commit(&ft);
    rc = MPI_File_set_view(fh, A_DISP, MPI_INT, ft, "native", MPI_INFO_NULL);
    mt_is_int(rc, MPI_SUCCESS, "A (%s): set_view int, %d of every %d ints, disp %d", mname(mode), A_B,
              size * A_B, A_DISP);
    int *mine = malloc(A_N * sizeof(int));
    for (long k = 0; k < A_N; k++)
        mine[k] = ival(rank, k);
    MPI_Status st;
    rc = MPI_File_write_at(fh, 0, mine, A_N1, MPI_INT, &st);
    mt_ok(rc == MPI_SUCCESS && count_of(&st, MPI_INT) == A_N1, "A (%s): write_at 0, %d ints", mname(mode), A_N1);
    MPI_Offset pos = -1, bo = -1;
    MPI_File_seek(fh, A_N1, MPI_SEEK_SET);
    rc = MPI_File_write(fh, mine + A_N1, A_N - A_N1, MPI_INT, &st);
    MPI_File_get_position(fh, &pos);
    mt_ok(rc == MPI_SUCCESS && count_of(&st, MPI_INT) == A_N - A_N1 && pos == A_N,
          "A (%s): seek %d, write %d ints with the individual pointer: position %lld", mname(mode), A_N1,
          A_N - A_N1, (long long)pos);
    rc = MPI_File_get_byte_offset(fh, 7, &bo);
    mt_ok(rc == MPI_SUCCESS && bo == a_off(rank, 7), "A: get_byte_offset(7) = %lld (expected %ld)", (long long)bo,
          a_off(rank, 7));
    MPI_File_sync(fh);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_File_sync(fh);
    for (int q = 0; q < size; q++)
        for (long k = 0; k < A_N; k++) {
            int v = ival(q, k);
            memcpy(img + a_off(q, k), &v, 4);
        }
    mt_ok(io_file_is(p, img, total), "A (%s): the file's %ld bytes are the image of all %d ranks' views", mname(mode),
          total, size);

    /* read back: explicit offset, then the pointer */
    int *back = malloc(A_N * sizeof(int));
    memset(back, 0, A_N * sizeof(int));
    rc = MPI_File_read_at(fh, 0, back, 100, MPI_INT, &st);
    MPI_File_seek(fh, 100, MPI_SEEK_SET);
    int rc2 = MPI_File_read(fh, back + 100, A_N - 100, MPI_INT, &st);
    mt_ok(rc == MPI_SUCCESS && rc2 == MPI_SUCCESS && memcmp(back, mine, A_N * sizeof(int)) == 0,
          "A (%s): read back through the view equal", mname(mode));
    /* past the end of the file: the last rank's view reaches furthest */
    rc = MPI_File_read_at(fh, A_N - 2, back, 10, MPI_INT, &st);
    int want = 0; /* this rank's ints from A_N - 2 that end before the end of the file */
    for (long k = A_N - 2; k < A_N + 8 && a_off(rank, k) + 4 <= total; k++)
        want++;
    mt_ok(rc == MPI_SUCCESS && count_of(&st, MPI_INT) == want, "A: a read past the end of the file gets %d ints",
          want);

    /* get_view gives the view back */
    MPI_Offset d;
    MPI_Datatype e, f;
    char rep[MPI_MAX_DATAREP_STRING];
    MPI_File_get_view(fh, &d, &e, &f, rep);
    int fsz = 0;
    MPI_Aint flb, fext;
    MPI_Type_size(f, &fsz);
    MPI_Type_get_extent(f, &flb, &fext);
    mt_ok(d == A_DISP && e == MPI_INT && fsz == A_B * 4 && fext == (MPI_Aint)size * A_B * 4 && !strcmp(rep, "native"),
          "A: get_view: disp, etype, filetype, datarep");
    if (f != MPI_INT)
        MPI_Type_free(&f);
    /* set_view resets the pointer */
    MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL);
    MPI_File_get_position(fh, &pos);
    mt_is_int(pos, 0, "A: set_view puts the individual pointer at 0");
    MPI_File_close(&fh);
    MPI_Type_free(&blk);
    MPI_Type_free(&ft);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        unlink(p);
    free(img);
    free(mine);
    free(back);
}

/* B: etype struct {int; double} (12 bytes of data, extent 16: a hole of 4
 * bytes in each), filetype: 2 etypes at rank q's place of every 2p
 * (resized), disp 8; memory: an array of the struct. */
struct sd {
    int i;
    double d;
};
enum { B_N = 90, B_DISP = 8 };

static long b_off(int q, long e) /* file offset of rank q's etype e */
{
    return B_DISP + (e / 2) * (long)size * 32 + (long)q * 32 + (e % 2) * 16;
}

static void scen_b(int mode)
{
    char p[1024];
    snprintf(p, sizeof p, "%s/b%d.dat", dir, mode + 1);
    MPI_Info info = hints(mode);
    MPI_File fh;
    int rc = MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_CREATE | MPI_MODE_RDWR, info, &fh);
    MPI_Info_free(&info);
    mt_is_int(rc, MPI_SUCCESS, "B (%s): open", mname(mode));
    if (rc)
        return;
    long total = b_off(size - 1, B_N - 1) + 16;
    unsigned char *img = malloc((size_t)total);
    for (long i = 0; i < total; i++)
        img[i] = (unsigned char)(i * 3 + 1);
    if (rank == 0)
        MPI_File_write_at(fh, 0, img, (int)total, MPI_BYTE, MPI_STATUS_IGNORE);
    MPI_Barrier(MPI_COMM_WORLD);

    MPI_Datatype et, two, ft;
    MPI_Type_create_struct(2, (int[]){1, 1}, (MPI_Aint[]){0, 8}, (MPI_Datatype[]){MPI_INT, MPI_DOUBLE}, &et);
    MPI_Type_commit(&et);
    MPI_Type_create_hindexed(1, (int[]){2}, (MPI_Aint[]){(MPI_Aint)rank * 32}, et, &two);
    MPI_Type_create_resized(two, 0, (MPI_Aint)size * 32, &ft);
    MPI_Type_commit(&ft);
    rc = MPI_File_set_view(fh, B_DISP, et, ft, "native", MPI_INFO_NULL);
    mt_is_int(rc, MPI_SUCCESS, "B (%s): set_view, etype struct {int, double} with a hole", mname(mode));
    struct sd *m = malloc(B_N * sizeof *m), *back = malloc(B_N * sizeof *back);
    memset(m, 0, B_N * sizeof *m);
    for (long e = 0; e < B_N; e++) {
        m[e].i = ival(rank, e);
        m[e].d = rank + e * 0.5;
    }
    MPI_Status st;
    rc = MPI_File_write_at(fh, 10, m + 10, B_N - 10, et, &st);
    int rc2 = MPI_File_write(fh, m, 10, et, MPI_STATUS_IGNORE);
    mt_ok(rc == MPI_SUCCESS && rc2 == MPI_SUCCESS && count_of(&st, et) == B_N - 10,
          "B (%s): write_at 10 of %d struct etypes, then the first 10 with the pointer", mname(mode), B_N - 10);
    MPI_File_sync(fh);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_File_sync(fh);
    for (int q = 0; q < size; q++)
        for (long e = 0; e < B_N; e++) {
            int iv = ival(q, e);
            double dv = q + e * 0.5;
            memcpy(img + b_off(q, e), &iv, 4); /* bytes 4..8 of each etype: the hole */
            memcpy(img + b_off(q, e) + 8, &dv, 8);
        }
    mt_ok(io_file_is(p, img, total), "B (%s): file bytes exact, the etypes' holes untouched", mname(mode));
    memset(back, 0, B_N * sizeof *back);
    rc = MPI_File_read_at(fh, 0, back, B_N, et, &st);
    int same = rc == MPI_SUCCESS && count_of(&st, et) == B_N;
    for (long e = 0; same && e < B_N; e++)
        same = back[e].i == m[e].i && back[e].d == m[e].d;
    mt_ok(same, "B (%s): read back equal", mname(mode));
    MPI_File_close(&fh);
    MPI_Type_free(&et);
    MPI_Type_free(&two);
    MPI_Type_free(&ft);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        unlink(p);
    free(img);
    free(m);
    free(back);
}

/* C: a resized vector: rank q's ints at q and p + q of every 2p (two ints
 * per instance, p ints apart), disp 0, memory a vector with gaps
 * (every other int) */
enum { C_N = 200 };

static long c_off(int q, long k)
{
    return (k / 2) * 2L * size * 4 + (k % 2) * (long)size * 4 + (long)q * 4;
}

static void scen_c(int mode)
{
    char p[1024];
    snprintf(p, sizeof p, "%s/c%d.dat", dir, mode + 1);
    MPI_Info info = hints(mode);
    MPI_File fh;
    int rc = MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_CREATE | MPI_MODE_RDWR, info, &fh);
    MPI_Info_free(&info);
    if (rc) {
        mt_is_int(rc, MPI_SUCCESS, "C (%s): open", mname(mode));
        return;
    }
    MPI_Datatype v, ft, mem;
    MPI_Type_vector(2, 1, size, MPI_INT, &v);
    MPI_Type_create_resized(v, 0, 2L * size * 4, &ft);
    MPI_Type_commit(&ft);
    MPI_Type_vector(C_N, 1, 2, MPI_INT, &mem);
    MPI_Type_commit(&mem);
    rc = MPI_File_set_view(fh, (MPI_Offset)rank * 4, MPI_INT, ft, "native", MPI_INFO_NULL);
    int *m = malloc(2 * C_N * sizeof(int)), *back = malloc(2 * C_N * sizeof(int));
    for (long k = 0; k < 2 * C_N; k++)
        m[k] = k % 2 ? -1 : ival(rank, k / 2);
    MPI_Status st;
    int rc2 = MPI_File_write_at(fh, 0, m, 1, mem, &st);
    mt_ok(rc == MPI_SUCCESS && rc2 == MPI_SUCCESS && count_of(&st, MPI_INT) == C_N,
          "C (%s): resized vector filetype, disp 4 * rank, memory with gaps: write_at %d ints", mname(mode), C_N);
    MPI_File_sync(fh);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_File_sync(fh);
    long total = c_off(size - 1, C_N - 1) + 4;
    unsigned char *img = calloc(1, (size_t)total);
    for (int q = 0; q < size; q++)
        for (long k = 0; k < C_N; k++) {
            int x = ival(q, k);
            memcpy(img + c_off(q, k), &x, 4);
        }
    mt_ok(io_file_is(p, img, total), "C (%s): file bytes exact (%ld bytes, no hole left)", mname(mode), total);
    for (long k = 0; k < 2 * C_N; k++)
        back[k] = -1;
    rc = MPI_File_read_at(fh, 0, back, 1, mem, &st);
    mt_ok(rc == MPI_SUCCESS && memcmp(back, m, 2 * C_N * sizeof(int)) == 0,
          "C (%s): read back into memory with gaps equal, gaps untouched", mname(mode));
    MPI_File_close(&fh);
    MPI_Type_free(&v);
    MPI_Type_free(&ft);
    MPI_Type_free(&mem);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        unlink(p);
    free(img);
    free(m);
    free(back);
}

/* set_view's refusals, agreed: a rank's error is every rank's */
static void refusals(void)
{
    char p[1024];
    snprintf(p, sizeof p, "%s/r.dat", dir);
    MPI_File fh;
    int rc = MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                           MPI_INFO_NULL, &fh);
    if (rc) {
        mt_is_int(rc, MPI_SUCCESS, "refusals: open");
        return;
    }
    MPI_Datatype three, down;
    MPI_Type_contiguous(3, MPI_INT, &three);
    MPI_Type_commit(&three);
    MPI_Type_create_hindexed(2, (int[]){1, 1}, (MPI_Aint[]){8, 0}, MPI_INT, &down);
    MPI_Type_commit(&down);
    rc = MPI_File_set_view(fh, 0, MPI_DOUBLE, three, "native", MPI_INFO_NULL);
    mt_is_int(rc, MPI_ERR_ARG, "set_view: a filetype of 12 bytes with an etype of 8: MPI_ERR_ARG");
    rc = MPI_File_set_view(fh, 0, MPI_INT, down, "native", MPI_INFO_NULL);
    mt_is_int(rc, MPI_ERR_ARG, "set_view: displacements going down: MPI_ERR_ARG");
    rc = MPI_File_set_view(fh, MPI_DISPLACEMENT_CURRENT, MPI_INT, MPI_INT, "native", MPI_INFO_NULL);
    mt_is_int(rc, MPI_ERR_ARG, "set_view: MPI_DISPLACEMENT_CURRENT on a file not SEQUENTIAL: MPI_ERR_ARG");
    rc = MPI_File_set_view(fh, -4, MPI_INT, MPI_INT, "native", MPI_INFO_NULL);
    mt_is_int(rc, MPI_ERR_ARG, "set_view: disp -4: MPI_ERR_ARG");
    rc = MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "no-such-rep", MPI_INFO_NULL);
    mt_is_int(rc, MPI_ERR_UNSUPPORTED_DATAREP, "set_view: an unknown datarep: MPI_ERR_UNSUPPORTED_DATAREP");
    /* only the last rank's filetype is bad: every rank fails alike */
    rc = MPI_File_set_view(fh, 0, MPI_INT, rank == size - 1 ? down : MPI_INT, "native", MPI_INFO_NULL);
    mt_is_int(rc, MPI_ERR_ARG, "set_view: only rank %d's filetype goes down: MPI_ERR_ARG on every rank", size - 1);
    MPI_Offset d = -1;
    MPI_Datatype e, f;
    char rep[MPI_MAX_DATAREP_STRING];
    MPI_File_get_view(fh, &d, &e, &f, rep);
    mt_ok(d == 0 && e == MPI_BYTE && f == MPI_BYTE, "the view after the refusals: still the default");
    MPI_File_close(&fh);
    MPI_Type_free(&three);
    MPI_Type_free(&down);
}

/* MPI_DISPLACEMENT_CURRENT on a sequential file: the shared pointer's byte
 * offset becomes the displacement, and the pointers start at 0 again */
static void disp_current(void)
{
    char p[1024];
    snprintf(p, sizeof p, "%s/seq.dat", dir);
    MPI_File fh;
    int rc = MPI_File_open(MPI_COMM_WORLD, p,
                           MPI_MODE_CREATE | MPI_MODE_WRONLY | MPI_MODE_SEQUENTIAL | MPI_MODE_DELETE_ON_CLOSE,
                           MPI_INFO_NULL, &fh);
    if (rc) {
        mt_is_int(rc, MPI_SUCCESS, "sequential: open");
        return;
    }
    char b[10] = "abcdefghi";
    MPI_File_write_ordered(fh, b, 3 + rank, MPI_CHAR, MPI_STATUS_IGNORE);
    long before = 0;
    for (int q = 0; q < size; q++)
        before += 3 + q;
    rc = MPI_File_set_view(fh, MPI_DISPLACEMENT_CURRENT, MPI_INT, MPI_INT, "native", MPI_INFO_NULL);
    MPI_Offset d = -1, sp = -1;
    MPI_Datatype e, f;
    char rep[MPI_MAX_DATAREP_STRING];
    MPI_File_get_view(fh, &d, &e, &f, rep);
    MPI_File_get_position_shared(fh, &sp);
    mt_ok(rc == MPI_SUCCESS && d == before && e == MPI_INT && sp == 0,
          "sequential file: set_view(MPI_DISPLACEMENT_CURRENT) after %ld bytes by write_ordered: disp %lld, shared "
          "pointer 0",
          before, (long long)d);
    MPI_File_close(&fh);
}

/* D: a contiguous writer beside another rank's read-modify-write. Rank 0
 * writes one int of every `size` through a view with data sieving forced
 * on and 200-byte windows: each window is read, merged and written back,
 * holes included. Every other rank q writes its ints into those holes one
 * at a time through the default (contiguous) view. A contiguous write that
 * lands between a window's read and its write-back would be undone by it:
 * the contiguous path holds a shared lock on its bytes (indep.c), the
 * window an exclusive one. Each rank alternates with the others, so the
 * windows and the small writes interleave for real. */
enum { D_N = 1500 };

/* amode: MPI_MODE_RDWR, or MPI_MODE_WRONLY (the library still sieves: it
 * opens the file for reading too, runtime/io/file.c) */
static void scen_d(int amode)
{
    if (size < 2)
        return;
    char p[1024];
    snprintf(p, sizeof p, "%s/d.dat", dir);
    MPI_Info info = hints(1);
    MPI_File fh;
    const char *am = amode == MPI_MODE_WRONLY ? "WRONLY" : "RDWR";
    int rc = MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_CREATE | amode | MPI_MODE_DELETE_ON_CLOSE, info, &fh);
    MPI_Info_free(&info);
    mt_is_int(rc, MPI_SUCCESS, "D: open %s", am);
    if (rc)
        return;
    long total = (long)D_N * size * 4;
    unsigned char *img = malloc((size_t)total);
    memset(img, 0xee, (size_t)total);
    if (rank == 0)
        MPI_File_write_at(fh, 0, img, (int)total, MPI_BYTE, MPI_STATUS_IGNORE);
    MPI_Barrier(MPI_COMM_WORLD);
    int *mine = malloc(D_N * sizeof(int));
    for (long k = 0; k < D_N; k++)
        mine[k] = ival(rank, k);
    int bad = 0;
    if (rank == 0) {
        MPI_Datatype ft;
        MPI_Type_create_resized(MPI_INT, 0, (MPI_Aint)size * 4, &ft);
        MPI_Type_commit(&ft);
        rc = MPI_File_set_view(fh, 0, MPI_INT, ft, "native", MPI_INFO_NULL);
        MPI_Type_free(&ft);
        for (long k = 0; k < D_N && rc == MPI_SUCCESS; k += 50)
            rc = MPI_File_write_at(fh, k, mine + k, D_N - k < 50 ? (int)(D_N - k) : 50, MPI_INT,
                                   MPI_STATUS_IGNORE);
    } else {
        /* set_view is collective (the same etype everywhere): the others'
         * view is contiguous ints */
        rc = MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL);
        for (long k = 0; k < D_N && rc == MPI_SUCCESS; k++)
            rc = MPI_File_write_at(fh, k * size + rank, mine + k, 1, MPI_INT, MPI_STATUS_IGNORE);
    }
    bad = rc != MPI_SUCCESS;
    mt_is_int(rc, MPI_SUCCESS, "D: %s: rank %d's writes (%s)", am, rank, rank ? "contiguous, one int each" :
              "strided, read-modify-write windows of 200 bytes");
    MPI_File_sync(fh);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_File_sync(fh);
    for (int q = 0; q < size; q++)
        for (long k = 0; k < D_N; k++) {
            int v = ival(q, k);
            memcpy(img + (k * size + q) * 4, &v, 4);
        }
    mt_ok(!bad && io_file_is(p, img, total),
          "D: %s: no int of the contiguous writers is lost to rank 0's read-modify-write windows (%d ranks)", am,
          size);
    free(mine);
    free(img);
    MPI_File_close(&fh);
}

int main(int argc, char **argv)
{
    /* argv[2] "threaded": the same under MPI_THREAD_MULTIPLE, where every
     * call takes the big lock (set_view once hung there: its reset of the
     * shared pointer ran without it) */
    int threaded = argc > 2 && !strcmp(argv[2], "threaded"), provided = MPI_THREAD_SINGLE;
    if (threaded)
        MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    else
        MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    mt_rank = rank;
    if (threaded)
        mt_is_int(provided, MPI_THREAD_MULTIPLE, "MPI_THREAD_MULTIPLE provided");
    snprintf(dir, sizeof dir, "%s", argc > 1 ? argv[1] : ".");
    MPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_RETURN);
    for (int mode = -1; mode <= 1; mode++) {
        scen_a(mode);
        scen_b(mode);
        scen_c(mode);
    }
    scen_d(MPI_MODE_RDWR);
    scen_d(MPI_MODE_WRONLY);
    refusals();
    disp_current();
    printf("done [rank %d] %d checks, %d failed\n", rank, mt_checks, mt_failed);
    MPI_Finalize();
    return 0;
}
