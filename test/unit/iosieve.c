/* Unit test of the strided independent path (runtime/io/sieve.c, lock.c,
 * view.c, linked directly; runtime/io/PLAN.md 4.2, 4.4) on a real file in
 * a directory of its own under the build's test directory:
 *   - for views with holes (vector, 2-D subarray, struct with holes,
 *     interleaved blocks, copies that interleave, a contiguous view in
 *     atomic mode) and two memory layouts (contiguous bytes, a vector of
 *     ints with gaps), under data sieving automatic / enabled / disabled
 *     for reads and writes and with small sieving buffers (many windows):
 *     the file's bytes after a write are compared with an image the test
 *     makes from its own byte map of the view (holes keep the background
 *     the test wrote first), read back through POSIX pread; a read through
 *     the view gives the memory back, its gaps untouched;
 *   - a read that runs past the end of the file counts the stream bytes
 *     before it;
 *   - a write-only descriptor (no read-modify-write possible) still
 *     writes;
 *   - data representations through a vector view: external32 (ints and
 *     doubles big-endian byte by byte, from contiguous memory and from
 *     memory with gaps), a registered one whose functions swap 4-byte ints
 *     (count and position in data items, chunk after chunk), one with
 *     MPI_CONVERSION_FN_NULL (native bytes), a failing conversion
 *     (MPI_ERR_CONVERSION), names taken (MPI_ERR_DUP_DATAREP);
 *   - rd_io_lock: a lock held by another process (a forked child, its own
 *     descriptor) conflicts; released, it can be taken. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runtime/io/io_int.h"
#include "runtime/objects/datatype.h"
#include "test/tap.h"
#include "test/unit/dtmake.h"

#define MAXB 4096

struct map {
    size_t n;
    long b[MAXB];
};

static void bytes(struct map *m, long start, long len)
{
    for (long i = 0; i < len; i++)
        m->b[m->n++] = start + i;
}

static char dir[256], path[300];
static unsigned char bg(long i) { return (unsigned char)(0xA0 ^ (i * 7)); }
static unsigned char val(long i, int round) { return (unsigned char)(i * 13 + 1 + round * 29); }

#define FSIZE 20000

static int fresh_file(int flags)
{
    int fd = open(path, O_CREAT | O_TRUNC | O_RDWR, 0644);
    static unsigned char img[FSIZE];
    for (long i = 0; i < FSIZE; i++)
        img[i] = bg(i);
    if (fd < 0 || pwrite(fd, img, FSIZE, 0) != FSIZE) {
        tap_diag("cannot make %s: %s", path, strerror(errno));
        exit(1);
    }
    if (flags != O_RDWR) {
        close(fd);
        fd = open(path, flags);
    }
    return fd;
}

/* memory: contiguous bytes, or ints with gaps (vector(n, 1, 2) of int:
 * packed byte p at 8 * (p / 4) + p % 4) */
static size_t mem_at(int gaps, size_t p)
{
    return gaps ? 8 * (p / 4) + p % 4 : p;
}

struct vcase {
    const char *name;
    long long disp;
    MPI_Datatype et, ft;
    struct map m;
    long ext;
    int atomic;
};

static long long ref_off(const struct vcase *c, long long o)
{
    return c->disp + (o / (long long)c->m.n) * c->ext + c->m.b[o % (long long)c->m.n];
}

static const char *dsname(int ds) { return ds == 1 ? "enable" : ds == -1 ? "disable" : "automatic"; }

/* write total stream bytes at stream offset o, check the file; read them
 * back, check memory */
