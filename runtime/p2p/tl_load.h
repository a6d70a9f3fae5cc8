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
};

extern const struct rd_tl_entry rd_tl_entries[];
extern const int rd_tl_nentries;

/* The entry's transport: built in, or its plug-in loaded now; NULL when
 * the plug-in is missing or does not load (logged). */
const struct rd_transport *rd_tl_get(const struct rd_tl_entry *e);

/* Around loading and opening transports: the fatal-signal handlers in
 * place before are put back after (see tl_load.c). */
void rd_tl_signals_save(void);
void rd_tl_signals_restore(void);

#endif
