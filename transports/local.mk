# transports/: nothing is built here yet (see ARCHITECTURE.md).
EXTRA_DIST += transports/README.md