static void one(struct vcase *c, int gaps, int ds, size_t bufsz, long long o, size_t total, int round, int empty)
{
    int fd = fresh_file(O_RDWR);
    if (empty && ftruncate(fd, 0) != 0)
        exit(1);
    struct rd_io_file f;
    memset(&f, 0, sizeof f);
    f.fd = fd;
    f.readable = (fcntl(fd, F_GETFL) & O_ACCMODE) != O_WRONLY; /* file.c's rule */
    f.atomic = c->atomic;
    f.hints.ds_read = f.hints.ds_write = ds;
    f.hints.ind_rd_buffer_size = f.hints.ind_wr_buffer_size = bufsz;
    rd_io_view_init(&f.view);
    rd_io_why why = {""};
    int rc = rd_io_view_set(&f.view, c->disp, c->et, c->ft, "native", 1, 0, 0, &why);
    if (rc) {
        tap_ok(0, "%s: set_view: %s", c->name, why.msg);
        close(fd);
        return;
    }
    size_t nint = total / 4;
    MPI_Datatype mt = gaps ? vec(nint, 1, 8, MPI_INT) : MPI_BYTE;
    size_t count = gaps ? 1 : total, msize = gaps ? 8 * nint : total;
    unsigned char *mem = malloc(msize), *back = malloc(msize);
    for (size_t i = 0; i < msize; i++)
        mem[i] = 0x55;
    for (size_t p = 0; p < total; p++)
        mem[mem_at(gaps, p)] = val((long)p, round);

    size_t moved = 0;
    rc = rd_io_strided(&f, 1, o, mem, count, mt, &moved, &why);
    static unsigned char img[FSIZE], file[FSIZE];
    for (long i = 0; i < FSIZE; i++)
        img[i] = empty ? 0 : bg(i);
    long long fend = empty ? 0 : FSIZE;
    for (size_t p = 0; p < total; p++) {
        long long off = ref_off(c, o + (long long)p);
        if (off < FSIZE)
            img[off] = val((long)p, round);
        if (off + 1 > fend)
            fend = off + 1;
    }
    struct stat sb;
    fstat(fd, &sb);
    ssize_t got = pread(fd, file, FSIZE, 0);
    size_t bad = 0;
    for (long i = 0; i < fend; i++)
        if (file[i] != img[i] && !bad++)
            tap_diag("byte %ld: %02x, expected %02x", i, file[i], img[i]);
    tap_ok(rc == 0 && moved == total && got == fend && bad == 0 && sb.st_size == fend,
           "%s, memory %s, sieving %s, buffer %zu: write %zu bytes at stream %lld%s: file image exact (size %lld)",
           c->name, gaps ? "ints with gaps" : "contiguous", dsname(ds), bufsz, total, o,
           empty ? " of an empty file" : "", fend);
    if (rc)
        tap_diag("class %d: %s", rc, why.msg);

    for (size_t i = 0; i < msize; i++)
        back[i] = 0x55;
    moved = 0;
    rc = rd_io_strided(&f, 0, o, back, count, mt, &moved, &why);
    tap_ok(rc == 0 && moved == total && memcmp(mem, back, msize) == 0,
           "%s, memory %s, sieving %s: read back equal, gaps untouched", c->name, gaps ? "ints with gaps" : "contiguous",
           dsname(ds));

    rd_io_view_fini(&f.view);
    if (gaps)
        rd_dt_release(mt);
    free(mem);
    free(back);
    close(fd);
}

/* a read past the end of the file */
static void eof(struct vcase *c, int ds, long long cut, long long o, size_t total)
{
    int fd = fresh_file(O_RDWR);
    if (ftruncate(fd, cut) != 0)
        exit(1);
    struct rd_io_file f;
    memset(&f, 0, sizeof f);
    f.fd = fd;
    f.readable = (fcntl(fd, F_GETFL) & O_ACCMODE) != O_WRONLY; /* file.c's rule */
    f.hints.ds_read = ds;
    f.hints.ind_rd_buffer_size = 100;
    rd_io_view_init(&f.view);
    rd_io_why why = {""};
    rd_io_view_set(&f.view, c->disp, c->et, c->ft, "native", 1, 0, 0, &why);
    size_t want = 0;
    while (want < total && ref_off(c, o + (long long)want) < cut)
        want++;
    unsigned char *back = malloc(total);
    memset(back, 0x55, total);
    size_t moved = 99;
    int rc = rd_io_strided(&f, 0, o, back, total, MPI_BYTE, &moved, &why);
    size_t bad = 0;
    for (size_t p = 0; p < total; p++)
        if (back[p] != (p < want ? bg((long)ref_off(c, o + (long long)p)) : 0x55))
            bad++;
    tap_ok(rc == 0 && moved == want && bad == 0,
           "%s, sieving %s: a read of %zu bytes from stream %lld, file cut at %lld: %zu bytes came, the rest untouched",
           c->name, dsname(ds), total, o, cut, want);
    rd_io_view_fini(&f.view);
    free(back);
    close(fd);
}

