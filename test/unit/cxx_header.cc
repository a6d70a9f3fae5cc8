// Unit test: mpi.h compiles as C++ and its functions link with C linkage.
#include <mpi.h>

#include <cstdio>
#include <cstring>

int main()
{
    int v = 0, sv = 0, flag = -1;
    int rc = MPI_Get_version(&v, &sv);
    MPI_Initialized(&flag);
    MPI_Comm c = MPI_COMM_WORLD;
    MPI_Errhandler e = MPI_ERRORS_RETURN;
    std::printf("%sok 1 - MPI_Get_version from C++\n", rc == MPI_SUCCESS && v == 3 && sv == 1 ? "" : "not ");
    std::printf("%sok 2 - MPI_Initialized from C++\n", flag == 0 ? "" : "not ");
    std::printf("%sok 3 - handles are distinct constants\n",
                c != MPI_COMM_SELF && c != MPI_COMM_NULL && e != MPI_ERRORS_ARE_FATAL ? "" : "not ");
    std::printf("1..3\n");
    return 0;
}
