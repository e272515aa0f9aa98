/* Unit tests: symmetric address translation (segments -> displacements,
 * src/shape/window.h). */
#include <check.h>
#include <setjmp.h>
#include <stdlib.h>

#include "../../src/base/shmpi.h"
#include "../../src/shape/window.h"

struct shmpi_global shmpi_g;
struct shmpi_shape shmpi_shape;
MPI_Win shmpi_rma_win;
MPI_Aint *shmpi_rma_base[SHMPI_NSEGS];
static jmp_buf failed;

/* The library would abort the job; here a failure jumps back to the test. */
void shmpi_symm_fail(const char *routine, const void *addr, size_t len, int pe)
{
    (void)routine, (void)addr, (void)len, (void)pe;
    longjmp(failed, 1);
}

static char arena[8192];
static char *const heap_mem = arena + 1024; /* 4096 bytes */
static char data_mem[1024];
static MPI_Aint heap_remote[3] = {0x100000, 0x200000, 0x300000};
static MPI_Aint data_remote[3] = {0x7000, 0x8000, 0x9000};
static char *heap_peers[3], *data_peers[3];

static void setup(void)
{
    shmpi_g.seg[SHMPI_SEG_HEAP] = (struct shmpi_segment){heap_mem, 4096};
    shmpi_g.seg[SHMPI_SEG_DATA] = (struct shmpi_segment){data_mem, sizeof data_mem};
    shmpi_rma_base[SHMPI_SEG_HEAP] = heap_remote;
    shmpi_rma_base[SHMPI_SEG_DATA] = data_remote;
    shmpi_shape.peer_ptr[SHMPI_SEG_HEAP] = heap_peers;
    shmpi_shape.peer_ptr[SHMPI_SEG_DATA] = data_peers;
    heap_peers[0] = heap_mem;
    heap_peers[1] = (char *)0x5000000; /* a peer mapped here */
    heap_peers[2] = NULL;              /* a peer reached only through MPI */
    data_peers[0] = data_mem;
}

START_TEST(heap_addresses)
{
    ck_assert_int_eq(shmpi_symm_segment(heap_mem + 100, 8), SHMPI_SEG_HEAP);
    struct shmpi_target t = shmpi_symm_target("test", heap_mem + 100, 8, 2);
    ck_assert_int_eq(t.disp, 0x300000 + 100);
    ck_assert_ptr_null(t.mapped);
    t = shmpi_symm_target("test", heap_mem + 100, 8, 1);
    ck_assert_ptr_eq(t.mapped, (char *)0x5000000 + 100);
    t = shmpi_symm_target("test", heap_mem, 4096, 0);
    ck_assert_ptr_eq(t.mapped, heap_mem);
    }
END_TEST

START_TEST(data_addresses)
{
    ck_assert_int_eq(shmpi_symm_segment(data_mem + 1023, 1), SHMPI_SEG_DATA);
    struct shmpi_target t = shmpi_symm_target("test", data_mem + 1000, 24, 1);
    ck_assert_int_eq(t.disp, 0x8000 + 1000);
    ck_assert_ptr_null(t.mapped);
}
END_TEST

START_TEST(outside_is_rejected)
{
    char stack_byte;
    ck_assert_int_eq(shmpi_symm_segment(&stack_byte, 1), -1);
    ck_assert_int_eq(shmpi_symm_segment(heap_mem + 4090, 8), -1); /* runs past the end */
    ck_assert_int_eq(shmpi_symm_segment(heap_mem - 1, 1), -1);
    ck_assert_int_eq(shmpi_symm_segment(data_mem + 1024, 1), -1);
    if (setjmp(failed) == 0) {
        shmpi_symm_target("test", &stack_byte, 1, 0);
        ck_abort_msg("a stack address was translated");
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("symm");
    TCase *tc = tcase_create("core");
    tcase_add_checked_fixture(tc, setup, NULL);
    tcase_add_test(tc, heap_addresses);
    tcase_add_test(tc, data_addresses);
    tcase_add_test(tc, outside_is_rejected);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_set_fork_status(sr, CK_NOFORK);
    srunner_run_all(sr, CK_NORMAL);
    int failed_count = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed_count ? EXIT_FAILURE : EXIT_SUCCESS;
}
