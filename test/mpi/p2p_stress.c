/* MPI test: random traffic among all ranks, deterministic per seed.
 * Usage: p2p_stress [SEED [ROUNDS [MSGS]]]
 *
 * Every rank computes the same schedule from SEED: in each round each rank
 * sends MSGS messages, each to a random rank (itself included) with a random
 * tag of the round, a random size 0 .. 1 MiB biased to small, and a random
 * mode (Isend, Issend, Send, Ssend). So every rank knows exactly which
 * messages it will get from each peer.
 *
 * A rank first posts all its receives of the round, then sends. The
 * receives come in four layers, posted in this order, so that every message
 * is sure to find one whatever the timing (no receive is left unmatched):
 *   1. (source, tag)       for the first k1 messages of each (source, tag)
 *   2. (source, ANY_TAG)   for the first k2 of each source's other messages
 *   3. (ANY_SOURCE, tag)   for some of the rest of each tag
 *   4. (ANY_SOURCE, ANY_TAG) for the remaining ones, last round only (in
 *      earlier rounds it could take a message of the next round)
 * Layers 1 and 2 know their message and receive into a buffer of exactly its
 * size. Messages with the same (source, tag) match receives in the order the
 * receives were posted (non-overtaking), which identifies every message. All
 * payloads are checked byte for byte; the completion call changes per round
 * (Waitall, Waitany, Testsome). */
#include "test/mpi/p2p_common.c"

#define NTAGS 8
#define MAXSIZE (1 << 20)

typedef struct {
    int dest, tag, seq, size, mode;
} msg_t;

typedef struct {
    int src, tag;   /* the receive's envelope (may be wildcards) */
    int layer, cap; /* 1..4, buffer size */
    int want;       /* layers 1, 2: index into the round's expected list */
    char *buf;
} rcv_t;

static int seed = 1, rounds = 8, nmsg = 120;
static msg_t *sched; /* [round][sender][k] */
static long long bytes_checked;

static msg_t *M(int r, int s, int k)
{
    return &sched[((size_t)r * (size_t)p2p_size + (size_t)s) * (size_t)nmsg + (size_t)k];
}

static int rand_size(uint64_t *st)
{
    int c = p2p_rand_below(st, 100);
    if (c < 60)
        return p2p_rand_below(st, 257);
    if (c < 85)
        return 257 + p2p_rand_below(st, 16 * 1024 - 257);
    if (c < 97)
        return 16 * 1024 + p2p_rand_below(st, 128 * 1024 - 16 * 1024);
    return 128 * 1024 + p2p_rand_below(st, MAXSIZE - 128 * 1024 + 1);
}

static void make_schedule(void)
{
    uint64_t st = (uint64_t)seed * 0x9E3779B97F4A7C15ULL;
    sched = calloc((size_t)rounds * (size_t)p2p_size * (size_t)nmsg, sizeof(msg_t));
    for (int r = 0; r < rounds; r++)
        for (int s = 0; s < p2p_size; s++)
            for (int k = 0; k < nmsg; k++) {
                msg_t *m = M(r, s, k);
                m->dest = p2p_rand_below(&st, p2p_size);
                m->tag = r * NTAGS + p2p_rand_below(&st, NTAGS);
                m->seq = r * nmsg + k;
                m->size = rand_size(&st);
                int c = p2p_rand_below(&st, 100);
                m->mode = c < 40 ? 0 : c < 60 ? 1 : c < 85 ? 2 : 3;
            }
}

static int fits(const rcv_t *rv, const MPI_Status *st)
{
    return (rv->src == MPI_ANY_SOURCE || rv->src == st->MPI_SOURCE) && (rv->tag == MPI_ANY_TAG || rv->tag == st->MPI_TAG);
}

