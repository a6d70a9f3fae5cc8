/* Unit test: finding world ranks in large groups (the sorted index) and in
 * small ones (the scan) gives the same answers. */
#include <stdlib.h>

#include "runtime/objects/group.h"
#include "test/tap.h"

int main(void)
{
    enum { N = 100000 };
    /* members: world ranks 3*i+1 in a scrambled order */
    struct rd_group_s *g = rd_group_alloc(N);
    tap_ok(g != NULL, "allocate a group of %d", N);
    for (int i = 0; i < N; i++)
        g->ranks[i] = (int)(((long long)i * 7919) % N) * 3 + 1;
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += rd_group_find(g, g->ranks[i]) != i;
    tap_is_int(bad, 0, "every member is found at its rank");
    int stray = 0;
    for (int w = 0; w < 3 * N + 3; w += 3)
        stray += rd_group_find(g, w) != -1 || rd_group_find(g, w + 2) != -1;
    tap_is_int(stray, 0, "non-members are not found");
    tap_is_int(rd_group_find(g, -5), -1, "a negative world rank is not found");

    struct rd_group_s *small = rd_group_alloc(3);
    small->ranks[0] = 9, small->ranks[1] = 4, small->ranks[2] = 7;
    tap_is_int(rd_group_find(small, 4), 1, "small group: scan finds 4 at 1");
    tap_is_int(rd_group_find(small, 5), -1, "small group: 5 is not a member");

    struct rd_group_s *id = rd_group_identity(N);
    tap_is_int(rd_group_find(id, N - 1), N - 1, "identity group: last member");
    tap_is_int(rd_group_find(id, N), -1, "identity group: world rank N is not a member");
    rd_group_release(g);
    rd_group_release(small);
    rd_group_release(id);
    return tap_done();
}
