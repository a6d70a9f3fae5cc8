/* tl_load.h - the transports the engine can use, built in or plug-ins. */
#ifndef RD_TL_LOAD_H
#define RD_TL_LOAD_H

struct rd_transport;

struct rd_tl_entry {
    const char *name;
    const struct rd_transport *builtin; /* NULL: the plug-in rdmpi_tl_NAME.so */
    /* known before loading: the engine decides on them without loading */
    int network;        /* opened only when asked for, or when a peer is on another node */
    int activate_fence; /* the job fences again after activate() (verbs) */
    int reach;          /* the ranks it can carry: RD_TL_REACH_* */
};

enum { RD_TL_REACH_SELF, RD_TL_REACH_NODE, RD_TL_REACH_ALL };

extern const struct rd_tl_entry rd_tl_entries[];
extern const int rd_tl_nentries;

/* The entry's transport: built in, or its plug-in loaded now; NULL when
 * the plug-in is missing or does not load (logged). */
const struct rd_transport *rd_tl_get(const struct rd_tl_entry *e);

/* The peers the engine tells transport e at open (transport.h): the
 * world ranks e can reach that `claimed` (job.size bytes) does not hold
 * yet, into peers (job.size bytes). Once e opened, rd_tl_claim marks them
 * claimed, so that the next transport in the engine's order gets the
 * rest: what the engine's choice of a transport per peer (the first in
 * that order that reaches it) will give each one. */
void rd_tl_peers(const struct rd_tl_entry *e, const unsigned char *claimed, unsigned char *peers);
void rd_tl_claim(unsigned char *claimed, const unsigned char *peers);

/* Around loading and opening transports: the fatal-signal handlers in
 * place before are put back after (see tl_load.c). */
void rd_tl_signals_save(void);
void rd_tl_signals_restore(void);

#endif