/* one round; returns the number of problems found */
static int run_round(int r, int *nrecv_total, int *layer_counts)
{
    int last = r == rounds - 1, bad = 0;
    uint64_t lst = (uint64_t)(seed * 7919 + p2p_rank * 104729 + r * 1299709);
    /* expected messages, grouped by source in each source's send order */
    int nexp = 0;
    for (int s = 0; s < p2p_size; s++)
        for (int k = 0; k < nmsg; k++)
            nexp += M(r, s, k)->dest == p2p_rank;
    msg_t **exp = malloc(sizeof(msg_t *) * (size_t)(nexp + 1));
    int *expsrc = malloc(sizeof(int) * (size_t)(nexp + 1));
    int *layer = malloc(sizeof(int) * (size_t)(nexp + 1));
    nexp = 0;
    for (int s = 0; s < p2p_size; s++)
        for (int k = 0; k < nmsg; k++)
            if (M(r, s, k)->dest == p2p_rank) {
                expsrc[nexp] = s;
                layer[nexp] = 0;
                exp[nexp++] = M(r, s, k);
            }
    rcv_t *rv = calloc((size_t)(nexp + 1), sizeof(rcv_t));
    int nr = 0;
    /* layer 1: per (source, tag), the first k1 */
    for (int s = 0; s < p2p_size; s++)
        for (int t = r * NTAGS; t < (r + 1) * NTAGS; t++) {
            int n = 0;
            for (int i = 0; i < nexp; i++)
                n += expsrc[i] == s && exp[i]->tag == t;
            int k1 = p2p_rand_below(&lst, n + 1);
            for (int i = 0; i < nexp && k1 > 0; i++)
                if (expsrc[i] == s && exp[i]->tag == t) {
                    layer[i] = 1;
                    rv[nr++] = (rcv_t){s, t, 1, exp[i]->size, i, NULL};
                    k1--;
                }
        }
    /* layer 2: per source, the first k2 of the others */
    for (int s = 0; s < p2p_size; s++) {
        int n = 0;
        for (int i = 0; i < nexp; i++)
            n += expsrc[i] == s && !layer[i];
        int k2 = p2p_rand_below(&lst, n + 1);
        for (int i = 0; i < nexp && k2 > 0; i++)
            if (expsrc[i] == s && !layer[i]) {
                layer[i] = 2;
                rv[nr++] = (rcv_t){s, MPI_ANY_TAG, 2, exp[i]->size, i, NULL};
                k2--;
            }
    }
    /* layer 3: per tag, some (all of them before the last round) */
    int rest_max = 0, nrest = 0;
    for (int t = r * NTAGS; t < (r + 1) * NTAGS; t++) {
        int n = 0, mx = 0;
        for (int i = 0; i < nexp; i++)
            if (!layer[i] && exp[i]->tag == t) {
                n++;
                mx = exp[i]->size > mx ? exp[i]->size : mx;
            }
        int k3 = last ? p2p_rand_below(&lst, n + 1) : n;
        for (int j = 0; j < k3; j++)
            rv[nr++] = (rcv_t){MPI_ANY_SOURCE, t, 3, mx, -1, NULL};
        nrest += n - k3;
        if (n - k3 > 0)
            for (int i = 0; i < nexp; i++)
                if (!layer[i])
                    rest_max = exp[i]->size > rest_max ? exp[i]->size : rest_max;
    }
    /* layer 4: full wildcards for what is left (last round only) */
    for (int j = 0; j < nrest; j++)
        rv[nr++] = (rcv_t){MPI_ANY_SOURCE, MPI_ANY_TAG, 4, rest_max, -1, NULL};
    if (nr != nexp) {
        printf("# [rank %d] round %d: %d receives for %d messages\n", p2p_rank, r, nr, nexp);
        bad++;
    }

    /* post the receives, in layer order */
    MPI_Request *req = malloc(sizeof(MPI_Request) * (size_t)(nr + nmsg + 1));
    MPI_Status *sts = malloc(sizeof(MPI_Status) * (size_t)(nr + nmsg + 1));
    for (int j = 0; j < nr; j++) {
        rv[j].buf = malloc((size_t)rv[j].cap + 1);
        MPI_Irecv(rv[j].buf, rv[j].cap, MPI_BYTE, rv[j].src, rv[j].tag, MPI_COMM_WORLD, &req[j]);
        layer_counts[rv[j].layer - 1]++;
    }
    /* send */
    char **sbuf = malloc(sizeof(char *) * (size_t)nmsg);
    int nreq = nr;
    for (int k = 0; k < nmsg; k++) {
        msg_t *m = M(r, p2p_rank, k);
        sbuf[k] = malloc((size_t)m->size + 1);
        p2p_fill(sbuf[k], (size_t)m->size, p2p_rank, m->tag, m->seq);
        switch (m->mode) {
        case 0: MPI_Isend(sbuf[k], m->size, MPI_BYTE, m->dest, m->tag, MPI_COMM_WORLD, &req[nreq++]); break;
        case 1: MPI_Issend(sbuf[k], m->size, MPI_BYTE, m->dest, m->tag, MPI_COMM_WORLD, &req[nreq++]); break;
        case 2: MPI_Send(sbuf[k], m->size, MPI_BYTE, m->dest, m->tag, MPI_COMM_WORLD); break;
        default: MPI_Ssend(sbuf[k], m->size, MPI_BYTE, m->dest, m->tag, MPI_COMM_WORLD); break;
        }
    }
    /* complete */
    if (r % 3 == 0) {
        bad += MPI_Waitall(nreq, req, sts) != MPI_SUCCESS;
    } else if (r % 3 == 1) {
        for (int j = 0; j < nr; j++) {
            int idx = -1;
            MPI_Status s1;
            MPI_Waitany(nr, req, &idx, &s1);
            if (idx < 0 || idx >= nr) {
                bad++;
                break;
            }
            sts[idx] = s1;
        }
        bad += MPI_Waitall(nreq - nr, req + nr, MPI_STATUSES_IGNORE) != MPI_SUCCESS;
    } else {
        int left = nreq;
        int *idx = malloc(sizeof(int) * (size_t)(nreq + 1));
        MPI_Status *s1 = malloc(sizeof(MPI_Status) * (size_t)(nreq + 1));
        double end = p2p_now() + 60;
        while (left > 0 && p2p_now() < end) {
            int out = 0;
            MPI_Testsome(nreq, req, &out, idx, s1);
            if (out == MPI_UNDEFINED)
                break;
            for (int j = 0; j < out; j++)
                sts[idx[j]] = s1[j];
            left -= out;
        }
        bad += left != 0;
        free(idx);
        free(s1);
    }

    /* identify: per (source, tag), receives in post order take the messages
     * in send order */
    int *taken = calloc((size_t)(nexp + 1), sizeof(int));
    for (int j = 0; j < nr; j++) {
        MPI_Status *st = &sts[j];
        int c = -1, found = -1;
        MPI_Get_count(st, MPI_BYTE, &c);
        if (!fits(&rv[j], st)) {
            printf("# [rank %d] round %d: receive (%d,%d) got (%d,%d)\n", p2p_rank, r, rv[j].src, rv[j].tag,
                   st->MPI_SOURCE, st->MPI_TAG);
            bad++;
            continue;
        }
        for (int i = 0; i < nexp; i++)
            if (!taken[i] && expsrc[i] == st->MPI_SOURCE && exp[i]->tag == st->MPI_TAG) {
                found = i;
                break;
            }
        if (found < 0) {
            printf("# [rank %d] round %d: unexpected message from %d tag %d\n", p2p_rank, r, st->MPI_SOURCE, st->MPI_TAG);
            bad++;
            continue;
        }
        taken[found] = 1;
        msg_t *m = exp[found];
        bytes_checked += c;
        long long at = c == m->size ? p2p_check(rv[j].buf, (size_t)m->size, expsrc[found], m->tag, m->seq) : -2;
        if (at != -1 || (rv[j].want >= 0 && rv[j].want != found)) {
            printf("# [rank %d] round %d: message %d from %d tag %d (layer %d): count %d want %d, bad byte %lld, "
                   "designated %d\n",
                   p2p_rank, r, m->seq, expsrc[found], m->tag, rv[j].layer, c, m->size, at, rv[j].want == found);
            bad++;
        }
    }
    for (int j = 0; j < nr; j++)
        free(rv[j].buf);
    for (int k = 0; k < nmsg; k++)
        free(sbuf[k]);
    *nrecv_total += nr;
    free(taken);
    free(sbuf);
    free(req);
    free(sts);
    free(rv);
    free(exp);
    free(expsrc);
    free(layer);
    return bad;
}

int main(int argc, char **argv)
{
    p2p_init(&argc, &argv);
    if (argc > 1)
        seed = atoi(argv[1]);
    if (argc > 2)
        rounds = atoi(argv[2]);
    if (argc > 3)
        nmsg = atoi(argv[3]);
    make_schedule();
    int total = 0, layers[4] = {0, 0, 0, 0};
    double t0 = p2p_now();
    for (int r = 0; r < rounds; r++) {
        int bad = run_round(r, &total, layers);
        mt_is_int(bad, 0, "seed %d round %d: every message received once, right envelope, size and bytes", seed, r);
    }
    printf("# [rank %d] %d messages, %lld bytes received and checked (layers %d/%d/%d/%d) in %.2f s\n", p2p_rank,
           total, bytes_checked, layers[0], layers[1], layers[2], layers[3], p2p_now() - t0);
    free(sched);
    MPI_Finalize();
    return mt_done();
}
