/* Windows as objects: MPI_Win_create/free, group, names, predefined and
 * user attributes with their delete callbacks, error handlers made for
 * windows, and the error classes of bad arguments. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "mtest.h"

static int deleted, del_value, handler_calls, handler_code;

static int del_fn(MPI_Win w, int k, void *v, void *extra)
{
    (void)w, (void)k;
    deleted++;
    del_value = *(int *)v + *(int *)extra;
    return MPI_SUCCESS;
}

static void win_handler(MPI_Win *w, int *code, ...)
{
    (void)w;
    handler_calls++;
    handler_code = *code;
}

int main(int argc, char **argv)
{
    int rank, size, buf[16], cls;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    mt_rank = rank;
    MPI_Win win;
    mt_is_int(MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win), MPI_SUCCESS,
              "Win_create");
    void *base;
    MPI_Aint *wsize;
    int *unit, *flavor, *model, flag = 0;
    MPI_Win_get_attr(win, MPI_WIN_BASE, &base, &flag);
    mt_ok(flag && base == buf, "MPI_WIN_BASE is the window's base");
    MPI_Win_get_attr(win, MPI_WIN_SIZE, &wsize, &flag);
    mt_ok(flag && *wsize == (MPI_Aint)sizeof buf, "MPI_WIN_SIZE is %d", (int)sizeof buf);
    MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, &unit, &flag);
    mt_ok(flag && *unit == (int)sizeof(int), "MPI_WIN_DISP_UNIT is sizeof(int)");
    MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &flavor, &flag);
    mt_ok(flag && *flavor == MPI_WIN_FLAVOR_CREATE, "MPI_WIN_CREATE_FLAVOR is MPI_WIN_FLAVOR_CREATE");
    MPI_Win_get_attr(win, MPI_WIN_MODEL, &model, &flag);
    mt_ok(flag && *model == MPI_WIN_UNIFIED, "MPI_WIN_MODEL is MPI_WIN_UNIFIED");

    MPI_Group g, wg;
    int res;
    MPI_Win_get_group(win, &g);
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    MPI_Group_compare(g, wg, &res);
    mt_is_int(res, MPI_IDENT, "Win_get_group is MPI_COMM_WORLD's group");
    MPI_Group_free(&g);
    MPI_Group_free(&wg);

    char name[MPI_MAX_OBJECT_NAME];
    int len = -1;
    MPI_Win_get_name(win, name, &len);
    mt_ok(len == 0 && name[0] == 0, "a new window's name is empty");
    MPI_Win_set_name(win, "halo");
    MPI_Win_get_name(win, name, &len);
    mt_ok(len == 4 && strcmp(name, "halo") == 0, "Win_set_name / Win_get_name");

    int key, extra = 100, value = 7, *got = NULL;
    MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, del_fn, &key, &extra);
    MPI_Win_set_attr(win, key, &value);
    MPI_Win_get_attr(win, key, &got, &flag);
    mt_ok(flag && got == &value, "Win_set_attr / Win_get_attr");
    int other = 8;
    MPI_Win_set_attr(win, key, &other); /* replaces: the old value is deleted */
    mt_is_int(deleted, 1, "replacing an attribute calls its delete callback once");
    mt_is_int(del_value, 107, "the delete callback gets the old value and the extra state");
    MPI_Win_delete_attr(win, key);
    mt_is_int(deleted, 2, "Win_delete_attr calls the delete callback");
    MPI_Win_get_attr(win, key, &got, &flag);
    mt_is_int(flag, 0, "a deleted attribute is gone");
    MPI_Win_set_attr(win, key, &value);
    MPI_Win_free_keyval(&key);
    mt_is_int(key, MPI_KEYVAL_INVALID, "Win_free_keyval resets the keyval");

    MPI_Errhandler eh, got_eh;
    MPI_Win_create_errhandler(win_handler, &eh);
    MPI_Win_set_errhandler(win, eh);
    MPI_Win_get_errhandler(win, &got_eh);
    mt_ok(got_eh == eh, "Win_get_errhandler returns the handler set");
    MPI_Errhandler_free(&got_eh);
    MPI_Win_call_errhandler(win, MPI_ERR_OTHER);
    mt_ok(handler_calls == 1 && handler_code == MPI_ERR_OTHER, "Win_call_errhandler calls it with the code");
    /* an error in a window call goes to the window's handler */
    int rc = MPI_Win_set_attr(win, 12345, &value);
    mt_ok(handler_calls == 2 && handler_code == MPI_ERR_KEYVAL, "a bad keyval reaches the window's handler");
    MPI_Error_class(rc, &cls);
    mt_is_int(cls, MPI_ERR_KEYVAL, "Win_set_attr with a bad keyval: MPI_ERR_KEYVAL");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    rc = MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh);
    MPI_Error_class(rc, &cls);
    mt_is_int(cls, MPI_ERR_ARG, "a window's handler on a communicator: MPI_ERR_ARG");
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    MPI_Errhandler_free(&eh);

    rc = MPI_Win_free(&win);
    mt_ok(rc == MPI_SUCCESS && win == MPI_WIN_NULL, "Win_free sets MPI_WIN_NULL");
    mt_is_int(deleted, 3, "Win_free deletes the remaining attribute (through a freed keyval)");

    MPI_Win bad;
    rc = MPI_Win_create(buf, -1, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &bad);
    MPI_Error_class(rc, &cls);
    mt_is_int(cls, MPI_ERR_SIZE, "negative size: MPI_ERR_SIZE");
    rc = MPI_Win_create(buf, 4, 0, MPI_INFO_NULL, MPI_COMM_WORLD, &bad);
    MPI_Error_class(rc, &cls);
    mt_is_int(cls, MPI_ERR_DISP, "disp_unit 0: MPI_ERR_DISP");
    rc = MPI_Win_set_name(MPI_WIN_NULL, "x");
    MPI_Error_class(rc, &cls);
    mt_is_int(cls, MPI_ERR_WIN, "MPI_WIN_NULL: MPI_ERR_WIN");
    MPI_Finalize();
    return mt_done();
}
