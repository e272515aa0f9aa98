/*
 * The superset forms (superset.h) as C++11, and the complex reductions on
 * GCC's T _Complex beside std::complex<T>: typed names, generic names and
 * the deprecated _to_all forms.
 */
#include "superset.h"

#include <complex>

static long psync[SHMEM_REDUCE_SYNC_SIZE];
static double _Complex gd_src[2], gd_dst[2], gd_wrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE];
static float _Complex gf_src[2], gf_dst[2];
static std::complex<double> sd_src[2], sd_dst[2];

int main()
{
    shmem_init();
    superset_run();
    for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++)
        psync[i] = SHMEM_SYNC_VALUE;
    int n = npes;
    for (int i = 0; i < 2; i++) {
        __real__ gd_src[i] = 1.0 + i;
        __imag__ gd_src[i] = me;
        __real__ gf_src[i] = 2.0f;
        __imag__ gf_src[i] = 1.0f;
        sd_src[i] = std::complex<double>(1.0 + i, me);
    }
    double imag_sum = n * (n - 1) / 2.0;
    shmem_barrier_all();
    /* typed and generic sum on T _Complex and std::complex<T> */
    CHECK(shmem_complexd_sum_reduce(SHMEM_TEAM_WORLD, gd_dst, gd_src, 2) == 0, "sum_reduce");
    CHECK(__real__ gd_dst[1] == 2.0 * n && __imag__ gd_dst[1] == imag_sum, "complexd sum");
    CHECK(shmem_sum_reduce(SHMEM_TEAM_WORLD, gd_dst, gd_src, 2) == 0, "generic sum_reduce");
    CHECK(__real__ gd_dst[0] == 1.0 * n && __imag__ gd_dst[0] == imag_sum, "generic sum");
    CHECK(shmem_sum_reduce(SHMEM_TEAM_WORLD, sd_dst, sd_src, 2) == 0, "std::complex sum");
    CHECK(sd_dst[1] == std::complex<double>(2.0 * n, imag_sum), "std::complex sum value");
    CHECK(shmem_prod_reduce(SHMEM_TEAM_WORLD, gf_dst, gf_src, 2) == 0, "generic prod_reduce");
    std::complex<float> p(1.0f, 0.0f);
    for (int i = 0; i < n; i++)
        p *= std::complex<float>(2.0f, 1.0f);
    CHECK(__real__ gf_dst[1] == p.real() && __imag__ gf_dst[1] == p.imag(), "complexf prod");
    CHECK(shmem_complexf_prod_reduce(SHMEM_TEAM_WORLD, gf_dst, gf_src, 1) == 0, "typed prod");
    CHECK(shmem_sum_inscan(SHMEM_TEAM_WORLD, gd_dst, gd_src, 2) == 0, "generic sum_inscan");
    CHECK(__imag__ gd_dst[0] == me * (me + 1) / 2.0, "inscan value");
    CHECK(shmem_complexd_sum_exscan(SHMEM_TEAM_WORLD, gd_dst, gd_src, 2) == 0, "sum_exscan");
    if (me > 0)
        CHECK(__imag__ gd_dst[0] == me * (me - 1) / 2.0, "exscan value");
    /* deprecated active-set form on the whole world */
    shmem_barrier_all();
    shmem_complexd_sum_to_all(gd_dst, gd_src, 2, 0, 0, n, gd_wrk, psync);
    CHECK(__real__ gd_dst[1] == 2.0 * n && __imag__ gd_dst[1] == imag_sum, "sum_to_all");
    test_passed("superset_cxx");
    shmem_finalize();
    return 0;
}
