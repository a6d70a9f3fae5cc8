# collectives/: algorithms as schedules on the p2p engine (see collectives/README.md).
librdmpi_la_SOURCES += \
	collectives/agree.c collectives/agree.h collectives/persist.c collectives/persist.h collectives/sched.c collectives/sched.h collectives/algorithms.h collectives/select.c \
	collectives/util.c collectives/barrier.c collectives/bcast.c collectives/reduce.c \
	collectives/redscat.c collectives/scan.c collectives/gather.c collectives/alltoall.c \
	collectives/neighbor.c collectives/shmcoll.c collectives/shmcoll.h collectives/shmdirect.c collectives/shmdirect.h collectives/shmdirect_reduce.c collectives/shmdirect_rooted.c collectives/hier.c collectives/inter.c runtime/api/coll.c runtime/api/comm_idup.c
EXTRA_DIST += collectives/README.md
