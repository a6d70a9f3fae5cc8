# launcher/: the compiler wrappers rdmpicc / rdmpicxx and rdmpi_info
# (rrun has its own launcher/rrun/local.mk).
EXTRA_DIST += launcher/README.md

# ---------------------------------------------------------------- rdmpi_info
bin_PROGRAMS += launcher/rdmpi_info
launcher_rdmpi_info_SOURCES = launcher/rdmpi_info.c
# The optional libraries configure found, as their link flags (empty: not found).
launcher_rdmpi_info_CPPFLAGS = $(AM_CPPFLAGS) $(PMIX_CFLAGS) \
	-DRD_INFO_UCX_LIBS='"$(UCX_LIBS)"' -DRD_INFO_OFI_LIBS='"$(OFI_LIBS)"' \
	-DRD_INFO_IBVERBS_LIBS='"$(IBVERBS_LIBS)"' -DRD_INFO_RDMACM_LIBS='"$(RDMACM_LIBS)"' \
	-DRD_INFO_UCM_LIBS='"$(UCM_LIBS)"'
# (librdmpi: --mpit reads the variables through MPI_T, as any tool would)
launcher_rdmpi_info_LDADD = librdutil.la librdmpi.la
# (installed anywhere, e.g. make install prefix=...: librdmpi beside it, in ../lib)
launcher_rdmpi_info_LDFLAGS = $(AM_LDFLAGS) -Wl,-rpath,'$$ORIGIN/../lib'

# ---------------------------------------------------------------- rdmpicc, rdmpicxx, rdmpifort
# One template, launcher/rdmpicc.in, makes each wrapper twice:
#  - launcher/rdmpicc, launcher/rdmpicxx: for the build tree (mpi.h from the
#    source tree, mpif.h from the build tree's runtime/fortran, the
#    libraries from the build tree's .libs); made by `make`, not
#    installed; tests find them first in PATH.
#  - launcher/inst/rdmpicc, launcher/inst/rdmpicxx: installed in $(bindir), with
#    the install paths. They are remade at every make run (cheaply, rewritten
#    only when they change, through a temporary file of the make run's own: two
#    makes in one tree, as quickstart check runs, each remake them), so that
#    `make install prefix=...` gets the paths of
#    that prefix; DESTDIR is not part of them.
rd_wrappers_build = launcher/rdmpicc launcher/rdmpicxx
rd_wrappers_inst = launcher/inst/rdmpicc launcher/inst/rdmpicxx
noinst_SCRIPTS += $(rd_wrappers_build)
bin_SCRIPTS += $(rd_wrappers_inst)
EXTRA_DIST += launcher/rdmpicc.in
CLEANFILES += $(rd_wrappers_build) $(rd_wrappers_inst)

# rdmpifort (with --enable-fortran) also answers to rdmpif90 and rdmpif77,
# symbolic links made beside it in both places.
rd_fort_links =
if RD_FORTRAN
rd_wrappers_build += launcher/rdmpifort launcher/rdmpif90 launcher/rdmpif77
rd_wrappers_inst += launcher/inst/rdmpifort
rd_fort_links += rdmpif90 rdmpif77
endif

# The shell variables wname, wlang, wenv, wcomp, wlibs, wflags, wincdir, wlibdir choose
# the wrapper.
rd_wrapper_edit = sed \
	-e "s|@RD_VERSION@|$(PACKAGE_VERSION)|g" \
	-e "s|@RD_WRAPPER_NAME@|$$wname|g" \
	-e "s|@RD_WRAPPER_LANG@|$$wlang|g" \
	-e "s|@RD_WRAPPER_ENV@|$$wenv|g" \
	-e "s|@RD_WRAPPER_COMPILER@|$$wcomp|g" \
	-e "s|@RD_WRAPPER_INCDIR@|$$wincdir|g" \
	-e "s|@RD_WRAPPER_LIBDIR@|$$wlibdir|g" \
	-e "s|@RD_WRAPPER_LIBS@|$$wlibs|g" \
	-e "s|@RD_WRAPPER_FLAGS@|$$wflags|g" \
	-e "s|@RD_WRAPPER_EXTRA@|$(RD_SAN_FLAGS)|g" \
	$(srcdir)/launcher/rdmpicc.in