/* ---- data representations */
static int conv_calls, conv_bad;
static long long conv_next; /* the position the next call should have */

static int swap_write(void *userbuf, MPI_Datatype dt, int count, void *filebuf, MPI_Offset position, void *extra)
{
    conv_calls++;
    if (dt != MPI_INT || position != conv_next || *(int *)extra != 42)
        conv_bad++;
    conv_next = position + count;
    const unsigned char *u = (const unsigned char *)userbuf + 4 * position;
    unsigned char *fb = filebuf;
    for (int i = 0; i < count; i++)
        for (int j = 0; j < 4; j++)
            fb[4 * i + j] = u[4 * i + 3 - j];
    return MPI_SUCCESS;
}

static int swap_read(void *userbuf, MPI_Datatype dt, int count, void *filebuf, MPI_Offset position, void *extra)
{
    conv_calls++;
    if (dt != MPI_INT || position != conv_next)
        conv_bad++;
    conv_next = position + count;
    unsigned char *u = (unsigned char *)userbuf + 4 * position;
    const unsigned char *fb = filebuf;
    for (int i = 0; i < count; i++)
        for (int j = 0; j < 4; j++)
            u[4 * i + 3 - j] = fb[4 * i + j];
    return MPI_SUCCESS;
}

static int fail_write(void *userbuf, MPI_Datatype dt, int count, void *filebuf, MPI_Offset position, void *extra)
{
    return MPI_ERR_OTHER;
}

static int extent4(MPI_Datatype dt, MPI_Aint *ext, void *extra)
{
    *ext = dt->size;
    return MPI_SUCCESS;
}

/* n elements of memory type mt (esz bytes each in the file) through the
 * vector view (12 bytes of every 32) with datarep rep; want(i) is file
 * byte i of element data */
static void rep_case(const char *what, const char *rep, MPI_Datatype ft, MPI_Datatype et, void *mem, MPI_Datatype mt,
                     size_t count, const unsigned char *want, size_t nwant, size_t bufsz, void *back, size_t mbytes,
                     const void *wantmem)
{
    int fd = fresh_file(O_RDWR);
    struct rd_io_file f;
    memset(&f, 0, sizeof f);
    f.fd = fd;
    f.readable = (fcntl(fd, F_GETFL) & O_ACCMODE) != O_WRONLY; /* file.c's rule */
    f.hints.ind_rd_buffer_size = f.hints.ind_wr_buffer_size = bufsz;
    rd_io_view_init(&f.view);
    rd_io_why why = {""};
    int rc = rd_io_view_set(&f.view, 0, et, ft, rep, 1, 0, 0, &why);
    size_t moved = 0;
    conv_next = 0;
    conv_bad = 0;
    if (rc == 0)
        rc = rd_io_strided(&f, 1, 0, mem, count, mt, &moved, &why);
    static unsigned char file[FSIZE];
    ssize_t got = pread(fd, file, FSIZE, 0);
    size_t bad = 0;
    for (size_t p = 0; p < nwant; p++) {
        long off = 32 * (long)(p / 12) + (long)(p % 12);
        if (file[off] != want[p] && !bad++)
            tap_diag("%s: stream byte %zu at %ld: %02x, expected %02x", what, p, off, file[off], want[p]);
    }
    for (long q = 0; q < FSIZE; q++) /* the holes */
        if (q % 32 >= 12 || q >= 32 * (long)(nwant / 12 + 1))
            if (file[q] != bg(q) && !bad++)
                tap_diag("%s: hole byte %ld changed", what, q);
    tap_ok(rc == 0 && moved == nwant && got == FSIZE && bad == 0 && conv_bad == 0,
           "%s: written through a vector view, file bytes exact", what);
    if (rc)
        tap_diag("class %d: %s", rc, why.msg);
    conv_next = 0;
    memset(back, 0x55, mbytes);
    rc = rd_io_strided(&f, 0, 0, back, count, mt, &moved, &why);
    tap_ok(rc == 0 && moved == nwant && memcmp(back, wantmem ? wantmem : mem, mbytes) == 0 && conv_bad == 0,
           "%s: read back equal%s", what, wantmem ? ", gaps untouched" : "");
    rd_io_view_fini(&f.view);
    close(fd);
}

