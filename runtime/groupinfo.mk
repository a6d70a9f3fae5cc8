# groups, info objects and Dims_create (runtime/group.c, runtime/info.c) and their tests
