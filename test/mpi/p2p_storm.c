/* MPI test: a storm of nonblocking traffic between every pair of ranks.
 * Usage: p2p_storm [ROUNDS [PER_PEER [MAXSIZE]]]   (defaults 10, 64, 1 MiB)
 *
 * In each round every rank posts, for every other rank, PER_PEER receives
 * and PER_PEER sends at once, of sizes 0 B .. MAXSIZE (slot 0 is always
 * 0 B and slot 1 always MAXSIZE; the others are drawn, per pair, round and
 * slot, from a mix across the eager limits and rendezvous sizes), and then
 * completes them all. Slot k of a pair carries tag k + PER_PEER * (round
 * mod 3), or 3 PER_PEER + k in every round for slots 1 and 3 mod 4. By
 * slot:
 *   k mod 4 == 0   Isend (Issend when k mod 8 == 4)  -> Irecv
 *   k mod 4 == 1   Issend                             -> persistent Recv_init
 *   k mod 4 == 2   Isend, into a larger buffer        -> Irecv
 *   k mod 4 == 3   persistent Send_init (Ssend_init when k mod 8 == 7)
 *                                                     -> Irecv
 * (slots 1 and 3 keep their size in every round: the persistent requests
 * are made once and started again each round, by Start and Startall).
 * The receives of even slots are posted before any send of the round, the
 * others after them (so half the messages arrive unexpected).
 *
 * Completion changes with the round: even rounds complete every request
 * in one array, by Waitall, Waitany, Waitsome, Testall, Testsome in turn;
 * odd rounds the receives by one of them and the sends by another.
 *
 * Checks, per round and peer: every receive completed once with the
 * sender's rank, the slot's tag and the exact count, every byte of the
 * payload the pattern of (sender, tag, round, slot), and the bytes after
 * it in the larger buffers untouched. */
#include "test/mpi/p2p_common.c"

#define GUARD 0xa5
#define SLACK 64 /* larger buffers of slots k mod 4 == 2 */

static int rounds = 10, per = 64;
static long maxsize = 1L << 20;

enum { M_WAITALL, M_WAITANY, M_WAITSOME, M_TESTALL, M_TESTSOME, M_N };
static const char *mname[M_N] = {"Waitall", "Waitany", "Waitsome", "Testall", "Testsome"};

/* the size of slot k from rank s to rank d in round r */
static long size_of(int s, int d, int r, int k)
{
    if (k == 0)
        return 0;
    if (k == 1)
        return maxsize;
    if (k % 4 == 1 || k % 4 == 3)
        r = 0; /* fixed: persistent requests */
    uint64_t st = p2p_mix(((uint64_t)(uint32_t)s << 48) ^ ((uint64_t)(uint32_t)d << 32) ^ ((uint64_t)(uint32_t)r << 16) ^
                          (uint64_t)(uint32_t)k ^ 0x73746f726dULL);
    int c = p2p_rand_below(&st, 100);
    long lo, hi;
    if (c < 35)
        lo = 0, hi = 256;
    else if (c < 60)
        lo = 257, hi = 8192;
    else if (c < 80)
        lo = 8193, hi = 65536;
    else if (c < 92)
        lo = 65537, hi = 512 * 1024;
    else
        lo = 512 * 1024 + 1, hi = maxsize;
    if (hi > maxsize)
        hi = maxsize;
    if (lo > hi)
        lo = hi;
    return lo + (long)(p2p_rand(&st) % (uint64_t)(hi - lo + 1));
}

/* persistent slots keep one tag, 3 PER_PEER + k; the others move with the round */
static int tag_of(int r, int k)
{
    return k % 4 == 1 || k % 4 == 3 ? 3 * per + k : k + per * (r % 3);
}

static int seq_of(int r, int k)
{
    return r * per + k;
}

/* What a wrong payload holds instead, for the failure's message: the
 * guard (nothing written), zeros, or another message's bytes (sender,
 * round, slot) among those that could have been confused with it. */
