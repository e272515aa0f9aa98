// cxx_generic.cc - the OpenSHMEM generic names as C++ overloads (shmpi_cxx.h):
// every name of the 1.6 generic list that shmpi provides is called at least
// once, with and without a leading shmem_ctx_t where the spec has both,
// and its result is checked.  Element types include the typedef rows of the
// tables (int32_t, int64_t, size_t, ptrdiff_t, uint64_t, ...) and
// std::complex.  Each PE works on its right neighbour, so results are
// deterministic on any number of PEs.
#include <shmem.h>

#include <complex>
#include <cstring>

#include "testlib.h"

#if __cplusplus < 201103L
#error "this test needs C++11"
#endif

namespace {

const int N = 8;
int me, npes, right, left;
shmem_ctx_t ctx; // a context of its own: ctx forms need shmem_ctx_quiet

// Completes this PE's operations on both contexts, then a barrier.
void sync_all()
{
    shmem_ctx_quiet(ctx);
    shmem_quiet();
    shmem_barrier_all();
}

// ---- rma, rma-nbi, signal ---------------------------------------------------------------
long l_dst[N], l_src[N];
int32_t i_dst[N], i_src[N];
ptrdiff_t pd_dst[N];
uint8_t u8_dst[N], u8_src[N];
double d_dst[40], d_src[40];
uint16_t u16_dst[40], u16_src[40];
float f_dst[40], f_src[40];
signed char sc_dst[40], sc_src[40];
long double ld_dst[N], ld_src[N];
unsigned long long ull_dst[N], ull_src[N];
char c_dst[N], c_src[N];
size_t z_dst[N], z_src[N];
uint64_t sig;

void test_rma()
{
    for (int i = 0; i < N; i++) {
        l_src[i] = me * 100 + i;
        i_src[i] = me * 1000 + i;
        u8_src[i] = static_cast<uint8_t>(me * 10 + i);
    }
    for (int i = 0; i < 40; i++) {
        d_src[i] = me + i * 0.25;
        u16_src[i] = static_cast<uint16_t>(me * 50 + i + 1);
        f_src[i] = static_cast<float>(me * 50 + i + 1);
        sc_src[i] = static_cast<signed char>(me * 20 + i + 1);
    }
    sync_all();

    // put, get (both forms)
    shmem_put(l_dst, l_src, N, right);
    shmem_put(ctx, i_dst, i_src, N, right);
    sync_all();
    for (int i = 0; i < N; i++)
        CHECK(l_dst[i] == left * 100 + i && i_dst[i] == left * 1000 + i, "put %d", i);
    long l_got[N];
    int32_t i_got[N];
    shmem_get(l_got, l_dst, N, right);
    shmem_get(ctx, i_got, i_dst, N, right);
    for (int i = 0; i < N; i++)
        CHECK(l_got[i] == me * 100 + i && i_got[i] == me * 1000 + i, "get %d", i);
    sync_all();

    // p, g: values convert to the element type as in C
    shmem_p(&pd_dst[0], me + 7, right);
    shmem_p(ctx, &pd_dst[1], -(me + 9), right);
    sync_all();
    CHECK(pd_dst[0] == left + 7 && pd_dst[1] == -(left + 9), "p");
    CHECK(shmem_g(&pd_dst[0], right) == me + 7, "g");
    CHECK(shmem_g(ctx, &pd_dst[1], right) == -(me + 9), "ctx g");
    sync_all();

    // iput, iget: 3 elements, target stride 2, source stride 3
    shmem_iput(d_dst, d_src, 2, 3, 3, right);
    shmem_iput(ctx, u8_dst, u8_src, 2, 3, 3, right);
    sync_all();
    for (int k = 0; k < 3; k++)
        CHECK(d_dst[2 * k] == left + 3 * k * 0.25 &&
                  u8_dst[2 * k] == static_cast<uint8_t>(left * 10 + 3 * k),
              "iput %d", k);
    double d_got[3];
    uint8_t u8_got[3];
    shmem_iget(d_got, d_dst, 1, 2, 3, right);
    shmem_iget(ctx, u8_got, u8_dst, 1, 2, 3, right);
    for (int k = 0; k < 3; k++)
        CHECK(d_got[k] == me + 3 * k * 0.25 &&
                  u8_got[k] == static_cast<uint8_t>(me * 10 + 3 * k),
              "iget %d", k);
    sync_all();

    // ibput, ibget (1.6): 4 blocks of 3, source blocks every 4, target every 7
    std::memset(f_dst, 0, sizeof f_dst);
    std::memset(u16_dst, 0, sizeof u16_dst);
    sync_all();
    shmem_ibput(f_dst, f_src, 7, 4, 3, 4, right);
    shmem_ibput(ctx, u16_dst, u16_src, 7, 4, 3, 4, right);
    sync_all();
    for (int i = 0; i < 40; i++) {
        int blk = i / 7, off = i % 7;
        int want = (blk < 4 && off < 3) ? left * 50 + blk * 4 + off + 1 : 0;
        CHECK(f_dst[i] == static_cast<float>(want) && u16_dst[i] == want, "ibput slot %d", i);
    }
    float f_got[12];
    uint16_t u16_got[12];
    shmem_ibget(f_got, f_dst, 3, 7, 3, 4, right);
    shmem_ibget(ctx, u16_got, u16_dst, 3, 7, 3, 4, right);
    for (int i = 0; i < 12; i++) {
        int want = me * 50 + (i / 3) * 4 + i % 3 + 1;
        CHECK(f_got[i] == static_cast<float>(want) && u16_got[i] == want, "ibget slot %d", i);
    }
    sync_all();

    // put_nbi, get_nbi
    for (int i = 0; i < N; i++)
        ld_src[i] = me + i / 4.0L;
    sync_all();
    shmem_put_nbi(sc_dst, sc_src, N, right);
    shmem_put_nbi(ctx, ld_dst, ld_src, N, right);
    sync_all();
    for (int i = 0; i < N; i++)
        CHECK(sc_dst[i] == static_cast<signed char>(left * 20 + i + 1) &&
                  ld_dst[i] == left + i / 4.0L,
              "put_nbi %d", i);
    signed char sc_got[N];
    long double ld_got[N];
    shmem_get_nbi(sc_got, sc_dst, N, right);
    shmem_get_nbi(ctx, ld_got, ld_dst, N, right);
    shmem_quiet();
    shmem_ctx_quiet(ctx);
    for (int i = 0; i < N; i++)
        CHECK(sc_got[i] == static_cast<signed char>(me * 20 + i + 1) && ld_got[i] == me + i / 4.0L,
              "get_nbi %d", i);
    sync_all();

    // put_signal, put_signal_nbi: each adds 1 to the signal word
    for (int i = 0; i < N; i++) {
        ull_src[i] = 1000ULL * static_cast<unsigned long long>(me) + static_cast<unsigned>(i);
        c_src[i] = static_cast<char>('a' + me + i);
        z_src[i] = static_cast<size_t>(me) * 3 + static_cast<size_t>(i);
    }
    sync_all();
    shmem_put_signal(ull_dst, ull_src, 4, &sig, 1, SHMEM_SIGNAL_ADD, right);
    shmem_put_signal(ctx, ull_dst + 4, ull_src + 4, 4, &sig, 1, SHMEM_SIGNAL_ADD, right);
    shmem_put_signal_nbi(c_dst, c_src, N, &sig, 1, SHMEM_SIGNAL_ADD, right);
    shmem_put_signal_nbi(ctx, z_dst, z_src, N, &sig, 1, SHMEM_SIGNAL_ADD, right);
    CHECK(shmem_signal_wait_until(&sig, SHMEM_CMP_EQ, 4) == 4, "signal count");
    for (int i = 0; i < N; i++)
        CHECK(ull_dst[i] == 1000ULL * static_cast<unsigned long long>(left) +
                                static_cast<unsigned>(i) &&
                  c_dst[i] == static_cast<char>('a' + left + i) &&
                  z_dst[i] == static_cast<size_t>(left) * 3 + static_cast<size_t>(i),
              "put_signal data %d", i);
    sync_all();
    // signal_add / signal_set (1.6), with and without a context
    shmem_signal_add(&sig, 2, right);
    shmem_signal_add(ctx, &sig, 3, right);
    CHECK(shmem_signal_wait_until(&sig, SHMEM_CMP_EQ, 9) == 9, "signal_add");
    sync_all();
    shmem_signal_set(&sig, 20, right);
    CHECK(shmem_signal_wait_until(&sig, SHMEM_CMP_EQ, 20) == 20, "signal_set");
    sync_all();
    shmem_signal_set(ctx, &sig, 21, right);
    CHECK(shmem_signal_wait_until(&sig, SHMEM_CMP_EQ, 21) == 21, "ctx signal_set");
    sync_all();
}

// ---- amo, amo-nbi, deprecated-amo ----------------------------------------------------------
long a_l;             // stdamotypes, no ctx
uint32_t a_u32;       // stdamotypes, ctx
double a_d;           // extamotypes, no ctx
float a_f;            // extamotypes, ctx
uint64_t b_u64;       // bitamotypes, no ctx
unsigned int b_u;     // bitamotypes, ctx
int64_t n_i64;        // nbi, no ctx
size_t n_z;           // nbi, ctx
uint64_t nb_u64;      // bitwise nbi, no ctx
int32_t nb_i32;       // bitwise nbi, ctx
double n_d;           // extamotypes nbi, no ctx
float n_f;            // extamotypes nbi, ctx
int dep_i;            // deprecated names
double dep_d;

void test_amo()
{
    // stdamotypes, without and with a context
    shmem_atomic_set(&a_l, 5, right);
    shmem_quiet();
    CHECK(shmem_atomic_fetch(&a_l, right) == 5, "atomic_set/fetch");
    CHECK(shmem_atomic_swap(&a_l, 7, right) == 5, "atomic_swap");
    CHECK(shmem_atomic_compare_swap(&a_l, 7, 9, right) == 7, "atomic_compare_swap");
    CHECK(shmem_atomic_compare_swap(&a_l, 7, 1, right) == 9, "atomic_compare_swap, no swap");
    CHECK(shmem_atomic_fetch_inc(&a_l, right) == 9, "atomic_fetch_inc");
    shmem_atomic_inc(&a_l, right);
    shmem_quiet();
    CHECK(shmem_atomic_fetch_add(&a_l, 4, right) == 11, "atomic_inc/fetch_add");
    shmem_atomic_add(&a_l, 5, right);
    shmem_quiet();
    CHECK(shmem_atomic_fetch(&a_l, right) == 20, "atomic_add");

    shmem_atomic_set(ctx, &a_u32, 5u, right);
    shmem_ctx_quiet(ctx);
    CHECK(shmem_atomic_fetch(ctx, &a_u32, right) == 5u, "ctx atomic_set/fetch");
    CHECK(shmem_atomic_swap(ctx, &a_u32, 7u, right) == 5u, "ctx atomic_swap");
    CHECK(shmem_atomic_compare_swap(ctx, &a_u32, 7u, 9u, right) == 7u, "ctx compare_swap");
    CHECK(shmem_atomic_fetch_inc(ctx, &a_u32, right) == 9u, "ctx atomic_fetch_inc");
    shmem_atomic_inc(ctx, &a_u32, right);
    shmem_ctx_quiet(ctx);
    CHECK(shmem_atomic_fetch_add(ctx, &a_u32, 4u, right) == 11u, "ctx atomic_inc/fetch_add");
    shmem_atomic_add(ctx, &a_u32, 5u, right);
    shmem_ctx_quiet(ctx);
    CHECK(shmem_atomic_fetch(ctx, &a_u32, right) == 20u, "ctx atomic_add");

    // extamotypes: floating point fetch/set/swap
    shmem_atomic_set(&a_d, 1.5, right);
    shmem_quiet();
    CHECK(shmem_atomic_swap(&a_d, 2.5, right) == 1.5, "double atomic_swap");
    CHECK(shmem_atomic_fetch(&a_d, right) == 2.5, "double atomic_fetch");
    shmem_atomic_set(ctx, &a_f, 0.5f, right);
    shmem_ctx_quiet(ctx);
    CHECK(shmem_atomic_swap(ctx, &a_f, 4.0f, right) == 0.5f, "ctx float atomic_swap");
    CHECK(shmem_atomic_fetch(ctx, &a_f, right) == 4.0f, "ctx float atomic_fetch");

    // bitamotypes
    shmem_atomic_set(&b_u64, 0xF0u, right);
    shmem_quiet();
    CHECK(shmem_atomic_fetch_and(&b_u64, 0x3Cu, right) == 0xF0u, "atomic_fetch_and");
    shmem_atomic_and(&b_u64, 0x20u, right);
    shmem_quiet();
    CHECK(shmem_atomic_fetch_or(&b_u64, 0x01u, right) == 0x20u, "atomic_and/fetch_or");
    shmem_atomic_or(&b_u64, 0x40u, right);
    shmem_quiet();
    CHECK(shmem_atomic_fetch_xor(&b_u64, 0x03u, right) == 0x61u, "atomic_or/fetch_xor");
    shmem_atomic_xor(&b_u64, 0x02u, right);
    shmem_quiet();
    CHECK(shmem_atomic_fetch(&b_u64, right) == 0x60u, "atomic_xor");

    shmem_atomic_set(ctx, &b_u, 0xF0u, right);
    shmem_ctx_quiet(ctx);
    CHECK(shmem_atomic_fetch_and(ctx, &b_u, 0x3Cu, right) == 0xF0u, "ctx atomic_fetch_and");
    shmem_atomic_and(ctx, &b_u, 0x20u, right);
    shmem_ctx_quiet(ctx);
    CHECK(shmem_atomic_fetch_or(ctx, &b_u, 0x01u, right) == 0x20u, "ctx and/fetch_or");
    shmem_atomic_or(ctx, &b_u, 0x40u, right);
    shmem_ctx_quiet(ctx);
    CHECK(shmem_atomic_fetch_xor(ctx, &b_u, 0x03u, right) == 0x61u, "ctx or/fetch_xor");
    shmem_atomic_xor(ctx, &b_u, 0x02u, right);
    shmem_ctx_quiet(ctx);
    CHECK(shmem_atomic_fetch(ctx, &b_u, right) == 0x60u, "ctx atomic_xor");

    // amo-nbi: stdamotypes on int64_t (no ctx) and size_t (ctx)
    int64_t fi = -1;
    size_t fz = 99;
    shmem_atomic_set(&n_i64, 3, right);
    shmem_atomic_set(ctx, &n_z, 3u, right);
    shmem_quiet();
    shmem_ctx_quiet(ctx);
    shmem_atomic_compare_swap_nbi(&fi, &n_i64, 3, 8, right);
    shmem_atomic_compare_swap_nbi(ctx, &fz, &n_z, 3u, 8u, right);
    shmem_quiet();
    shmem_ctx_quiet(ctx);
    CHECK(fi == 3 && fz == 3u, "atomic_compare_swap_nbi");
    shmem_atomic_fetch_inc_nbi(&fi, &n_i64, right);
    shmem_atomic_fetch_inc_nbi(ctx, &fz, &n_z, right);
    shmem_quiet();
    shmem_ctx_quiet(ctx);
    CHECK(fi == 8 && fz == 8u, "atomic_fetch_inc_nbi");
    shmem_atomic_fetch_add_nbi(&fi, &n_i64, 10, right);
    shmem_atomic_fetch_add_nbi(ctx, &fz, &n_z, 10u, right);
    shmem_quiet();
    shmem_ctx_quiet(ctx);
    CHECK(fi == 9 && fz == 9u, "atomic_fetch_add_nbi");
    shmem_atomic_swap_nbi(&fi, &n_i64, 1, right);
    shmem_atomic_swap_nbi(ctx, &fz, &n_z, 2u, right);
    shmem_quiet();
    shmem_ctx_quiet(ctx);
    CHECK(fi == 19 && fz == 19u, "atomic_swap_nbi");
    shmem_atomic_fetch_nbi(&fi, &n_i64, right);
    shmem_atomic_fetch_nbi(ctx, &fz, &n_z, right);
    shmem_quiet();
    shmem_ctx_quiet(ctx);
    CHECK(fi == 1 && fz == 2u, "atomic_fetch_nbi");

    // amo-nbi: extamotypes on floating point
    double fd = 0;
    float ff = 0;
    shmem_atomic_set(&n_d, 0.25, right);
    shmem_atomic_set(ctx, &n_f, 0.75f, right);
    shmem_quiet();
    shmem_ctx_quiet(ctx);
    shmem_atomic_swap_nbi(&fd, &n_d, 8.0, right);
    shmem_atomic_swap_nbi(ctx, &ff, &n_f, 16.0f, right);
    shmem_quiet();
    shmem_ctx_quiet(ctx);
    CHECK(fd == 0.25 && ff == 0.75f, "float atomic_swap_nbi");
    shmem_atomic_fetch_nbi(&fd, &n_d, right);
    shmem_atomic_fetch_nbi(ctx, &ff, &n_f, right);
    shmem_quiet();
    shmem_ctx_quiet(ctx);
    CHECK(fd == 8.0 && ff == 16.0f, "float atomic_fetch_nbi");

    // amo-nbi: bitamotypes on uint64_t (no ctx) and int32_t (ctx)
    uint64_t fu = 0;
    int32_t f32 = 0;
    shmem_atomic_set(&nb_u64, 0x60u, right);
    shmem_atomic_set(ctx, &nb_i32, 0x60, right);
    shmem_quiet();
    shmem_ctx_quiet(ctx);
    shmem_atomic_fetch_and_nbi(&fu, &nb_u64, 0x70u, right);
    shmem_atomic_fetch_and_nbi(ctx, &f32, &nb_i32, 0x70, right);
    shmem_quiet();
    shmem_ctx_quiet(ctx);
    CHECK(fu == 0x60u && f32 == 0x60, "atomic_fetch_and_nbi");
    shmem_atomic_fetch_or_nbi(&fu, &nb_u64, 0x05u, right);
    shmem_atomic_fetch_or_nbi(ctx, &f32, &nb_i32, 0x05, right);
    shmem_quiet();
    shmem_ctx_quiet(ctx);
    CHECK(fu == 0x60u && f32 == 0x60, "atomic_fetch_or_nbi");
    shmem_atomic_fetch_xor_nbi(&fu, &nb_u64, 0x01u, right);
    shmem_atomic_fetch_xor_nbi(ctx, &f32, &nb_i32, 0x01, right);
    shmem_quiet();
    shmem_ctx_quiet(ctx);
    CHECK(fu == 0x65u && f32 == 0x65, "atomic_fetch_xor_nbi");
    CHECK(shmem_atomic_fetch(&nb_u64, right) == 0x64u &&
              shmem_atomic_fetch(ctx, &nb_i32, right) == 0x64,
          "bitwise nbi result");

    // deprecated-amo names (no context forms)
    shmem_set(&dep_i, 3, right);
    shmem_quiet();
    CHECK(shmem_fetch(&dep_i, right) == 3, "shmem_set/shmem_fetch");
    CHECK(shmem_swap(&dep_i, 4, right) == 3, "shmem_swap");
    CHECK(shmem_cswap(&dep_i, 4, 6, right) == 4, "shmem_cswap");
    CHECK(shmem_finc(&dep_i, right) == 6, "shmem_finc");
    shmem_inc(&dep_i, right);
    shmem_quiet();
    CHECK(shmem_fadd(&dep_i, 2, right) == 8, "shmem_inc/shmem_fadd");
    shmem_add(&dep_i, 5, right);
    shmem_quiet();
    CHECK(shmem_fetch(&dep_i, right) == 15, "shmem_add");
    shmem_set(&dep_d, 0.5, right);
    shmem_quiet();
    CHECK(shmem_swap(&dep_d, 1.0, right) == 0.5 && shmem_fetch(&dep_d, right) == 1.0,
          "double shmem_set/swap/fetch");
    sync_all();
    CHECK(a_l == 20 && a_u32 == 20u && a_d == 2.5 && a_f == 4.0f && b_u64 == 0x60u &&
              b_u == 0x60u && n_i64 == 1 && n_z == 2u && dep_i == 15 && dep_d == 1.0,
          "amo targets");
}

// ---- p2p-sync -----------------------------------------------------------------------------
short w_flag;      // deprecated p2p type
long w_l[4];       // long: shmem_wait_until(long *, int, long) is the deprecated C function
int32_t w_i[4];
size_t w_z[4];
uint64_t w_u[4];
unsigned short w_us;

void test_p2p()
{
    // The left neighbour writes base + k into every array, then the flag.
    const int mine = me + 1, base = left + 1;
    for (int k = 0; k < 4; k++) {
        shmem_p(&w_l[k], mine + k, right);
        shmem_p(&w_i[k], mine + k, right);
        shmem_p(&w_z[k], static_cast<size_t>(mine + k), right);
        shmem_p(&w_u[k], static_cast<uint64_t>(mine + k), right);
    }
    shmem_p(&w_us, static_cast<unsigned short>(mine), right);
    shmem_fence();
    shmem_p(&w_flag, static_cast<short>(mine), right);

    shmem_wait_until(&w_flag, SHMEM_CMP_EQ, static_cast<short>(base)); // deprecated short row
    shmem_wait_until(&w_l[3], SHMEM_CMP_EQ, base + 3); // the C function on long
    shmem_wait_until(&w_i[3], SHMEM_CMP_GE, base + 3); // template, int32_t
    CHECK(shmem_test(&w_us, SHMEM_CMP_EQ, base) == 1, "test, deprecated unsigned short");
    CHECK(shmem_test(&w_l[0], SHMEM_CMP_NE, base) == 0, "test false");
    CHECK(shmem_test(&w_z[1], SHMEM_CMP_EQ, static_cast<size_t>(base + 1)) == 1, "test");

    const int skip_all_but_2[4] = {1, 1, 0, 1};
    size_t idx[4] = {9, 9, 9, 9};
    shmem_wait_until_all(w_l, 4, NULL, SHMEM_CMP_GT, 0);
    CHECK(shmem_wait_until_any(w_i, 4, skip_all_but_2, SHMEM_CMP_GE, base) == 2,
          "wait_until_any");
    CHECK(shmem_wait_until_some(w_z, 4, idx, NULL, SHMEM_CMP_GE, static_cast<size_t>(base + 1)) ==
                  3 &&
              idx[0] == 1 && idx[1] == 2 && idx[2] == 3,
          "wait_until_some");

    const long want_l[4] = {base, base + 1, base + 2, base + 3};
    const int32_t want_i[4] = {base, base + 1, base + 2, base + 3};
    const size_t want_z[4] = {static_cast<size_t>(base), static_cast<size_t>(base + 1),
                              static_cast<size_t>(base + 2), static_cast<size_t>(base + 3)};
    const uint64_t want_u[4] = {want_z[0], want_z[1], want_z[2], want_z[3]};
    shmem_wait_until_all_vector(w_l, 4, NULL, SHMEM_CMP_EQ, want_l);
    CHECK(shmem_wait_until_any_vector(w_i, 4, skip_all_but_2, SHMEM_CMP_EQ, want_i) == 2,
          "wait_until_any_vector");
    std::memset(idx, 0, sizeof idx);
    CHECK(shmem_wait_until_some_vector(w_z, 4, idx, NULL, SHMEM_CMP_EQ, want_z) == 4 &&
              idx[3] == 3,
          "wait_until_some_vector");

    CHECK(shmem_test_all(w_u, 4, NULL, SHMEM_CMP_GE, static_cast<uint64_t>(base)) == 1,
          "test_all");
    CHECK(shmem_test_any(w_u, 4, skip_all_but_2, SHMEM_CMP_EQ, want_u[2]) == 2, "test_any");
    CHECK(shmem_test_any(w_u, 4, NULL, SHMEM_CMP_LT, 0u) == SIZE_MAX, "test_any, none");
    CHECK(shmem_test_some(w_u, 4, idx, NULL, SHMEM_CMP_LE, want_u[1]) == 2 && idx[0] == 0 &&
              idx[1] == 1,
          "test_some");
    CHECK(shmem_test_all_vector(w_l, 4, NULL, SHMEM_CMP_EQ, want_l) == 1, "test_all_vector");
    CHECK(shmem_test_any_vector(w_i, 4, skip_all_but_2, SHMEM_CMP_EQ, want_i) == 2,
          "test_any_vector");
    CHECK(shmem_test_some_vector(w_u, 4, idx, NULL, SHMEM_CMP_NE, want_u) == 0,
          "test_some_vector");
    sync_all();
}

// ---- coll, reduce, sync -------------------------------------------------------------------
long c_ld[N * 64], c_ls[N * 64];
int64_t c_id[N * 64 * 2], c_is[N * 64];
double c_dd[N * 64], c_ds[N];
unsigned char r_ud[N], r_us[N];
size_t r_zd[N], r_zs[N];
int16_t r_hd[N], r_hs[N];
float r_fd[N], r_fs[N];
ptrdiff_t r_pd[N], r_ps[N];
std::complex<double> r_cd[N], r_cs[N];
double r_dd[N], r_ds[N];
int32_t s_id[N], s_is[N];
long psync[SHMEM_SYNC_SIZE];

void test_coll()
{
    shmem_team_t team = SHMEM_TEAM_WORLD;
    for (int i = 0; i < N; i++)
        c_ls[i] = me * 100 + i;
    CHECK(shmem_broadcast(team, c_ld, c_ls, N, npes - 1) == 0, "broadcast");
    for (int i = 0; i < N; i++)
        CHECK(c_ld[i] == (npes - 1) * 100 + i, "broadcast %d", i);
    for (int i = 0; i < N; i++)
        c_ds[i] = me + i * 0.5;
    CHECK(shmem_fcollect(team, c_dd, c_ds, N) == 0, "fcollect");
    for (int j = 0; j < npes; j++)
        for (int i = 0; i < N; i++)
            CHECK(c_dd[j * N + i] == j + i * 0.5, "fcollect %d %d", j, i);
    CHECK(shmem_collect(team, c_ld, c_ls, static_cast<size_t>(me % 2 + 1)) == 0, "collect");
    for (int j = 0, at = 0; j < npes; j++)
        for (int i = 0; i < j % 2 + 1; i++, at++)
            CHECK(c_ld[at] == j * 100 + i, "collect %d %d", j, i);
    for (int j = 0; j < npes; j++)
        for (int i = 0; i < N; i++)
            c_is[j * N + i] = static_cast<int64_t>(me) << 32 | (j * N + i);
    CHECK(shmem_alltoall(team, c_id, c_is, N) == 0, "alltoall");
    for (int j = 0; j < npes; j++)
        for (int i = 0; i < N; i++)
            CHECK(c_id[j * N + i] == (static_cast<int64_t>(j) << 32 | (me * N + i)),
                  "alltoall %d %d", j, i);
    std::memset(c_id, 0, sizeof c_id);
    CHECK(shmem_alltoalls(team, c_id, c_is, 2, 1, N) == 0, "alltoalls");
    for (int j = 0; j < npes; j++)
        for (int i = 0; i < N; i++)
            CHECK(c_id[(j * N + i) * 2] == (static_cast<int64_t>(j) << 32 | (me * N + i)),
                  "alltoalls %d %d", j, i);

    for (int i = 0; i < N; i++) {
        r_us[i] = static_cast<unsigned char>(0xF0 | me);
        r_zs[i] = static_cast<size_t>(1) << me;
        r_hs[i] = static_cast<int16_t>(me + 1 + i);
        r_fs[i] = static_cast<float>(me - i);
        r_ps[i] = -me * 3 + i;
        r_cs[i] = std::complex<double>(me + 1, 1);
        r_ds[i] = me + 1.0;
    }
    CHECK(shmem_and_reduce(team, r_ud, r_us, N) == 0, "and_reduce");
    CHECK(shmem_or_reduce(team, r_zd, r_zs, N) == 0, "or_reduce");
    CHECK(shmem_xor_reduce(team, r_hd, r_hs, N) == 0, "xor_reduce");
    unsigned char want_and = 0xFF;
    size_t want_or = 0;
    int want_xor = 0;
    for (int j = 0; j < npes; j++) {
        want_and = static_cast<unsigned char>(want_and & (0xF0 | j));
        want_or |= static_cast<size_t>(1) << j;
        want_xor ^= j + 1 + 2;
    }
    CHECK(r_ud[1] == want_and && r_zd[N - 1] == want_or && r_hd[2] == want_xor,
          "bitwise reductions %u %zu %d", r_ud[1], r_zd[N - 1], r_hd[2]);
    CHECK(shmem_max_reduce(team, r_fd, r_fs, N) == 0 && r_fd[1] == static_cast<float>(npes - 2),
          "max_reduce");
    CHECK(shmem_min_reduce(team, r_pd, r_ps, N) == 0 && r_pd[2] == -(npes - 1) * 3 + 2,
          "min_reduce");
    CHECK(shmem_sum_reduce(team, r_cd, r_cs, N) == 0 &&
              r_cd[3] == std::complex<double>(npes * (npes + 1) / 2, npes),
          "sum_reduce complex");
    double want_prod = 1;
    for (int j = 0; j < npes; j++)
        want_prod *= j + 1.0;
    CHECK(shmem_prod_reduce(team, r_dd, r_ds, N) == 0 && r_dd[N - 1] == want_prod,
          "prod_reduce");
    // scans (1.6): prefix sums over PEs 0..me (inscan), 0..me-1 (exscan, 0 on PE 0)
    int32_t s_want_in = 0;
    for (int j = 0; j <= me; j++)
        s_want_in += j + 1;
    for (int i = 0; i < N; i++)
        s_is[i] = me + 1;
    CHECK(shmem_sum_inscan(team, s_id, s_is, N) == 0 && s_id[N - 1] == s_want_in, "sum_inscan");
    CHECK(shmem_sum_exscan(team, r_cd, r_cs, N) == 0 &&
              r_cd[1] == std::complex<double>(s_want_in - (me + 1), me),
          "sum_exscan complex");
    // shmem_sync: the team form and the deprecated active-set C function
    CHECK(shmem_sync(team) == 0, "shmem_sync(team)");
    shmem_sync(0, 0, npes, psync);
    shmem_barrier_all();
}

} // namespace

int main()
{
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    right = (me + 1) % npes;
    left = (me + npes - 1) % npes;
    CHECK(shmem_ctx_create(0, &ctx) == 0, "shmem_ctx_create");
    test_rma();
    test_amo();
    test_p2p();
    test_coll();
    shmem_ctx_destroy(ctx);
    test_passed("cxx_generic");
    shmem_finalize();
    return 0;
}
