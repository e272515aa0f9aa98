/*
 * env.c - libFuzzer target: every variable of the environment table
 * (src/runtime/env.c: SHMEM_*, SHMPI_*, the SMA_* aliases) set from the
 * input, then shmpi_env_read, which parses them all (src/base/parse.c,
 * SHMPI_AMO_OPS's list in src/ops/amo_ops.c).  The input is the values in
 * table order, NUL-separated; a missing value leaves its variable unset, a
 * value starting with byte 0x01 sets the alias instead.  Checks that a read
 * without a problem leaves every setting in its documented range.
 * Built by tests/fuzz/run.sh with the library's sources, not the library.
 */
#include "../../src/runtime/env.c"

#include <assert.h>

/* ---- what env.c and amo_ops.c call, without MPI or a job --------------------------------- */
struct shmpi_global shmpi_g;
struct shmpi_shape shmpi_shape;
struct shmpi_device_heap shmpi_device;
MPI_Op shmpi_amo_direct_mpi_op; /* (amo_word.c's, which amo_ops.c sets) */
unsigned shmpi_amo_direct_ops;
static const char *problem_seen;

void shmpi_end_if_any(const char *routine, const char *problem_text)
{
    (void)routine;
    problem_seen = problem_text;
}
_Noreturn void shmpi_abort(const char *routine, const char *fmt, ...)
{
    (void)routine, (void)fmt;
    abort();
}
void shmpi_mpi_library(char *text, size_t len)
{
    snprintf(text, len, "none");
}
const char *shmpi_rma_window_text(void)
{
    return "none";
}
void shmpi_amo_drain(bool wait_for_lock)
{
    (void)wait_for_lock;
}
void shmpi_amo_message_init(void) {}
bool shmpi_rma_bitwise_fetch_op_lost(void)
{
    return false;
}
void shmpi_warn(const char *routine, const char *fmt, ...)
{
    (void)routine, (void)fmt;
}
void shmpi_progress_on_deferred(void (*drain)(void))
{
    (void)drain;
}

/* "NAME=value" strings put in the environment (putenv keeps them: setenv
 * would keep a copy of every value ever set). */
static char *slot[2 * N_ENV_VARS];

static void put(size_t s, const char *name, const char *value, size_t len)
{
    char *text = NULL;
    if (name) {
        size_t name_len = strlen(name);
        text = malloc(name_len + len + 2);
        assert(text);
        memcpy(text, name, name_len);
        text[name_len] = '=';
        memcpy(text + name_len + 1, value, len);
        text[name_len + 1 + len] = '\0';
        putenv(text);
    }
    free(slot[s]); /* no longer in the environment: replaced or unset */
    slot[s] = text;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *at = (const char *)data, *end = at + size;
    for (size_t i = 0; i < N_ENV_VARS; i++) {
        const char *name = env_table[i].name, *alias = env_table[i].alias;
        unsetenv(name);
        put(2 * i, NULL, NULL, 0);
        if (alias) {
            unsetenv(alias);
            put(2 * i + 1, NULL, NULL, 0);
        }
        if (at >= end)
            continue;
        const char *stop = memchr(at, '\0', (size_t)(end - at));
        size_t len = stop ? (size_t)(stop - at) : (size_t)(end - at);
        if (len && at[0] == '\1' && alias)
            put(2 * i + 1, alias, at + 1, len - 1);
        else
            put(2 * i, name, at, len);
        at += len + 1;
    }
    problem_seen = NULL;
    shmpi_env_read();
    const struct shmpi_env *env = &shmpi_g.env;
    if (!problem_seen) {
        assert(env->symmetric_size >= 1);
        assert(env->pseudo_node_size >= 0 && env->pseudo_node_size <= 1 << 20);
        assert(env->progress_interval_us >= -1 && env->progress_interval_us <= 1000000);
        assert(env->finalize_grace_ms >= 0 && env->finalize_grace_ms <= 600000);
        assert(env->poll_us >= -1 && env->poll_us <= 100000000);
        assert(env->hang_report_s >= 0 && env->hang_report_s <= 86400);
        assert(env->snapshot_signal >= 0 && env->snapshot_signal <= 64);
        assert(env->tree_min_pes >= -1 && env->tree_min_pes <= 1 << 30);
        assert(env->amo_ops != 0);
        assert(env->device_chunk >= 4096 && env->device_chunk <= (size_t)1 << 30);
        assert(env->stream_queue >= 1 && env->stream_queue <= 1 << 20);
        assert(env->yield_waits >= -1 && env->yield_waits <= 1);
        assert(env->cuda_library && env->cuda_library[0]);
    } else {
        assert(strlen(problem_seen) < sizeof problem);
    }
    return 0;
}
