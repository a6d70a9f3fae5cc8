# collectives/: nothing is built here yet (see ARCHITECTURE.md).
EXTRA_DIST += collectives/README.md
