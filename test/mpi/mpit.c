/* MPI test: the tool information interface, MPI_T (runtime/api/mpit.c).
 * Usage: mpit NCVARS (the number of parameters the build declares).
 * test/mpi/mpit.sh runs it on 1 and 2 ranks with RDMPI_EAGER_LIMIT=4096,
 * RDMPI_COLL_ALLREDUCE=ring and RDMPI_COLL_SHM=0.
 *
 * Before MPI_Init: the control variables (names, types, enums, scopes,
 * the string convention, reads, writes that MPI_Init then uses: the eager
 * limit 1000 and rendezvous by put), the categories, the source. After:
 * the writes refused now or never, live ones, the counters of exact
 * traffic per protocol and transport, the unexpected queue, the wait
 * timer, the collectives' choices, sessions and handles and their errors,
 * MPI_T_finalize's count, and MPI_T again after MPI_Finalize. */
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "test/mpi/mtest.h"

enum { TL_SELF, TL_SHM, NTL = 5 };

static int cvar_index(const char *name)
{
    int i = -1;
    int rc = MPI_T_cvar_get_index(name, &i);
    mt_is_int(rc, MPI_SUCCESS, "MPI_T_cvar_get_index(%s)", name);
    return i;
}

static MPI_T_cvar_handle cvar_handle(const char *name, int *count)
{
    MPI_T_cvar_handle h = MPI_T_CVAR_HANDLE_NULL;
    int rc = MPI_T_cvar_handle_alloc(cvar_index(name), NULL, &h, count);
    mt_is_int(rc, MPI_SUCCESS, "MPI_T_cvar_handle_alloc(%s)", name);
    return h;
}

static long long cvar_read_num(const char *name)
{
    int count = 0, idx = cvar_index(name);
    MPI_Datatype dt = MPI_DATATYPE_NULL;
    MPI_T_cvar_get_info(idx, NULL, NULL, NULL, &dt, NULL, NULL, NULL, NULL, NULL);
    MPI_T_cvar_handle h = cvar_handle(name, &count);
    long long v = -12345;
    if (dt == MPI_INT) {
        int x = -1;
        mt_is_int(MPI_T_cvar_read(h, &x), MPI_SUCCESS, "read %s", name);
        v = x;
    } else if (dt == MPI_COUNT) {
        MPI_Count x = -1;
        mt_is_int(MPI_T_cvar_read(h, &x), MPI_SUCCESS, "read %s", name);
        v = x;
    } else {
        unsigned long long x = 0;
        mt_is_int(MPI_T_cvar_read(h, &x), MPI_SUCCESS, "read %s", name);
        v = (long long)x;
    }
    MPI_T_cvar_handle_free(&h);
    return v;
}

static void cvar_read_str(const char *name, char *out, int n)
{
    int count = 0;
    MPI_T_cvar_handle h = cvar_handle(name, &count);
    char buf[4096];
    mt_ok(count > 0 && count <= (int)sizeof(buf), "%s: a string of at most %d bytes", name, count);
    mt_is_int(MPI_T_cvar_read(h, buf), MPI_SUCCESS, "read %s", name);
    snprintf(out, (size_t)n, "%s", buf);
    MPI_T_cvar_handle_free(&h);
}

static int pvar_index(const char *name, int klass)
{
    int i = -1;
    mt_is_int(MPI_T_pvar_get_index(name, klass, &i), MPI_SUCCESS, "MPI_T_pvar_get_index(%s)", name);
    return i;
}

static MPI_T_pvar_handle pvar_handle(MPI_T_pvar_session s, const char *name, int klass, int want_count)
{
    MPI_T_pvar_handle h = MPI_T_PVAR_HANDLE_NULL;
    int count = -1;
    mt_is_int(MPI_T_pvar_handle_alloc(s, pvar_index(name, klass), NULL, &h, &count), MPI_SUCCESS,
              "MPI_T_pvar_handle_alloc(%s)", name);
    mt_is_int(count, want_count, "%s has %d elements", name, want_count);
    return h;
}

/* The name of item `value` of the enum of pvar `name` ("?" if none). */
static const char *enum_name_of(const char *name, int value, char *out, int n)
{
    MPI_T_enum e = MPI_T_ENUM_NULL;
    int num = 0;
    MPI_T_pvar_get_info(pvar_index(name, MPI_T_PVAR_CLASS_STATE), NULL, NULL, NULL, NULL, NULL, &e, NULL, NULL,
                        NULL, NULL, NULL, NULL);
    snprintf(out, (size_t)n, "?");
    if (e == MPI_T_ENUM_NULL || MPI_T_enum_get_info(e, &num, NULL, NULL) != MPI_SUCCESS)
        return out;
    for (int i = 0; i < num; i++) {
        int v, len = n;
        char item[128];
        len = (int)sizeof(item);
        if (MPI_T_enum_get_item(e, i, &v, item, &len) == MPI_SUCCESS && v == value)
            snprintf(out, (size_t)n, "%s", item);
    }
    return out;
}