static void whose(const unsigned char *buf, long n, long at, int src, char *out, size_t len)
{
    long m = n - at < 64 ? n - at : 64;
    if (m <= 0) {
        snprintf(out, len, "nothing");
        return;
    }
    const unsigned char *b = buf + at;
    if (p2p_check_byte(b, (size_t)m, GUARD) == -1) {
        snprintf(out, len, "the guard byte 0x%02x (nothing written there)", GUARD);
        return;
    }
    if (p2p_check_byte(b, (size_t)m, 0) == -1) {
        snprintf(out, len, "zeros");
        return;
    }
    for (int r = 0; r < rounds; r++)
        for (int k = 0; k < per; k++)
            for (int s = 0; s < p2p_size; s++) {
                uint64_t sd = p2p_seed(s, tag_of(r, k), seq_of(r, k));
                int same = 1;
                for (long i = 0; i < m && same; i++)
                    same = b[i] == p2p_pat_s(sd, (size_t)(at + i));
                if (same) {
                    snprintf(out, len, "the bytes of rank %d's round %d slot %d at the same offset%s", s, r, k,
                             s == src ? "" : " (not this sender)");
                    return;
                }
            }
    snprintf(out, len, "unknown bytes %02x %02x %02x %02x", b[0], m > 1 ? b[1] : 0, m > 2 ? b[2] : 0,
             m > 3 ? b[3] : 0);
}

/* per peer */
struct peer {
    int rank;
    char **rbuf, **sbuf;       /* [per] */
    long *rcap;                /* receive buffer sizes */
    MPI_Request *precv, *psend; /* persistent, [per] (MPI_REQUEST_NULL where none) */
};

static long cap_of(int s, int d, int k)
{
    if (k % 4 == 1)
        return size_of(s, d, 0, k);
    if (k % 4 == 2)
        return maxsize + SLACK;
    return maxsize; /* sizes change per round */
}

/* Complete n requests of a by method m; st[i] gets request i's status.
 * Returns the number of completions seen (n when all went well). */
static int complete(int m, int n, MPI_Request *a, MPI_Status *st, int *bad)
{
    int seen = 0, flag = 0, idx, out;
    int *ind = malloc(sizeof(int) * (size_t)(n + 1));
    MPI_Status *s1 = malloc(sizeof(MPI_Status) * (size_t)(n + 1));
    switch (m) {
    case M_WAITALL:
        if (MPI_Waitall(n, a, st) != MPI_SUCCESS)
            (*bad)++;
        seen = n;
        break;
    case M_WAITANY:
        for (;;) {
            if (MPI_Waitany(n, a, &idx, s1) != MPI_SUCCESS)
                (*bad)++;
            if (idx == MPI_UNDEFINED)
                break;
            st[idx] = s1[0];
            seen++;
        }
        break;
    case M_TESTALL:
        while (!flag)
            if (MPI_Testall(n, a, &flag, st) != MPI_SUCCESS) {
                (*bad)++;
                break;
            }
        seen = n;
        break;
    default: { /* M_WAITSOME, M_TESTSOME: the same loop */
        int (*some)(int, MPI_Request *, int *, int *, MPI_Status *) = m == M_WAITSOME ? MPI_Waitsome : MPI_Testsome;
        for (;;) {
            if (some(n, a, &out, ind, s1) != MPI_SUCCESS)
                (*bad)++;
            if (out == MPI_UNDEFINED)
                break;
            for (int j = 0; j < out; j++)
                st[ind[j]] = s1[j];
            seen += out;
        }
        break;
    }
    }
    free(ind);
    free(s1);
    return seen;
}