static void datareps(MPI_Datatype v12)
{
    /* external32, ints, contiguous memory, small buffers (many chunks) */
    enum { NI = 150 };
    int iv[NI], ib[NI];
    unsigned char want[8 * NI];
    for (int i = 0; i < NI; i++) {
        iv[i] = (int)(0x01020304u + (unsigned)i * 0x01010101u - (i % 3 == 0 ? 0x7f000000u : 0));
        unsigned u = (unsigned)iv[i];
        for (int j = 0; j < 4; j++)
            want[4 * i + j] = (unsigned char)(u >> (24 - 8 * j));
    }
    rep_case("external32 ints, contiguous memory, 40-byte buffers", "external32", v12, MPI_INT, iv, MPI_INT, NI,
             want, 4 * NI, 40, ib, sizeof iv, NULL);

    /* external32, doubles from memory with gaps: vector(NI/3, 1, 2) of double */
    enum { ND = 48 };
    double dv[2 * ND], db[2 * ND];
    for (int i = 0; i < 2 * ND; i++)
        dv[i] = i % 2 ? -1.0 : 1.5 + i * 0.25;
    MPI_Datatype gaps = vec(ND, 1, 16, MPI_DOUBLE);
    unsigned char wantd[8 * ND];
    for (int i = 0; i < ND; i++) {
        unsigned long long u;
        memcpy(&u, &dv[2 * i], 8);
        for (int j = 0; j < 8; j++)
            wantd[8 * i + j] = (unsigned char)(u >> (56 - 8 * j));
    }
    double dw[2 * ND];
    memset(dw, 0x55, sizeof dw);
    for (int i = 0; i < ND; i++)
        dw[2 * i] = dv[2 * i];
    rep_case("external32 doubles, memory with gaps, default buffers", "external32", v12, MPI_BYTE, dv, gaps, 1,
             wantd, 8 * ND, 0, db, sizeof db, dw);
    rd_dt_release(gaps);

    /* a registered representation: ints byte-swapped by its functions */
    static int extra = 42;
    rd_io_why why = {""};
    tap_ok(rd_io_datarep_register("swap4", swap_read, swap_write, extent4, &extra, &why) == 0,
           "register \"swap4\"");
    conv_calls = 0;
    rep_case("registered \"swap4\", 40-byte buffers (chunks of 10 items)", "swap4", v12, MPI_INT, iv, MPI_INT, NI,
             want, 4 * NI, 40, ib, sizeof iv, NULL);
    tap_ok(conv_calls == 2 * 15, "\"swap4\": 15 write and 15 read calls of 10 items, positions 0, 10, ... (%d calls)",
           conv_calls);
    tap_is_int(rd_io_datarep_register("swap4", swap_read, swap_write, extent4, NULL, &why), MPI_ERR_DUP_DATAREP,
               "register \"swap4\" again: MPI_ERR_DUP_DATAREP");
    tap_is_int(rd_io_datarep_register("external32", NULL, NULL, extent4, NULL, &why), MPI_ERR_DUP_DATAREP,
               "register \"external32\": MPI_ERR_DUP_DATAREP");

    /* MPI_CONVERSION_FN_NULL: native bytes */
    tap_ok(rd_io_datarep_register("asis", NULL, NULL, extent4, NULL, &why) == 0, "register \"asis\"");
    unsigned char wantn[4 * NI];
    memcpy(wantn, iv, sizeof iv);
    rep_case("\"asis\" (MPI_CONVERSION_FN_NULL): native bytes", "asis", v12, MPI_INT, iv, MPI_INT, NI, wantn,
             4 * NI, 0, ib, sizeof iv, NULL);

    /* a failing conversion */
    tap_ok(rd_io_datarep_register("broken", swap_read, fail_write, extent4, NULL, &why) == 0,
           "register \"broken\"");
    {
        int fd = fresh_file(O_RDWR);
        struct rd_io_file f;
        memset(&f, 0, sizeof f);
        f.fd = fd;
        f.readable = (fcntl(fd, F_GETFL) & O_ACCMODE) != O_WRONLY; /* file.c's rule */
        rd_io_view_init(&f.view);
        rd_io_view_set(&f.view, 0, MPI_INT, v12, "broken", 1, 0, 0, &why);
        size_t moved = 9;
        int rc = rd_io_strided(&f, 1, 0, iv, NI, MPI_INT, &moved, &why);
        tap_ok(rc == MPI_ERR_CONVERSION && moved == 0 && strstr(why.msg, "\"broken\""),
               "a write conversion returning an error: MPI_ERR_CONVERSION (\"%s\")", why.msg);
        rd_io_view_fini(&f.view);
        close(fd);
    }
    MPI_Aint ext = 0;
    tap_ok(rd_io_datarep_extent(rd_io_datarep_find("swap4"), MPI_INT, &ext, &why) == 0 && ext == 4,
           "get_type_extent through \"swap4\"'s extent function: 4");
}

