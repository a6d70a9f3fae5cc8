/* report.h - what this rank waits for, told to the launcher on request.
 *
 * A job that hangs (a deadlock, a rank that stopped) is diagnosed by rrun:
 * on --timeout, on SIGUSR1 or `rrun --report-pending PID`, it asks every
 * rank what it is waiting in and prints one report (launcher/rrun/
 * report.c). The question and the answers go through a file in rrun's
 * session directory that rrun and its ranks map: a header whose `seq` rrun
 * raises to ask, and one slot per rank of the host (RDMPI_RRUN_REPORT =
 * "PATH:SLOT"). A rank answers from inside its waits (rd_wait_step polls
 * one word), so a rank that is not waiting in MPI does not answer, and
 * that is itself the answer; no signal reaches the program.
 *
 * The answer is text, one item per line, each line starting with a key:
 *   "C NAME"        the MPI call the rank is in
 *   "W RANK TEXT"   it waits for world rank RANK (TEXT says for what)
 *   "I TEXT"        anything else worth saying (unexpected messages...)
 * Each floor registers a function that adds what it knows (requests in
 * flight, unexpected messages, node-local collectives), so that this
 * service calls no floor above it.
 *
 * `state` is written without being asked: what the rank is blocked in
 * where it cannot answer (a PMIx fence in MPI_Init or MPI_Finalize). */
#ifndef RD_REPORT_H
#define RD_REPORT_H

#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#define RD_REPORT_SLOT_BYTES 16384
#define RD_REPORT_HEAD_BYTES 128

struct rd_report_slot {
    _Atomic uint32_t answered; /* the seq this slot's text answers */
    _Atomic uint32_t len;      /* bytes of text */
    _Atomic uint32_t present;  /* 1 from MPI_Init to MPI_Finalize: it can answer */
    char state[116];           /* "" or what the rank is blocked in */
    char text[RD_REPORT_SLOT_BYTES - 128];
};

struct rd_report_file {
    _Atomic uint32_t seq; /* raised by rrun to ask */
    uint32_t nslots;
    char pad[RD_REPORT_HEAD_BYTES - 8];
    struct rd_report_slot slot[];
};

/* ---------------------------------------------------------- in the rank */
struct rd_report_buf {
    char *p;
    size_t len, cap;
};
void rd_report_printf(struct rd_report_buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void rd_report_vprintf(struct rd_report_buf *b, const char *fmt, va_list ap)
    __attribute__((format(printf, 2, 0)));

typedef void (*rd_report_fn)(struct rd_report_buf *b);
/* A floor's contribution to every answer (at most 8; a network transport's
 * plug-in registers through struct rd_tl_host). */
void rd_report_register(rd_report_fn fn);

/* At MPI_Init: map this rank's slot when the launcher asked for reports. */
void rd_report_init(void);
void rd_report_fini(void);

extern struct rd_report_file *rd_report_file;
extern uint32_t rd_report_answered;
void rd_report_answer(void);
/* Called from every wait: answers a pending question (one load if none). */
static inline void rd_report_poll(void)
{
    if (rd_report_file != NULL &&
        atomic_load_explicit(&rd_report_file->seq, memory_order_relaxed) != rd_report_answered)
        rd_report_answer();
}
/* What the rank is blocked in where it cannot answer; NULL: nothing. */
void rd_report_state(const char *what);

#endif
