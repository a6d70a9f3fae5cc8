! f77_p2p.f - mpif.h in fixed source form, 2 ranks: MPI_INITIALIZED,
! MPI_INIT, rank and size, MPI_SEND / MPI_RECV with a status array
! (MPI_SOURCE, MPI_TAG, MPI_GET_COUNT) and with MPI_STATUS_IGNORE,
! MPI_SENDRECV, MPI_BCAST, MPI_BARRIER, MPI_WTIME / MPI_WTICK,
! MPI_FINALIZE and MPI_FINALIZED. Exact values throughout.
      PROGRAM F77P2P
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER IERR, RANK, NP, PEER, I, N, NBAD
      INTEGER ST(MPI_STATUS_SIZE)
      INTEGER BUF(10), RBUF(10), B(4)
      DOUBLE PRECISION D(3), T0, T1
      LOGICAL BEFORE, AFTER, FIN

      BEFORE = .TRUE.
      CALL MPI_INITIALIZED(BEFORE, IERR)
      CALL MT_START(RANK, NP)
      CALL MT_OK(.NOT. BEFORE, 'MPI_INITIALIZED before MPI_INIT')
      CALL MPI_INITIALIZED(AFTER, IERR)
      CALL MT_OK(AFTER, 'MPI_INITIALIZED after MPI_INIT')
      CALL MT_IS_INT(NP, 2, 'MPI_COMM_SIZE of MPI_COMM_WORLD')
      PEER = 1 - RANK
      T0 = MPI_WTIME()

! ---- MPI_SEND / MPI_RECV with a status, any source and tag
      DO 10 I = 1, 10
         BUF(I) = 100 + I
         RBUF(I) = -1
   10 CONTINUE
      IF (RANK .EQ. 0) THEN
         CALL MPI_SEND(BUF, 10, MPI_INTEGER, 1, 7, MPI_COMM_WORLD,
     &                 IERR)
         CALL MT_IS_INT(IERR, MPI_SUCCESS, 'MPI_SEND of 10 INTEGERs')
      ELSE
         CALL MPI_RECV(RBUF, 10, MPI_INTEGER, MPI_ANY_SOURCE,
     &                 MPI_ANY_TAG, MPI_COMM_WORLD, ST, IERR)
         CALL MT_IS_INT(IERR, MPI_SUCCESS, 'MPI_RECV of 10 INTEGERs')
         NBAD = 0
         DO 20 I = 1, 10
            IF (RBUF(I) .NE. 100 + I) NBAD = NBAD + 1
   20    CONTINUE
         CALL MT_IS_INT(NBAD, 0, 'MPI_RECV: the 10 values')
         CALL MT_IS_INT(ST(MPI_SOURCE), 0, 'status(MPI_SOURCE)')
         CALL MT_IS_INT(ST(MPI_TAG), 7, 'status(MPI_TAG)')
         CALL MPI_GET_COUNT(ST, MPI_INTEGER, N, IERR)
         CALL MT_IS_INT(N, 10, 'MPI_GET_COUNT in INTEGERs')
         CALL MPI_GET_COUNT(ST, MPI_DOUBLE_PRECISION, N, IERR)
         CALL MT_IS_INT(N, 5, 'MPI_GET_COUNT in DOUBLE PRECISIONs')
      END IF

! ---- MPI_STATUS_IGNORE: recognised, its common block left alone
      IF (RANK .EQ. 1) THEN
         D(1) = 0.5D0
         D(2) = -2.25D0
         D(3) = 1.0D10
         CALL MPI_SEND(D, 3, MPI_DOUBLE_PRECISION, 0, 9,
     &                 MPI_COMM_WORLD, IERR)
      ELSE
         D(1) = 0
         D(2) = 0
         D(3) = 0
         CALL MPI_RECV(D, 3, MPI_DOUBLE_PRECISION, 1, 9,
     &                 MPI_COMM_WORLD, MPI_STATUS_IGNORE, IERR)
         CALL MT_IS_INT(IERR, MPI_SUCCESS,
     &                  'MPI_RECV with MPI_STATUS_IGNORE')
         CALL MT_OK(D(1) .EQ. 0.5D0 .AND. D(2) .EQ. -2.25D0 .AND.
     &              D(3) .EQ. 1.0D10,
     &              'MPI_RECV of 3 DOUBLE PRECISIONs: the values')
         NBAD = 0
         DO 30 I = 1, MPI_STATUS_SIZE
            IF (MPI_STATUS_IGNORE(I) .NE. 0) NBAD = NBAD + 1
   30    CONTINUE
         CALL MT_IS_INT(NBAD, 0, 'MPI_STATUS_IGNORE is not written')
      END IF

! ---- MPI_SENDRECV with the peer
      N = -1
      CALL MPI_SENDRECV(RANK * 10 + 1, 1, MPI_INTEGER, PEER, 20 + RANK,
     &                  N, 1, MPI_INTEGER, PEER, 20 + PEER,
     &                  MPI_COMM_WORLD, ST, IERR)
      CALL MT_IS_INT(IERR, MPI_SUCCESS, 'MPI_SENDRECV')
      CALL MT_IS_INT(N, PEER * 10 + 1, 'MPI_SENDRECV: the value')
      CALL MT_IS_INT(ST(MPI_SOURCE), PEER,
     &               'MPI_SENDRECV: status(MPI_SOURCE)')
      CALL MT_IS_INT(ST(MPI_TAG), 20 + PEER,
     &               'MPI_SENDRECV: status(MPI_TAG)')

! ---- MPI_BCAST from rank 1, MPI_BARRIER
      DO 40 I = 1, 4
         B(I) = 0
         IF (RANK .EQ. 1) B(I) = I * I - 50
   40 CONTINUE
      CALL MPI_BCAST(B, 4, MPI_INTEGER, 1, MPI_COMM_WORLD, IERR)
      CALL MT_IS_INT(IERR, MPI_SUCCESS, 'MPI_BCAST')
      CALL MT_OK(B(1) .EQ. -49 .AND. B(2) .EQ. -46 .AND.
     &           B(3) .EQ. -41 .AND. B(4) .EQ. -34,
     &           'MPI_BCAST from rank 1: the 4 values')
      CALL MPI_BARRIER(MPI_COMM_WORLD, IERR)
      CALL MT_IS_INT(IERR, MPI_SUCCESS, 'MPI_BARRIER')

      T1 = MPI_WTIME()
      CALL MT_OK(T1 .GE. T0 .AND. T0 .GT. 0, 'MPI_WTIME goes forward')
      CALL MT_OK(MPI_WTICK() .GT. 0 .AND. MPI_WTICK() .LT. 1,
     &           'MPI_WTICK is in (0, 1)')

      CALL MPI_FINALIZE(IERR)
      CALL MT_IS_INT(IERR, MPI_SUCCESS, 'MPI_FINALIZE')
      FIN = .FALSE.
      CALL MPI_FINALIZED(FIN, IERR)
      CALL MT_OK(FIN, 'MPI_FINALIZED after MPI_FINALIZE')
      CALL MT_DONE()
      END