int main(void)
{
    snprintf(dir, sizeof dir, "test/unit/iosieve.XXXXXX");
    if (!mkdtemp(dir)) {
        snprintf(dir, sizeof dir, "/tmp/iosieve.XXXXXX");
        if (!mkdtemp(dir))
            return 1;
    }
    snprintf(path, sizeof path, "%s/file", dir);

    struct vcase cs[8];
    int nc = 0;
    MPI_Datatype keep[16];
    int nk = 0;

    /* vector(5, 3, 8) of int: 12 bytes of every 32 */
    struct vcase *c = &cs[nc++];
    memset(c, 0, sizeof *c);
    c->name = "vector(5, 3, 8 int), disp 6";
    c->disp = 6;
    c->et = MPI_INT;
    c->ft = keep[nk++] = vec(5, 3, 32, MPI_INT);
    for (int i = 0; i < 5; i++)
        bytes(&c->m, 32 * i, 12);
    c->ext = 4 * 32 + 12;

    /* subarray 2-D C: int a[6][10], a[1..4][3..7] (20 bytes of every 40) */
    c = &cs[nc++];
    memset(c, 0, sizeof *c);
    c->name = "subarray int[6][10] [1..4][3..7]";
    c->et = MPI_INT;
    MPI_Datatype rows = keep[nk++] = vec(4, 5, 40, MPI_INT);
    MPI_Datatype d = keep[nk++] = blocks(1, (size_t[]){1}, (MPI_Aint[]){(1 * 10 + 3) * 4},
                                         (MPI_Datatype[]){rows}, 1, 0);
    c->ft = keep[nk++] = resized(d, 0, 240);
    for (int y = 1; y <= 4; y++)
        bytes(&c->m, (y * 10 + 3) * 4, 20);
    c->ext = 240;

    /* struct with holes {int @0, double @8, char @24}, extent 32 */
    c = &cs[nc++];
    memset(c, 0, sizeof *c);
    c->name = "struct {int, double, char} with holes";
    c->et = MPI_BYTE;
    c->ft = keep[nk++] = blocks(3, (size_t[]){1, 1, 1}, (MPI_Aint[]){0, 8, 24},
                                (MPI_Datatype[]){MPI_INT, MPI_DOUBLE, MPI_CHAR}, 0, 1);
    bytes(&c->m, 0, 4);
    bytes(&c->m, 8, 8);
    bytes(&c->m, 24, 1);
    c->ext = 32;

    /* interleaved: rank 1 of 3 owns 16 of every 48 bytes, disp 4 */
    c = &cs[nc++];
    memset(c, 0, sizeof *c);
    c->name = "interleaved 16 of every 48 bytes, disp 4";
    c->disp = 4;
    c->et = MPI_INT;
    MPI_Datatype b = keep[nk++] = blocks(1, (size_t[]){4}, (MPI_Aint[]){16}, (MPI_Datatype[]){MPI_INT}, 1, 0);
    c->ft = keep[nk++] = resized(b, 0, 48);
    bytes(&c->m, 16, 16);
    c->ext = 48;

    /* copies that interleave: ints at 0 and 20, extent 8 */
    c = &cs[nc++];
    memset(c, 0, sizeof *c);
    c->name = "ints at 0, 20 resized to extent 8 (copies interleave)";
    c->et = MPI_INT;
    MPI_Datatype i20 = keep[nk++] = vec(2, 1, 20, MPI_INT);
    c->ft = keep[nk++] = resized(i20, 0, 8);
    bytes(&c->m, 0, 4);
    bytes(&c->m, 20, 4);
    c->ext = 8;

    /* a contiguous view, atomic mode (the whole span locked) */
    c = &cs[nc++];
    memset(c, 0, sizeof *c);
    c->name = "contiguous view, atomic mode, disp 100";
    c->disp = 100;
    c->et = MPI_BYTE;
    c->ft = MPI_BYTE;
    bytes(&c->m, 0, 1);
    c->ext = 1;
    c->atomic = 1;

    /* the vector in atomic mode */
    cs[nc] = cs[0];
    cs[nc].name = "vector(5, 3, 8 int), disp 6, atomic mode";
    cs[nc++].atomic = 1;

    int round = 0;
    for (int i = 0; i < nc; i++) {
        c = &cs[i];
        for (int ds = -1; ds <= 1; ds++)
            for (int gaps = 0; gaps <= 1; gaps++) {
                one(c, gaps, ds, 0, 0, 4000, round++, 0);  /* default buffers: one window */
                one(c, gaps, ds, 64, 8, 2400, round++, 0); /* 64-byte buffers: many windows */
                /* from inside an instance; into an empty file (holes read as zeros) */
                one(c, gaps, ds, 1000, 4 * (long long)c->m.n + 4, 1200, round++, 0);
                one(c, gaps, ds, 100, 4, 800, round++, 1);
            }
        if (!c->atomic)
            for (int ds = -1; ds <= 1; ds++)
                eof(c, ds, 1999, 4, 3000);
    }

    /* a write-only descriptor: no read-modify-write, no shared locks */
    {
        int fd = fresh_file(O_WRONLY);
        struct rd_io_file f;
        memset(&f, 0, sizeof f);
        f.fd = fd;
        f.readable = (fcntl(fd, F_GETFL) & O_ACCMODE) != O_WRONLY; /* file.c's rule */
        f.hints.ds_write = 1;
        rd_io_view_init(&f.view);
        rd_io_why why = {""};
        rd_io_view_set(&f.view, 0, MPI_INT, cs[0].ft, "native", 1, 0, 0, &why);
        unsigned char mem[600];
        for (int i = 0; i < 600; i++)
            mem[i] = val(i, 3);
        size_t moved = 0;
        int rc = rd_io_strided(&f, 1, 0, mem, 600, MPI_BYTE, &moved, &why);
        close(fd);
        fd = open(path, O_RDONLY);
        unsigned char file[FSIZE];
        ssize_t got = pread(fd, file, FSIZE, 0);
        size_t bad = 0;
        struct vcase vc = cs[0];
        vc.disp = 0;
        for (long long p = 0, q = 0; q < FSIZE; q++) {
            unsigned char want = bg((long)q);
            if (p < 600 && ref_off(&vc, p) == q)
                want = val((long)p++, 3);
            if (file[q] != want)
                bad++;
        }
        tap_ok(rc == 0 && moved == 600 && got == FSIZE && bad == 0,
               "write-only descriptor, sieving enabled: runs written one by one, holes kept");
        rd_io_view_fini(&f.view);
        close(fd);
    }

    {
        /* 12 bytes of every 32 (bytes: doubles may straddle the holes) */
        MPI_Datatype b12 = blocks(1, (size_t[]){12}, (MPI_Aint[]){0}, (MPI_Datatype[]){MPI_BYTE}, 1, 0);
        MPI_Datatype v12 = resized(b12, 0, 32);
        datareps(v12);
        rd_dt_release(b12);
        rd_dt_release(v12);
    }

    /* locks between processes */
    {
        int fd = fresh_file(O_RDWR);
        int p1[2], p2[2];
        if (pipe(p1) || pipe(p2))
            return 1;
        pid_t pid = fork();
        if (pid == 0) {
            int cfd = open(path, O_RDWR);
            rd_io_why w;
            char ch = rd_io_lock(cfd, 1, 100, 200, &w) == 0 ? 'L' : 'x';
            if (write(p1[1], &ch, 1) != 1 || read(p2[0], &ch, 1) != 1)
                _exit(2);
            _exit(rd_io_unlock(cfd, 100, 200, &w) == 0 ? 0 : 1);
        }
        char ch = 0;
        int r1 = (int)read(p1[0], &ch, 1);
        struct flock fl;
        memset(&fl, 0, sizeof fl);
        fl.l_type = F_RDLCK;
        fl.l_whence = SEEK_SET;
        fl.l_start = 150;
        fl.l_len = 10;
#ifdef F_OFD_GETLK
        int gl = fcntl(fd, F_OFD_GETLK, &fl);
#else
        int gl = fcntl(fd, F_GETLK, &fl);
#endif
        tap_ok(r1 == 1 && ch == 'L' && gl == 0 && fl.l_type == F_WRLCK && fl.l_start == 100 && fl.l_len == 100,
               "rd_io_lock: another process's exclusive lock on [100, 200) conflicts with a shared one on [150, 160)");
        memset(&fl, 0, sizeof fl); /* F_OFD_GETLK wants l_pid 0 */
        fl.l_type = F_RDLCK;
        fl.l_whence = SEEK_SET;
        fl.l_start = 200;
        fl.l_len = 50;
#ifdef F_OFD_GETLK
        gl = fcntl(fd, F_OFD_GETLK, &fl);
#else
        gl = fcntl(fd, F_GETLK, &fl);
#endif
        tap_ok(gl == 0 && fl.l_type == F_UNLCK, "rd_io_lock: [200, 250) is free (the range ends at 200)");
        if (write(p2[1], "u", 1) != 1)
            return 1;
        int st = -1;
        waitpid(pid, &st, 0);
        rd_io_why w;
        int rc = rd_io_lock(fd, 1, 0, 1000, &w);
        tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 0 && rc == 0, "rd_io_lock: released, [0, 1000) locked exclusive");
        tap_ok(rd_io_unlock(fd, 0, 1000, &w) == 0, "rd_io_unlock");
        close(fd);
    }

    unlink(path);
    rmdir(dir);
    for (int i = 0; i < nk; i++)
        rd_dt_release(keep[i]);
    return tap_done();
}
