# transports/: the contract (transport.h) and its backends.
# self: a rank to itself; shm: ranks of one node (rings + Cross Memory Attach).
RD_TL_SELF_SOURCES = transports/transport.h transports/self/self.c
RD_TL_SHM_SOURCES = \
	transports/shm/shm.c \
	transports/shm/shm_ring.c transports/shm/shm_ring.h \
	transports/shm/shm_segment.c transports/shm/shm_segment.h \
	transports/shm/shm_cma.c transports/shm/shm_cma.h \
	transports/shm/shm_xmap.c transports/shm/shm_xmap.h \
	runtime/nodemem.c runtime/nodemem.h
librdmpi_la_SOURCES += $(RD_TL_SELF_SOURCES) $(RD_TL_SHM_SOURCES)
EXTRA_DIST += transports/README.md

# ucx: UCP active messages and RMA (when configure found UCX)
if HAVE_UCX
librdmpi_la_SOURCES += transports/ucx/ucx.c
librdmpi_la_CFLAGS += $(UCX_CFLAGS)
librdmpi_la_LIBADD += $(UCX_LIBS)
endif

# ofi: libfabric RDM endpoints (when configure found libfabric)
if HAVE_OFI
librdmpi_la_SOURCES += transports/ofi/ofi.c
librdmpi_la_CFLAGS += $(OFI_CFLAGS)
librdmpi_la_LIBADD += $(OFI_LIBS)
endif

# verbs: libibverbs RC queue pairs, librdmacm for iWARP (when configure found
# rdma-core); hwloc picks the nearest device; libucm invalidates the
# registration cache
RD_TL_VERBS_SOURCES = \
	transports/verbs/verbs.c transports/verbs/verbs.h \
	transports/verbs/verbs_dev.c transports/verbs/verbs_wire.c \
	transports/verbs/verbs_data.c \
	transports/verbs/verbs_rcache.c transports/verbs/verbs_rcache.h
if HAVE_VERBS
librdmpi_la_SOURCES += $(RD_TL_VERBS_SOURCES)
librdmpi_la_CFLAGS += $(IBVERBS_CFLAGS) $(RDMACM_CFLAGS) $(HWLOC_CFLAGS)
librdmpi_la_LIBADD += $(IBVERBS_LIBS) $(RDMACM_LIBS) $(HWLOC_LIBS)
endif
# libucm's memory events: the verbs registration cache and shm_xmap.c
librdmpi_la_LIBADD += $(UCM_LIBS)
