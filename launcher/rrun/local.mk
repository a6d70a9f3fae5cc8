# rrun: the job launcher, a PMIx server built on libpmix's server API.
bin_PROGRAMS += launcher/rrun/rrun
launcher_rrun_rrun_SOURCES = \
	launcher/rrun/rrun.h \
	launcher/rrun/main.c \
	launcher/rrun/job.c \
	launcher/rrun/guard.c \
	launcher/rrun/options.c \
	launcher/rrun/session.c \
	launcher/rrun/teardown.c \
	launcher/rrun/report.c \
	launcher/rrun/binding.c \
	launcher/rrun/server.c \
	launcher/rrun/names.h \
	launcher/rrun/names.c \
	launcher/rrun/spawn.c \
	launcher/rrun/iof.c \
	launcher/rrun/chan.c \
	launcher/rrun/hosts.c \
	launcher/rrun/head.c \
	launcher/rrun/daemon.c \
	launcher/rrun/supervise.c
launcher_rrun_rrun_CFLAGS = $(AM_CFLAGS) $(PMIX_CFLAGS) $(HWLOC_CFLAGS)
launcher_rrun_rrun_LDADD = librdutil.la $(PMIX_LIBS) $(HWLOC_LIBS) -levent_core $(AX_PTHREAD_LIBS)
# a sanitizer build: LeakSanitizer's suppressions of libpmix's and the
# other third-party libraries' leaks, as in librdmpi (runtime/local.mk)
if RD_SANITIZE
launcher_rrun_rrun_SOURCES += runtime/base/sanitizer.c
nodist_launcher_rrun_rrun_SOURCES = runtime/base/lsan_supp.h
endif
