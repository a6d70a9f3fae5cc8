/* dtx32.h - the external32 data representation (MPI-3.1 13.5.2) of
 * datatypes: big-endian, IEEE formats, the standard's sizes (table 13.2). */
#ifndef RD_DTX32_H
#define RD_DTX32_H

#include <mpi.h>
#include <stddef.h>

/* external32 bytes of one element of dt */
size_t rd_dtx32_size(MPI_Datatype dt);
/* count elements of dt at buf to external32 bytes at ext (unpack: back);
 * 0, or MPI_ERR_INTERN for a basic type without an external32 form */
int rd_dtx32_convert(MPI_Datatype dt, size_t count, void *buf, void *ext, int unpack);
/* a basic type's external32 size, -1 when it has none */
int rd_dtx32_basic_size(MPI_Datatype basic);
/* the table of basic types with an external32 form: how many, the i-th */
size_t rd_dtx32_ntypes(void);
MPI_Datatype rd_dtx32_type(size_t i);

#endif