int main(int argc, char **argv)
{
    p2p_init(&argc, &argv);
    if (argc > 1)
        rounds = atoi(argv[1]);
    if (argc > 2)
        per = atoi(argv[2]);
    if (argc > 3)
        maxsize = atol(argv[3]);
    if (rounds < 1 || per < 4 || per > 4096 || maxsize < 1) {
        printf("# usage: p2p_storm [ROUNDS [PER_PEER (4..4096) [MAXSIZE]]]\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    int np = p2p_size - 1;
    struct peer *pe = calloc((size_t)(np > 0 ? np : 1), sizeof(*pe));
    for (int i = 0, r = 0; r < p2p_size; r++) {
        if (r == p2p_rank)
            continue;
        struct peer *p = &pe[i++];
        p->rank = r;
        p->rbuf = calloc((size_t)per, sizeof(char *));
        p->sbuf = calloc((size_t)per, sizeof(char *));
        p->rcap = calloc((size_t)per, sizeof(long));
        p->precv = calloc((size_t)per, sizeof(MPI_Request));
        p->psend = calloc((size_t)per, sizeof(MPI_Request));
        for (int k = 0; k < per; k++) {
            p->rcap[k] = cap_of(r, p2p_rank, k);
            p->rbuf[k] = malloc((size_t)p->rcap[k] + 1);
            p->sbuf[k] = malloc((size_t)(k % 4 == 1 || k % 4 == 3 ? size_of(p2p_rank, r, 0, k) : maxsize) + 1);
            p->precv[k] = p->psend[k] = MPI_REQUEST_NULL;
            if (k % 4 == 1)
                MPI_Recv_init(p->rbuf[k], (int)p->rcap[k], MPI_BYTE, r, tag_of(0, k), MPI_COMM_WORLD, &p->precv[k]);
            if (k % 4 == 3) {
                int n = (int)size_of(p2p_rank, r, 0, k);
                if (k % 8 == 7)
                    MPI_Ssend_init(p->sbuf[k], n, MPI_BYTE, r, tag_of(0, k), MPI_COMM_WORLD, &p->psend[k]);
                else
                    MPI_Send_init(p->sbuf[k], n, MPI_BYTE, r, tag_of(0, k), MPI_COMM_WORLD, &p->psend[k]);
            }
        }
    }
    int nreq = np * per;
    MPI_Request *rq = malloc(sizeof(MPI_Request) * (size_t)(2 * nreq + 1));
    MPI_Status *st = malloc(sizeof(MPI_Status) * (size_t)(2 * nreq + 1));
    long long bytes = 0;
    double t0 = p2p_now();
    for (int r = 0; r < rounds; r++) {
        /* rq[0, nreq): receives, peer-major; rq[nreq, 2 nreq): sends */
        int bad = 0;
        for (int i = 0; i < np; i++)
            for (int k = 0; k < per; k++) {
                struct peer *p = &pe[i];
                long want = size_of(p->rank, p2p_rank, r, k), g = want + SLACK + 1;
                memset(p->rbuf[k], GUARD, (size_t)(g < p->rcap[k] + 1 ? g : p->rcap[k] + 1));
                p2p_fill(p->sbuf[k], (size_t)size_of(p2p_rank, p->rank, r, k), p2p_rank, tag_of(r, k), seq_of(r, k));
            }
        /* even slots' receives first */
        for (int i = 0; i < np; i++)
            for (int k = 0; k < per; k += 2) {
                struct peer *p = &pe[i];
                MPI_Request *q = &rq[i * per + k];
                MPI_Irecv(p->rbuf[k], (int)p->rcap[k], MPI_BYTE, p->rank, tag_of(r, k), MPI_COMM_WORLD, q);
            }
        /* the sends: persistent ones together by Startall, per peer */
        for (int i = 0; i < np; i++) {
            struct peer *p = &pe[i];
            MPI_Request ps[4096];
            int nps = 0;
            for (int k = 0; k < per; k++) {
                MPI_Request *q = &rq[nreq + i * per + k];
                int n = (int)size_of(p2p_rank, p->rank, r, k);
                if (k % 4 == 3) {
                    *q = p->psend[k];
                    ps[nps++] = p->psend[k];
                } else if (k % 4 == 1 || k % 8 == 4) {
                    MPI_Issend(p->sbuf[k], n, MPI_BYTE, p->rank, tag_of(r, k), MPI_COMM_WORLD, q);
                } else {
                    MPI_Isend(p->sbuf[k], n, MPI_BYTE, p->rank, tag_of(r, k), MPI_COMM_WORLD, q);
                }
            }
            if (nps)
                MPI_Startall(nps, ps);
        }
        /* odd slots' receives: persistent ones by Start */
        for (int i = 0; i < np; i++)
            for (int k = 1; k < per; k += 2) {
                struct peer *p = &pe[i];
                MPI_Request *q = &rq[i * per + k];
                if (k % 4 == 1) {
                    *q = p->precv[k];
                    MPI_Start(q);
                } else {
                    MPI_Irecv(p->rbuf[k], (int)p->rcap[k], MPI_BYTE, p->rank, tag_of(r, k), MPI_COMM_WORLD, q);
                }
            }
        int m1 = (r / 2) % M_N, m2 = (r / 2 + 2) % M_N, seen;
        const char *how;
        char hbuf[64];
        if (r % 2 == 0) {
            seen = complete(m1, 2 * nreq, rq, st, &bad);
            how = mname[m1];
        } else {
            seen = complete(m1, nreq, rq, st, &bad) + complete(m2, nreq, rq + nreq, st + nreq, &bad);
            snprintf(hbuf, sizeof(hbuf), "%s for receives, %s for sends", mname[m1], mname[m2]);
            how = hbuf;
        }
        mt_is_int(seen, 2 * nreq, "round %d (%s): every request completed once", r, how);
        /* the receives */
        for (int i = 0; i < np; i++) {
            struct peer *p = &pe[i];
            int wrong = 0;
            for (int k = 0; k < per; k++) {
                MPI_Status *s = &st[i * per + k];
                long want = size_of(p->rank, p2p_rank, r, k);
                int tag = tag_of(r, k);
                int c = -1;
                MPI_Get_count(s, MPI_BYTE, &c);
                long long at = c == want ? p2p_check(p->rbuf[k], (size_t)want, p->rank, tag, seq_of(r, k)) : -2;
                long gn = p->rcap[k] + 1 - want < SLACK + 1 ? p->rcap[k] + 1 - want : SLACK + 1;
                long long g = p2p_check_byte(p->rbuf[k] + want, (size_t)gn, GUARD);
                if (s->MPI_SOURCE != p->rank || s->MPI_TAG != tag || c != want || at != -1 || g != -1) {
                    char what[256] = "";
                    if (at >= 0) {
                        long long end = at;
                        while (end < want && p->rbuf[k][end] != (char)p2p_pat(p->rank, tag, seq_of(r, k), (size_t)end))
                            end++;
                        char w[120];
                        whose((unsigned char *)p->rbuf[k], want, at, p->rank, w, sizeof(w));
                        snprintf(what, sizeof(what), " (wrong from there to %lld: %s)", end, w);
                    }
                    if (wrong++ < 8)
                        printf("# [rank %d] round %d slot %d from rank %d: source %d tag %d (want %d) count %d "
                               "(want %ld), first wrong byte %lld%s, first byte written past the message %lld\n",
                               p2p_rank, r, k, p->rank, s->MPI_SOURCE, s->MPI_TAG, tag, c, want, at, what, g);
                } else {
                    bytes += want;
                }
            }
            mt_is_int(wrong, 0, "round %d: %d messages from rank %d, each with its source, tag, count and bytes", r,
                      per, p->rank);
        }
        mt_is_int(bad, 0, "round %d: the completion calls returned MPI_SUCCESS", r);
        /* persistent requests are inactive again, not freed */
        int inactive = 0;
        for (int i = 0; i < np; i++)
            for (int k = 0; k < per; k++)
                inactive += (k % 4 == 1 && rq[i * per + k] == pe[i].precv[k]) +
                            (k % 4 == 3 && rq[nreq + i * per + k] == pe[i].psend[k]);
        mt_is_int(inactive, np * (per / 4 + (per % 4 > 1)) + np * (per / 4 + (per % 4 > 3)),
                  "round %d: the persistent requests are kept, inactive", r);
    }
    printf("# [rank %d] %d rounds of %d messages each way with %d peers: %lld bytes received and checked in %.2f s\n",
           p2p_rank, rounds, per, np, bytes, p2p_now() - t0);
    for (int i = 0; i < np; i++) {
        for (int k = 0; k < per; k++) {
            if (pe[i].precv[k] != MPI_REQUEST_NULL)
                MPI_Request_free(&pe[i].precv[k]);
            if (pe[i].psend[k] != MPI_REQUEST_NULL)
                MPI_Request_free(&pe[i].psend[k]);
            free(pe[i].rbuf[k]);
            free(pe[i].sbuf[k]);
        }
        free(pe[i].rbuf);
        free(pe[i].sbuf);
        free(pe[i].rcap);
        free(pe[i].precv);
        free(pe[i].psend);
    }
    free(pe);
    free(rq);
    free(st);
    MPI_Finalize();
    return mt_done();
}