static void check_counts(const char *what, const unsigned long long *got, int tl, unsigned long long want)
{
    int ok = 1;
    for (int t = 0; t < NTL; t++)
        ok &= got[t] == (t == tl ? want : 0);
    mt_ok(ok, "%s: %llu on transport %d, 0 elsewhere (got %llu %llu %llu %llu %llu)", what, want, tl, got[0],
          got[1], got[2], got[3], got[4]);
}

int main(int argc, char **argv)
{
    int ncvars_want = argc > 1 ? atoi(argv[1]) : -1;
    int prov = -1, n = -1, len, rc;
    char name[256], desc[2048], s[4096];

    /* ================================================================ before MPI_Init */
    const char *pr = getenv("PMIX_RANK"); /* (the rank, for the lines printed before MPI_Init) */
    mt_rank = pr ? atoi(pr) : 0;
    mt_is_int(MPI_T_cvar_get_num(&n), MPI_T_ERR_NOT_INITIALIZED, "MPI_T_cvar_get_num before MPI_T_init_thread");
    mt_is_int(MPI_T_init_thread(MPI_THREAD_MULTIPLE, &prov), MPI_SUCCESS, "MPI_T_init_thread");
    mt_is_int(prov, MPI_THREAD_MULTIPLE, "MPI_T provides MPI_THREAD_MULTIPLE");
    mt_is_int(MPI_T_init_thread(MPI_THREAD_SINGLE, &prov), MPI_SUCCESS, "MPI_T_init_thread again");
    mt_is_int(prov, MPI_THREAD_SINGLE, "... provides what it was asked for");
    mt_is_int(MPI_T_cvar_get_num(&n), MPI_SUCCESS, "MPI_T_cvar_get_num");
    mt_is_int(n, ncvars_want, "one control variable per declared parameter");

    /* ---- a SIZE parameter: eager_limit */
    int idx = cvar_index("eager_limit"), verb = -1, bind = -1, scope = -1;
    MPI_Datatype dt = MPI_DATATYPE_NULL;
    MPI_T_enum en = (MPI_T_enum)&n;
    len = sizeof(name);
    int dlen = sizeof(desc);
    rc = MPI_T_cvar_get_info(idx, name, &len, &verb, &dt, &en, desc, &dlen, &bind, &scope);
    mt_is_int(rc, MPI_SUCCESS, "MPI_T_cvar_get_info(eager_limit)");
    mt_ok(strcmp(name, "eager_limit") == 0 && len == 12, "its name, and the length with the NUL (%s, %d)", name, len);
    mt_ok(dt == MPI_UNSIGNED_LONG_LONG, "a size is an MPI_UNSIGNED_LONG_LONG");
    mt_ok(en == MPI_T_ENUM_NULL, "no enum");
    mt_is_int(bind, MPI_T_BIND_NO_OBJECT, "bound to no object");
    mt_is_int(scope, MPI_T_SCOPE_ALL_EQ, "scope MPI_T_SCOPE_ALL_EQ (undeclared: the default)");
    mt_is_int(verb, MPI_T_VERBOSITY_TUNER_BASIC, "verbosity TUNER_BASIC (p2p)");
    mt_ok(strstr(desc, "RDMPI_EAGER_LIMIT") && strstr(desc, "only before MPI_Init") && dlen == (int)strlen(desc) + 1,
          "the description names the variable and when it may be written: %s", desc);
    len = 0;
    mt_is_int(MPI_T_cvar_get_info(idx, name, &len, NULL, NULL, NULL, NULL, NULL, NULL, NULL), MPI_SUCCESS,
              "a name length of 0 ...");
    mt_is_int(len, 12, "... asks for the length the name needs");
    len = 4;
    strcpy(name, "xxxxxxx");
    MPI_T_cvar_get_info(idx, name, &len, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
    mt_ok(strcmp(name, "eag") == 0 && len == 4, "a short buffer gets what fits, NUL-terminated (%s, %d)", name, len);
    mt_is_int(cvar_read_num("eager_limit"), 4096, "eager_limit reads RDMPI_EAGER_LIMIT=4096");

    /* ---- an ENUM: rndv_protocol */
    idx = cvar_index("rndv_protocol");
    en = MPI_T_ENUM_NULL;
    MPI_T_cvar_get_info(idx, NULL, NULL, NULL, &dt, &en, NULL, NULL, NULL, NULL);
    mt_ok(dt == MPI_INT && en != MPI_T_ENUM_NULL, "an enum parameter is an MPI_INT with an enum");
    len = sizeof(name);
    mt_is_int(MPI_T_enum_get_info(en, &n, name, &len), MPI_SUCCESS, "MPI_T_enum_get_info");
    mt_ok(n == 6 && strcmp(name, "rndv_protocol") == 0, "6 items, named rndv_protocol (%d, %s)", n, name);
    s[0] = '\0';
    for (int i = 0; i < n; i++) {
        int v = -1;
        len = sizeof(name);
        MPI_T_enum_get_item(en, i, &v, name, &len);
        snprintf(s + strlen(s), sizeof(s) - strlen(s), "%s%d=%s", i ? " " : "", v, name);
    }
    mt_ok(strcmp(s, "0=get 1=put 2=pipeline 3=split 4=transport 5=auto") == 0, "its items: %s", s);
    mt_is_int(MPI_T_enum_get_item(en, 6, &n, name, &len), MPI_T_ERR_INVALID_ITEM, "item 6: MPI_T_ERR_INVALID_ITEM");
    mt_is_int(MPI_T_enum_get_info((MPI_T_enum)desc, &n, NULL, NULL), MPI_T_ERR_INVALID_HANDLE,
              "a made-up enum: MPI_T_ERR_INVALID_HANDLE");
    mt_is_int(cvar_read_num("rndv_protocol"), 5, "rndv_protocol reads auto (5)");

    /* ---- strings, INTs, scopes */
    cvar_read_str("log", s, sizeof(s));
    mt_ok(strcmp(s, "warn") == 0, "log reads its default, warn (%s)", s);
    idx = cvar_index("log");
    MPI_T_cvar_get_info(idx, NULL, NULL, &verb, &dt, NULL, NULL, NULL, NULL, &scope);
    mt_ok(dt == MPI_CHAR && scope == MPI_T_SCOPE_LOCAL && verb == MPI_T_VERBOSITY_USER_BASIC,
          "log: MPI_CHAR, scope LOCAL, USER_BASIC");
    MPI_T_cvar_get_info(cvar_index("wait_sleep"), NULL, NULL, NULL, &dt, NULL, NULL, NULL, NULL, &scope);
    mt_ok(dt == MPI_INT && scope == MPI_T_SCOPE_LOCAL, "wait_sleep (0..1000000): MPI_INT, LOCAL");
    MPI_T_cvar_get_info(cvar_index("spin_count"), NULL, NULL, NULL, &dt, NULL, NULL, NULL, NULL, NULL);
    mt_ok(dt == MPI_COUNT, "spin_count (0..LONG_MAX): MPI_COUNT");
    MPI_T_cvar_get_info(cvar_index("rrun_report"), NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, &scope);
    mt_is_int(scope, MPI_T_SCOPE_READONLY, "rrun_report: READONLY");
    MPI_T_cvar_get_info(cvar_index("cc"), NULL, NULL, &verb, NULL, NULL, NULL, NULL, NULL, &scope);
    mt_ok(scope == MPI_T_SCOPE_READONLY && verb == MPI_T_VERBOSITY_USER_DETAIL, "a tool's parameter (cc): READONLY");
    mt_is_int(MPI_T_cvar_get_index("no_such_variable", &n), MPI_T_ERR_INVALID_NAME, "an unknown name");
    MPI_T_cvar_get_num(&n);
    mt_is_int(MPI_T_cvar_get_info(n, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL), MPI_T_ERR_INVALID_INDEX,
              "index num_cvar: MPI_T_ERR_INVALID_INDEX");
    mt_is_int(MPI_T_cvar_get_info(-1, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL), MPI_T_ERR_INVALID_INDEX,
              "index -1: MPI_T_ERR_INVALID_INDEX");

    /* ---- writes before MPI_Init: MPI_Init uses them */
    int count = 0;
    MPI_T_cvar_handle h = cvar_handle("eager_limit", &count);
    mt_is_int(count, 1, "one element");
    unsigned long long ull = 1000;
    mt_is_int(MPI_T_cvar_write(h, &ull), MPI_SUCCESS, "eager_limit := 1000 before MPI_Init");
    mt_is_int(cvar_read_num("eager_limit"), 1000, "... reads 1000");
    MPI_T_cvar_handle hp = cvar_handle("rndv_protocol", &count);
    int iv = 6;
    mt_is_int(MPI_T_cvar_write(hp, &iv), MPI_T_ERR_INVALID, "rndv_protocol := 6 (no such item): MPI_T_ERR_INVALID");
    iv = 1;
    mt_is_int(MPI_T_cvar_write(hp, &iv), MPI_SUCCESS, "rndv_protocol := put (1)");
    MPI_T_cvar_handle hw = cvar_handle("wait_sleep", &count);
    iv = 2000000;
    mt_is_int(MPI_T_cvar_write(hw, &iv), MPI_T_ERR_INVALID, "wait_sleep := 2000000 (above its 1000000)");
    mt_is_int(cvar_read_num("wait_sleep"), 0, "... leaves it at 0");
    MPI_T_cvar_handle hr = cvar_handle("rrun_report", &count);
    mt_is_int(MPI_T_cvar_write(hr, "x"), MPI_T_ERR_CVAR_SET_NEVER, "rrun_report: MPI_T_ERR_CVAR_SET_NEVER");
    MPI_T_cvar_handle_free(&hr);
    mt_ok(hr == MPI_T_CVAR_HANDLE_NULL, "MPI_T_cvar_handle_free sets MPI_T_CVAR_HANDLE_NULL");
    mt_is_int(MPI_T_cvar_read(hr, &iv), MPI_T_ERR_INVALID_HANDLE, "reading a freed handle: MPI_T_ERR_INVALID_HANDLE");

    /* ---- categories */
    int ncat = 0, total_c = 0, total_p = 0, npv = 0, ncv = 0;
    MPI_T_category_get_num(&ncat);
    MPI_T_cvar_get_num(&ncv);
    MPI_T_pvar_get_num(&npv);
    mt_ok(ncat >= 8, "at least 8 categories (%d)", ncat);
    for (int c = 0; c < ncat; c++) {
        int nc = 0, np_ = 0, nsub = -1;
        MPI_T_category_get_info(c, NULL, NULL, NULL, NULL, &nc, &np_, &nsub);
        total_c += nc;
        total_p += np_;
    }
    mt_ok(total_c == ncv && total_p == npv, "every variable is in one category (%d of %d, %d of %d)", total_c, ncv,
          total_p, npv);
    int cat = -1;
    mt_is_int(MPI_T_category_get_index("p2p", &cat), MPI_SUCCESS, "the category p2p");
    int nc = 0, np_ = 0, nsub = -1, found_c = 0, found_p = 0;
    len = sizeof(name);
    dlen = sizeof(desc);
    MPI_T_category_get_info(cat, name, &len, desc, &dlen, &nc, &np_, &nsub);
    mt_ok(strcmp(name, "p2p") == 0 && nsub == 0 && nc > 5 && np_ > 20, "p2p: %d control, %d performance variables",
          nc, np_);
    int ids[256];
    mt_is_int(MPI_T_category_get_cvars(cat, nc, ids), MPI_SUCCESS, "MPI_T_category_get_cvars");
    for (int i = 0; i < nc; i++)
        found_c += ids[i] == cvar_index("eager_limit");
    mt_is_int(MPI_T_category_get_pvars(cat, np_, ids), MPI_SUCCESS, "MPI_T_category_get_pvars");
    for (int i = 0; i < np_; i++)
        found_p += ids[i] == pvar_index("p2p_sent_msgs", MPI_T_PVAR_CLASS_COUNTER);
    mt_ok(found_c == 1 && found_p == 1, "p2p holds eager_limit and p2p_sent_msgs");
    mt_is_int(MPI_T_category_get_index("collectives", &cat), MPI_SUCCESS, "the category collectives");
    mt_is_int(MPI_T_category_get_num_events(cat, &n), MPI_SUCCESS, "MPI_T_category_get_num_events");
    mt_is_int(n, 0, "no events");
    mt_is_int(MPI_T_category_get_info(ncat, NULL, NULL, NULL, NULL, NULL, NULL, NULL), MPI_T_ERR_INVALID_INDEX,
              "category num_cat: MPI_T_ERR_INVALID_INDEX");
    mt_is_int(MPI_T_category_get_index("nope", &cat), MPI_T_ERR_INVALID_NAME, "an unknown category");
    mt_is_int(MPI_T_category_changed(&n), MPI_SUCCESS, "MPI_T_category_changed");

    /* ---- the source, no events */
    MPI_T_source_order order = MPI_T_SOURCE_UNORDERED;
    MPI_Count tps = 0, maxt = 0, t0 = 0, t1 = 0;
    MPI_Info sinfo = MPI_INFO_NULL;
    mt_is_int(MPI_T_source_get_num(&n), MPI_SUCCESS, "MPI_T_source_get_num");
    mt_is_int(n, 1, "one source");
    len = sizeof(name);
    MPI_T_source_get_info(0, name, &len, NULL, NULL, &order, &tps, &maxt, &sinfo);
    mt_ok(strcmp(name, "clock") == 0 && order == MPI_T_SOURCE_ORDERED && tps == 1000000000 && maxt == INT64_MAX &&
              sinfo != MPI_INFO_NULL,
          "the source: clock, ordered, 1e9 ticks a second");
    MPI_Info_free(&sinfo);
    MPI_T_source_get_timestamp(0, &t0);
    MPI_T_source_get_timestamp(0, &t1);
    mt_ok(t0 > 0 && t1 >= t0, "its timestamps do not go back");
    mt_is_int(MPI_T_source_get_timestamp(1, &t0), MPI_T_ERR_INVALID_INDEX, "source 1: MPI_T_ERR_INVALID_INDEX");
    mt_is_int(MPI_T_event_get_num(&n), MPI_SUCCESS, "MPI_T_event_get_num");
    mt_is_int(n, 0, "no events");
    MPI_T_event_registration reg;
    mt_is_int(MPI_T_event_handle_alloc(0, NULL, MPI_INFO_NULL, &reg), MPI_T_ERR_INVALID_INDEX,
              "MPI_T_event_handle_alloc(0): MPI_T_ERR_INVALID_INDEX");

    /* ---- a session made before MPI_Init */
    MPI_T_pvar_session ses = MPI_T_PVAR_SESSION_NULL, other = MPI_T_PVAR_SESSION_NULL;
    mt_is_int(MPI_T_pvar_session_create(&ses), MPI_SUCCESS, "MPI_T_pvar_session_create before MPI_Init");
    int klass = -1, ro = -1, cont = -1, atom = -1;
    MPI_T_pvar_get_info(pvar_index("p2p_sent_msgs_eager", MPI_T_PVAR_CLASS_COUNTER), name, (len = 64, &len), NULL,
                        &klass, &dt, NULL, NULL, NULL, &bind, &ro, &cont, &atom);
    mt_ok(klass == MPI_T_PVAR_CLASS_COUNTER && dt == MPI_UNSIGNED_LONG_LONG && ro == 0 && cont == 0 && atom == 1 &&
              bind == MPI_T_BIND_NO_OBJECT,
          "p2p_sent_msgs_eager: a counter, unsigned long long, writable, started by hand, atomic read-reset");
    mt_is_int(MPI_T_pvar_get_index("p2p_sent_msgs_eager", MPI_T_PVAR_CLASS_TIMER, &n), MPI_T_ERR_INVALID_NAME,
              "the right name in the wrong class: MPI_T_ERR_INVALID_NAME");

    /* ================================================================ MPI_Init */
    if (MPI_Init(&argc, &argv) != MPI_SUCCESS)
        return 2;
    int me, np;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    mt_rank = me;
    int peer = np > 1 ? 1 - me : 0, tl = np > 1 ? TL_SHM : TL_SELF;

    mt_is_int(MPI_T_cvar_write(h, &ull), MPI_T_ERR_CVAR_SET_NOT_NOW, "eager_limit once MPI is up: SET_NOT_NOW");
    MPI_T_cvar_handle hs = cvar_handle("spin_count", &count);
    MPI_Count cnt = 77;
    mt_is_int(MPI_T_cvar_write(hs, &cnt), MPI_SUCCESS, "spin_count (LIVE) := 77 once MPI is up");
    mt_is_int(cvar_read_num("spin_count"), 77, "... reads 77");
    cnt = 2000;
    MPI_T_cvar_write(hs, &cnt);
    MPI_T_cvar_handle hl = cvar_handle("log", &count);
    mt_is_int(MPI_T_cvar_write(hl, "loud"), MPI_T_ERR_INVALID, "log := loud (no such level): MPI_T_ERR_INVALID");
    cvar_read_str("log", s, sizeof(s));
    mt_ok(strcmp(s, "warn") == 0, "... log still reads warn (%s)", s);
    mt_is_int(MPI_T_cvar_write(hl, "error:p2p"), MPI_SUCCESS, "log := error:p2p");
    cvar_read_str("log", s, sizeof(s));
    mt_ok(strcmp(s, "error:p2p") == 0, "... reads error:p2p (%s)", s);
    MPI_T_cvar_write(hl, "warn");

    /* ---- exact traffic, per protocol and transport: rank 1 says go (0
     * bytes), rank 0 sends 3 x 500 B (eager under the limit of 1000
     * written before MPI_Init) and 2 x 2000 B (rendezvous by put) */
    const char *names[8] = {"p2p_sent_msgs_eager", "p2p_sent_bytes_eager", "p2p_sent_msgs_put", "p2p_sent_msgs",
                            "p2p_recv_msgs_eager", "p2p_recv_bytes_eager", "p2p_recv_msgs_put", "p2p_recv_bytes"};
    MPI_T_pvar_handle ph[8];
    for (int i = 0; i < 8; i++)
        ph[i] = pvar_handle(ses, names[i], MPI_T_PVAR_CLASS_COUNTER, NTL);
    unsigned long long v[8][NTL];
    for (int i = 0; i < 8; i++) {
        MPI_T_pvar_read(ses, ph[i], v[i]);
        check_counts(names[i], v[i], tl, 0); /* stopped since made: 0 */
    }
    for (int i = 0; i < 8; i++)
        mt_is_int(MPI_T_pvar_start(ses, ph[i]), MPI_SUCCESS, "start %s", names[i]);
    static char buf[5][2000];
    MPI_Request rq[6];
    int nrq = 0;
    if (np == 1) {
        /* to itself: the self transport */
        for (int i = 0; i < 5; i++)
            MPI_Irecv(buf[i], 2000, MPI_CHAR, 0, 10 + i, MPI_COMM_WORLD, &rq[nrq++]);
        MPI_Send(NULL, 0, MPI_CHAR, 0, 1, MPI_COMM_WORLD); /* (no receive: it stays unexpected) */
        MPI_Recv(NULL, 0, MPI_CHAR, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (int i = 0; i < 5; i++)
            MPI_Send(buf[i], i < 3 ? 500 : 2000, MPI_CHAR, 0, 10 + i, MPI_COMM_WORLD);
        MPI_Waitall(nrq, rq, MPI_STATUSES_IGNORE);
    } else if (me == 1) {
        MPI_Send(NULL, 0, MPI_CHAR, 0, 1, MPI_COMM_WORLD);
        for (int i = 0; i < 5; i++)
            MPI_Recv(buf[i], 2000, MPI_CHAR, 0, 10 + i, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        MPI_Recv(NULL, 0, MPI_CHAR, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (int i = 0; i < 5; i++)
            MPI_Send(buf[i], i < 3 ? 500 : 2000, MPI_CHAR, 1, 10 + i, MPI_COMM_WORLD);
    }
    for (int i = 0; i < 8; i++) {
        mt_is_int(MPI_T_pvar_stop(ses, ph[i]), MPI_SUCCESS, "stop %s", names[i]);
        MPI_T_pvar_read(ses, ph[i], v[i]);
    }
    int sender = np == 1 || me == 0, receiver = np == 1 || me == 1;
    check_counts("eager messages sent", v[0], tl, (sender ? 3 : 0) + (receiver ? 1 : 0));
    check_counts("eager bytes sent", v[1], tl, sender ? 1500 : 0);
    check_counts("put messages sent", v[2], tl, sender ? 2 : 0);
    check_counts("messages sent", v[3], tl, (sender ? 5 : 0) + (receiver ? 1 : 0));
    check_counts("eager messages received", v[4], tl, (receiver ? 3 : 0) + (sender ? 1 : 0));
    check_counts("eager bytes received", v[5], tl, receiver ? 1500 : 0);
    check_counts("put messages received", v[6], tl, receiver ? 2 : 0);
    check_counts("bytes received", v[7], tl, receiver ? 5500 : 0);
    /* stopped: more traffic does not count; readreset reads then zeroes */
    MPI_Barrier(MPI_COMM_WORLD);
    unsigned long long again[NTL];
    MPI_T_pvar_read(ses, ph[3], again);
    mt_ok(memcmp(again, v[3], sizeof(again)) == 0, "a stopped counter does not move");
    mt_is_int(MPI_T_pvar_readreset(ses, ph[3], again), MPI_SUCCESS, "MPI_T_pvar_readreset");
    mt_ok(memcmp(again, v[3], sizeof(again)) == 0, "... reads the value");
    MPI_T_pvar_read(ses, ph[3], again);
    check_counts("after the reset", again, tl, 0);
    unsigned long long w[NTL] = {5, 6, 7, 8, 9};
    mt_is_int(MPI_T_pvar_write(ses, ph[3], w), MPI_SUCCESS, "MPI_T_pvar_write of a counter");
    MPI_T_pvar_read(ses, ph[3], again);
    mt_ok(memcmp(again, w, sizeof(w)) == 0, "... reads what was written");
    for (int i = 0; i < 8; i++)
        MPI_T_pvar_handle_free(ses, &ph[i]);
    mt_ok(ph[0] == MPI_T_PVAR_HANDLE_NULL, "MPI_T_pvar_handle_free sets MPI_T_PVAR_HANDLE_NULL");

    /* ---- the unexpected queue: the peer sends tags 7, 7, 9; when 9 is
     * probed, all three wait in the queue (one sender's messages arrive in
     * order) */
    MPI_T_pvar_handle hu = pvar_handle(ses, "p2p_unexpected", MPI_T_PVAR_CLASS_LEVEL, 1);
    MPI_T_pvar_handle hh = pvar_handle(ses, "p2p_unexpected_hwm", MPI_T_PVAR_CLASS_HIGHWATERMARK, 1);
    unsigned long long lv = 99, hwm = 0;
    MPI_Barrier(MPI_COMM_WORLD); /* (rank 0 leaves it with the peer's part of it received) */
    MPI_T_pvar_read(ses, hu, &lv);
    if (me == 0)
        mt_is_int(lv, 0, "the unexpected queue is empty");
    if (np > 1 && me == 0)
        MPI_Send(&n, 1, MPI_INT, 1, 97, MPI_COMM_WORLD); /* (the peer waits for it, posted) */
    if (me == (np > 1 ? 1 : 0)) {
        int tags[3] = {7, 7, 9};
        if (np > 1)
            MPI_Recv(&n, 1, MPI_INT, 0, 97, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (int i = 0; i < 3; i++)
            MPI_Send(&i, 1, MPI_INT, 0, tags[i], MPI_COMM_WORLD);
        /* nothing more to rank 0 (a barrier's message would be a 4th)
         * until it has counted */
        if (np > 1)
            MPI_Recv(&n, 1, MPI_INT, 0, 98, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    if (me == 0) {
        MPI_Probe(peer, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_T_pvar_read(ses, hu, &lv);
        mt_is_int(lv, 3, "3 messages in the unexpected queue");
        for (int i = 0; i < 3; i++)
            MPI_Recv(&n, 1, MPI_INT, peer, MPI_ANY_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_T_pvar_read(ses, hu, &lv);
        mt_is_int(lv, 0, "none once they are received");
        MPI_T_pvar_read(ses, hh, &hwm);
        mt_is_int(hwm, 3, "the high-water mark is 3");
        if (np > 1)
            MPI_Send(&n, 1, MPI_INT, 1, 98, MPI_COMM_WORLD);
    }
    mt_is_int(MPI_T_pvar_start(ses, hu), MPI_T_ERR_PVAR_NO_STARTSTOP, "start a continuous variable: NO_STARTSTOP");
    mt_is_int(MPI_T_pvar_reset(ses, hh), MPI_T_ERR_PVAR_NO_WRITE, "reset a read-only one: NO_WRITE");
    mt_is_int(MPI_T_pvar_readreset(ses, hu, &lv), MPI_T_ERR_PVAR_NO_WRITE, "readreset a read-only one: NO_WRITE");
    mt_is_int(MPI_T_pvar_write(ses, hu, &lv), MPI_T_ERR_PVAR_NO_WRITE, "write a read-only one: NO_WRITE");

    /* ---- the wait timer: rank 0 waits for a message its peer sends 100 ms later */
    MPI_T_pvar_handle ht = pvar_handle(ses, "p2p_wait_time", MPI_T_PVAR_CLASS_TIMER, 1);
    double t = -1, t2 = -1;
    MPI_T_pvar_read(ses, ht, &t);
    mt_ok(t == 0.0, "a timer not started reads 0 (%g)", t);
    MPI_T_pvar_start(ses, ht);
    if (np > 1) {
        MPI_Barrier(MPI_COMM_WORLD);
        if (me == 1) {
            usleep(100000);
            MPI_Send(&n, 1, MPI_INT, 0, 3, MPI_COMM_WORLD);
        } else {
            MPI_Recv(&n, 1, MPI_INT, 1, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
    }
    MPI_T_pvar_stop(ses, ht);
    MPI_T_pvar_read(ses, ht, &t);
    if (np > 1 && me == 0)
        mt_ok(t >= 0.05 && t < 60, "rank 0 waited about 0.1 s (%g s)", t);
    MPI_T_pvar_read(ses, ht, &t2);
    mt_ok(t2 == t, "a stopped timer does not move");
    double set = 1.5;
    mt_is_int(MPI_T_pvar_write(ses, ht, &set), MPI_SUCCESS, "MPI_T_pvar_write of a timer");
    MPI_T_pvar_read(ses, ht, &t);
    mt_ok(t == 1.5, "... reads 1.5 (%g)", t);

    /* ---- the collectives' choices (RDMPI_COLL_ALLREDUCE=ring, no node paths) */
    MPI_T_pvar_handle ha = pvar_handle(ses, "coll_allreduce_algorithm", MPI_T_PVAR_CLASS_STATE, 1);
    MPI_T_pvar_handle hb = pvar_handle(ses, "coll_barrier_algorithm", MPI_T_PVAR_CLASS_STATE, 1);
    int x = 1, y = 0, st = -2;
    MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_T_pvar_read(ses, ha, &st);
    char item[128];
    if (np > 1)
        mt_ok(strcmp(enum_name_of("coll_allreduce_algorithm", st, item, sizeof(item)), "ring") == 0,
              "MPI_Allreduce ran ring (%d: %s)", st, item);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_T_pvar_read(ses, hb, &st);
    if (np > 1)
        mt_ok(strcmp(enum_name_of("coll_barrier_algorithm", st, item, sizeof(item)), "dissemination") == 0,
              "MPI_Barrier ran dissemination (%d: %s)", st, item);
    mt_ok(strcmp(enum_name_of("coll_scan_algorithm", -1, item, sizeof(item)), "none") == 0,
          "the state -1 is called none");

    /* ---- sessions and handles */
    MPI_T_pvar_session_create(&other);
    mt_is_int(MPI_T_pvar_read(other, ha, &st), MPI_T_ERR_INVALID_HANDLE, "another session's handle: INVALID_HANDLE");
    mt_is_int(MPI_T_pvar_read(ses, MPI_T_PVAR_ALL_HANDLES, &st), MPI_T_ERR_INVALID_HANDLE,
              "read MPI_T_PVAR_ALL_HANDLES: INVALID_HANDLE");
    mt_is_int(MPI_T_pvar_start(ses, MPI_T_PVAR_ALL_HANDLES), MPI_SUCCESS, "start MPI_T_PVAR_ALL_HANDLES");
    mt_is_int(MPI_T_pvar_stop(ses, MPI_T_PVAR_ALL_HANDLES), MPI_SUCCESS, "stop MPI_T_PVAR_ALL_HANDLES");
    mt_is_int(MPI_T_pvar_reset(ses, MPI_T_PVAR_ALL_HANDLES), MPI_SUCCESS, "reset MPI_T_PVAR_ALL_HANDLES");
    MPI_T_pvar_read(ses, ht, &t);
    mt_ok(t == 0.0, "... the timer is reset (%g)", t);
    mt_is_int(MPI_T_pvar_handle_alloc(ses, npv, NULL, &ph[0], &n), MPI_T_ERR_INVALID_INDEX,
              "pvar num_pvar: INVALID_INDEX");
    mt_is_int(MPI_T_pvar_session_free(&other), MPI_SUCCESS, "MPI_T_pvar_session_free");
    mt_ok(other == MPI_T_PVAR_SESSION_NULL, "... sets MPI_T_PVAR_SESSION_NULL");
    mt_is_int(MPI_T_pvar_session_free(&other), MPI_T_ERR_INVALID_SESSION, "freeing it again: INVALID_SESSION");
    mt_is_int(MPI_T_pvar_handle_alloc(other, 0, NULL, &ph[0], &n), MPI_T_ERR_INVALID_SESSION,
              "a handle in no session: INVALID_SESSION");
    MPI_T_pvar_session_free(&ses); /* (its handles go with it) */

    /* ---- MPI_T_finalize counts the inits */
    MPI_T_cvar_handle_free(&h);
    mt_is_int(MPI_T_finalize(), MPI_SUCCESS, "MPI_T_finalize (1 of 2)");
    mt_is_int(MPI_T_cvar_get_num(&n), MPI_SUCCESS, "MPI_T still works");
    mt_is_int(MPI_T_finalize(), MPI_SUCCESS, "MPI_T_finalize (2 of 2)");
    mt_is_int(MPI_T_cvar_read(hp, &iv), MPI_T_ERR_NOT_INITIALIZED, "a handle after the last MPI_T_finalize");
    mt_is_int(MPI_T_finalize(), MPI_T_ERR_NOT_INITIALIZED, "a third MPI_T_finalize");

    int fails = mt_failed;
    MPI_Finalize();

    /* ================================================================ after MPI_Finalize */
    mt_is_int(MPI_T_init_thread(MPI_THREAD_SINGLE, &prov), MPI_SUCCESS, "MPI_T_init_thread after MPI_Finalize");
    mt_is_int(cvar_read_num("rndv_protocol"), 1, "rndv_protocol still reads put");
    MPI_T_finalize();
    (void)fails;
    printf("done [rank %d] %d checks, %d failed\n", mt_rank, mt_checks, mt_failed);
    return mt_failed ? 1 : 0;
}
