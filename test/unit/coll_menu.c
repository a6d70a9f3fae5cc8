/* The collectives' algorithm menus list their algorithms in the order of
 * their RDMPI_COLL_* parameters' choices, and the selection table names
 * only algorithms on the menus (a forced choice must run what it names). */
#include <stdio.h>

#include "collectives/algorithms.h"
#include "test/tap.h"

int main(void)
{
    printf("1..1\n");
    int bad = rd_coll_check_menus();
    tap_ok(bad == 0, "every menu matches its parameter and every table row its menu (%d mismatches)", bad);
    return tap_failed != 0;
}
