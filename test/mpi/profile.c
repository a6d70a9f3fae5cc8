/* MPI test: the profiling interface. This program defines its own
 * MPI_Comm_rank and MPI_Init that count calls and forward to PMPI_, and an
 * MPI_Pcontrol that records the level the program asks for (what a tool
 * does with it; the library's own does nothing, as the standard says). */
#include <stdarg.h>

#include "test/mpi/mtest.h"

static int rank_calls, init_calls, pcontrol_level = -1, pcontrol_extra = -1;

int MPI_Pcontrol(const int level, ...)
{
    pcontrol_level = level;
    if (level == 7) { /* this tool's convention: level 7 carries an int */
        va_list ap;
        va_start(ap, level);
        pcontrol_extra = va_arg(ap, int);
        va_end(ap);
    }
    return PMPI_Pcontrol(level);
}

int MPI_Init(int *argc, char ***argv)
{
    init_calls++;
    return PMPI_Init(argc, argv);
}

int MPI_Comm_rank(MPI_Comm comm, int *rank)
{
    rank_calls++;
    return PMPI_Comm_rank(comm, rank);
}

int main(int argc, char **argv)
{
    int r = -1, pr = -1;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    PMPI_Comm_rank(MPI_COMM_WORLD, &pr);
    mt_rank = r;
    mt_is_int(init_calls, 1, "the tool's MPI_Init wrapper ran once");
    mt_is_int(rank_calls, 1, "the tool's MPI_Comm_rank wrapper ran once (not for PMPI_)");
    mt_is_int(r, pr, "the wrapper returns PMPI_Comm_rank's value");
    mt_is_int(MPI_Pcontrol(0), MPI_SUCCESS, "MPI_Pcontrol(0) through the tool: MPI_SUCCESS");
    mt_is_int(pcontrol_level, 0, "the tool saw level 0");
    mt_is_int(MPI_Pcontrol(7, 1234), MPI_SUCCESS, "MPI_Pcontrol(7, 1234): MPI_SUCCESS");
    mt_ok(pcontrol_level == 7 && pcontrol_extra == 1234, "the tool saw level 7 and its argument 1234");
    mt_is_int(PMPI_Pcontrol(2, "anything"), MPI_SUCCESS, "PMPI_Pcontrol itself: MPI_SUCCESS");
    MPI_Finalize();
    mt_is_int(rank_calls, 1, "the library made no call through MPI_Comm_rank itself");
    return mt_done();
}