rd_wrapper_cc = wname=rdmpicc; wlang=C; wenv=RDMPI_CC; wcomp='$(CC)'; wlibs=rdmpi; wflags=
rd_wrapper_cxx = wname=rdmpicxx; wlang=C++; wenv=RDMPI_CXX; wcomp='$(CXX)'; wlibs=rdmpi; wflags=
rd_wrapper_fort = wname=rdmpifort; wlang=Fortran; wenv=RDMPI_FC; wcomp='$(FC)'; wlibs='rdmpifort rdmpi'; \
	wflags='$(RD_FC_WRAPPER_FLAGS)'
rd_wrapper_build_dirs = wincdir=`cd '$(top_srcdir)/include' && pwd`; wlibdir='$(abs_top_builddir)/.libs'
rd_wrapper_fort_build_dirs = wincdir='$(abs_top_builddir)/runtime/fortran'; wlibdir='$(abs_top_builddir)/.libs'
rd_wrapper_inst_dirs = wincdir='$(includedir)'; wlibdir='$(libdir)'

launcher/rdmpicc: $(srcdir)/launcher/rdmpicc.in Makefile
	$(AM_V_GEN)$(MKDIR_P) launcher && $(rd_wrapper_cc); $(rd_wrapper_build_dirs); \
	$(rd_wrapper_edit) > $@.tmp$$$$ && chmod +x $@.tmp$$$$ && mv -f $@.tmp$$$$ $@
launcher/rdmpicxx: $(srcdir)/launcher/rdmpicc.in Makefile
	$(AM_V_GEN)$(MKDIR_P) launcher && $(rd_wrapper_cxx); $(rd_wrapper_build_dirs); \
	$(rd_wrapper_edit) > $@.tmp$$$$ && chmod +x $@.tmp$$$$ && mv -f $@.tmp$$$$ $@
launcher/rdmpifort: $(srcdir)/launcher/rdmpicc.in Makefile
	$(AM_V_GEN)$(MKDIR_P) launcher && $(rd_wrapper_fort); $(rd_wrapper_fort_build_dirs); \
	$(rd_wrapper_edit) > $@.tmp$$$$ && chmod +x $@.tmp$$$$ && mv -f $@.tmp$$$$ $@
launcher/rdmpif90 launcher/rdmpif77: launcher/rdmpifort
	$(AM_V_GEN)rm -f $@ && $(LN_S) rdmpifort $@

# Remade every time (see above); touched only when the text changes.
launcher/inst/rdmpicc: $(srcdir)/launcher/rdmpicc.in Makefile rd-wrappers-force
	@$(MKDIR_P) launcher/inst && $(rd_wrapper_cc); $(rd_wrapper_inst_dirs); \
	$(rd_wrapper_edit) > $@.tmp$$$$ && chmod +x $@.tmp$$$$ && \
	if cmp -s $@.tmp$$$$ $@; then rm -f $@.tmp$$$$; else echo "  GEN      $@"; mv -f $@.tmp$$$$ $@; fi
launcher/inst/rdmpicxx: $(srcdir)/launcher/rdmpicc.in Makefile rd-wrappers-force
	@$(MKDIR_P) launcher/inst && $(rd_wrapper_cxx); $(rd_wrapper_inst_dirs); \
	$(rd_wrapper_edit) > $@.tmp$$$$ && chmod +x $@.tmp$$$$ && \
	if cmp -s $@.tmp$$$$ $@; then rm -f $@.tmp$$$$; else echo "  GEN      $@"; mv -f $@.tmp$$$$ $@; fi
rd-wrappers-force:
.PHONY: rd-wrappers-force
launcher/inst/rdmpifort: $(srcdir)/launcher/rdmpicc.in Makefile rd-wrappers-force
	@$(MKDIR_P) launcher/inst && $(rd_wrapper_fort); $(rd_wrapper_inst_dirs); \
	$(rd_wrapper_edit) > $@.tmp$$$$ && chmod +x $@.tmp$$$$ && \
	if cmp -s $@.tmp$$$$ $@; then rm -f $@.tmp$$$$; else echo "  GEN      $@"; mv -f $@.tmp$$$$ $@; fi
# rdmpif90 and rdmpif77 beside the installed rdmpifort
install-exec-hook:
	@for l in $(rd_fort_links); do \
		echo " $(LN_S) rdmpifort '$(DESTDIR)$(bindir)/'$$l"; \
		(cd '$(DESTDIR)$(bindir)' && rm -f $$l && $(LN_S) rdmpifort $$l) || exit 1; \
	done
uninstall-hook:
	@for l in $(rd_fort_links); do rm -f '$(DESTDIR)$(bindir)/'$$l; done
