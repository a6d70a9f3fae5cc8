# examples/: small programs for users; built with the library, run by ./quickstart.
noinst_PROGRAMS += examples/hello
examples_hello_SOURCES = examples/hello.c
examples_hello_LDADD = librdmpi.la
examples_hello_LDFLAGS = -no-install $(AM_LDFLAGS)
