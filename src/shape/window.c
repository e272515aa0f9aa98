/*
 * window.c - the symmetric segments: where they are, and which peers'
 * segments this PE maps.
 *
 * The heap is one region per PE.  Where the job shares memory, each PE puts
 * its heap in a POSIX shared-memory object of its own and maps those of the
 * PEs of its node (or pseudo-node, see SHMPI_PSEUDO_NODE_SIZE), so it loads
 * and stores its peers' heaps directly (recorded with shmpi_shape_map, asked
 * with shmpi_peer_mapped); when the job shares no memory (SHMPI_MPI_ONLY, or
 * /dev/shm too small) the heap is private memory.  The static data segment
 * (.data+.bss of the program, rounded out to whole pages) is shared the same
 * way by default; it stays private under SHMPI_SHARE_STATIC=0 or when the
 * job shares no memory.  Where some PE does not map some segment of every
 * PE, both segments are attached to the MPI window (src/shape/mpi_rma.c),
 * which is how PEs reach the memory they do not map.
 */
#include "shmpi.h"
#include "window.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

/* shmem_align(A) gives the same offset on every PE only if every PE's heap
 * base is aligned to A.  So each heap is placed in a reservation of twice
 * its base alignment, the largest power of two not above the heap size,
 * and starts at the first such boundary: every power-of-two alignment up to
 * the heap size can be honoured.  The slack is address space only (never
 * touched: neither anonymous memory nor shared-memory files take pages for
 * it). */
static size_t heap_base_align(size_t size)
{
    size_t align = 1;
    while (align <= size / 2)
        align *= 2;
    return align;
}

static void *heap_reservation; /* the address space the heap sits in */
static size_t heap_reservation_len;

static uintptr_t round_down(uintptr_t v, uintptr_t a) { return v & ~(a - 1); }
static uintptr_t round_up(uintptr_t v, uintptr_t a) { return (v + a - 1) & ~(a - 1); }

/* ---- static data ---------------------------------------------------------------------- */
struct data_range {
    uintptr_t start, end;
};

/* The first object dl_iterate_phdr reports is the program itself.  Its
 * writable PT_LOAD segment holds .data and .bss; the part covered by
 * PT_GNU_RELRO becomes read-only after relocation and is skipped. */
static int find_program_data(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    struct data_range *range = arg;
    uintptr_t relro_end = 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type == PT_GNU_RELRO)
            relro_end = info->dlpi_addr + ph->p_vaddr + ph->p_memsz;
    }
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_W))
            continue;
        uintptr_t start = info->dlpi_addr + ph->p_vaddr;
        uintptr_t end = start + ph->p_memsz;
        if (relro_end > start && relro_end < end)
            start = relro_end;
        if (range->end == 0 || start < range->start)
            range->start = start;
        if (end > range->end)
            range->end = end;
    }
    return 1; /* only the program, not its shared libraries */
}

static void setup_data_segment(void)
{
    struct data_range range = {0, 0};
    dl_iterate_phdr(find_program_data, &range);
    struct shmpi_segment *seg = &shmpi_g.seg[SHMPI_SEG_DATA];
    uintptr_t page = (uintptr_t)shmpi_g.page_size;
    /* Whole pages: MPI/UCX may round a registered address down, and a
     * page-aligned base cannot be moved by that. */
    uintptr_t start = round_down(range.start, page);
    uintptr_t end = round_up(range.end, page);
    seg->base = (char *)start;
    seg->size = end - start;
}

/* Static data in shared memory (SHMPI_SHARE_STATIC, on by default): each
 * PE moves its own .data/.bss pages into a POSIX shared-memory object
 * without changing their addresses (copy the contents into the object, then
 * map it over the same range with MAP_FIXED), and maps its node peers'
 * objects.  Static variables then behave like the heap on a node: copies
 * instead of MPI, CPU atomics, shmem_ptr, and no waiting for a busy target.
 * Caveat (README): after fork() without exec, parent and child would share
 * these pages. */
/* Copies whole pages of the data segment.  Not memcpy: under
 * AddressSanitizer the segment holds the redzones between globals, which a
 * checked copy would report; this raw copy is exempt from the checks. */
__attribute__((no_sanitize_address)) static void copy_pages(void *to, const void *from,
                                                            size_t bytes)
{
    uint64_t *dst = to;
    const uint64_t *src = from;
    for (size_t i = 0; i < bytes / sizeof(uint64_t); i++)
        dst[i] = src[i];
}

/* ---- shared-memory objects ------------------------------------------------------------
 * Each PE puts its segments in POSIX shared-memory objects of its own,
 * named by a tag on its card (its pid and start time: an object left behind
 * by a killed job whose PE had the same pid must not collide), and maps its
 * node peers' objects once every card is known.  Pages are taken only when
 * first written, so start-up costs the same whatever the heap size (MPICH's
 * MPI_Win_allocate_shared took every page up front: seconds for a 1 GiB
 * heap at 16 PEs).  The names are removed once every PE has mapped them
 * (shmpi_segments_unlink, at the end of start-up). */
static const char *const object_kind[SHMPI_NSEGS] = {[SHMPI_SEG_HEAP] = "heap",
                                                     [SHMPI_SEG_DATA] = "data"};

static void object_name(char *name, size_t len, uint64_t tag, const char *kind)
{
    snprintf(name, len, "/shmpi.%016llx.%s", (unsigned long long)tag, kind);
}

static uint64_t make_tag(void)
{
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    return (uint64_t)getpid() << 32 ^ ((uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec);
}

/* A new object of `size` bytes mapped at `at` (MAP_FIXED), or false. */
static bool object_create(int s, size_t size, void *at)
{
    char name[64];
    object_name(name, sizeof name, shmpi_shape.mine.tag, object_kind[s]);
    int fd = shm_open(name, O_CREAT | O_EXCL | O_RDWR, 0600);
    bool ok = fd >= 0 && ftruncate(fd, (off_t)size) == 0 &&
              mmap(at, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0) == at;
    int saved = errno;
    if (fd >= 0)
        close(fd);
    if (!ok) {
        if (fd >= 0)
            shm_unlink(name);
        shmpi_warn("shmem_init", "cannot put the %s segment in shared memory (%s: %s): it "
                   "stays private, reached through MPI", object_kind[s], name, strerror(saved));
    }
    return ok;
}

/* PE pe's object of the given kind, mapped anywhere. */
static char *object_map_kind(const char *kind, int pe, size_t size)
{
    char name[64];
    object_name(name, sizeof name, shmpi_shape.cards[pe].tag, kind);
    int fd = shm_open(name, O_RDWR, 0);
    void *map = fd >= 0 ? mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) : MAP_FAILED;
    int saved = errno;
    if (fd >= 0)
        close(fd);
    if (map == MAP_FAILED)
        shmpi_abort("shmem_init", "cannot map the %s segment of PE %d (%s): %s", kind, pe, name,
                    strerror(saved));
    return map;
}

/* PE pe's object of segment s, mapped anywhere. */
static char *object_map(int s, int pe, size_t size)
{
    return object_map_kind(object_kind[s], pe, size);
}

static void object_unlink_kind(const char *kind)
{
    char name[64];
    object_name(name, sizeof name, shmpi_shape.mine.tag, kind);
    shm_unlink(name);
}

static void object_unlink(int s)
{
    object_unlink_kind(object_kind[s]);
}

/* ---- the wait board ----------------------------------------------------------------------
 * A PE's wait record (diagnose.c) lives in its heap's reserved block, which
 * the PEs that map the heap read with loads, and the others with MPI_Rget.
 * Where some PE of a job on one machine does not map another's heap
 * (SHMPI_MPI_ONLY, pseudo-nodes, heaps that did not fit /dev/shm), every PE
 * keeps its record in a page of shared memory of its own instead, which
 * every other PE maps: the board.  The watch thread then reads the record
 * of a PE blocked in an MPI collective without calling MPI, so such a job
 * needs no MPI_THREAD_MULTIPLE for the diagnosis (its lock costs every MPI
 * call up to 10 %: benchmarks/RESULTS.md, "Waits that explain themselves"). */
/* Whether every PE in pe[0..n) set `flag` on its card. */
static bool all_set(const int *pe, int n, uint32_t flag)
{
    for (int i = 0; i < n; i++)
        if (!(shmpi_shape.cards[pe ? pe[i] : i].flags & flag))
            return false;
    return true;
}

#define BOARD_KIND "wait"
static struct shmpi_wait_record *own_board;   /* this PE's page, until the board is agreed */
static struct shmpi_wait_record **wait_board; /* [n_pes], or NULL: no board */

static void board_create(void)
{
    char name[64];
    object_name(name, sizeof name, shmpi_shape.mine.tag, BOARD_KIND);
    size_t size = (size_t)shmpi_g.page_size;
    int fd = shm_open(name, O_CREAT | O_EXCL | O_RDWR, 0600);
    void *map = MAP_FAILED;
    if (fd >= 0) {
        if (ftruncate(fd, (off_t)size) == 0)
            map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        close(fd);
        if (map == MAP_FAILED)
            shm_unlink(name);
    }
    /* Without it the diagnosis reads records through MPI, as across nodes. */
    if (map != MAP_FAILED) {
        own_board = map;
        shmpi_shape.mine.flags |= SHMPI_CARD_WAIT_BOARD;
    }
}

/* Maps every PE's page where all have one and the job is on this machine;
 * else drops this PE's. */
static void board_map(void)
{
    if (!own_board)
        return;
    if (shmpi_shape.nodes != 1 || !all_set(NULL, shmpi_g.n_pes, SHMPI_CARD_WAIT_BOARD)) {
        munmap(own_board, (size_t)shmpi_g.page_size);
        own_board = NULL;
        object_unlink_kind(BOARD_KIND);
        shmpi_shape.mine.flags &= ~SHMPI_CARD_WAIT_BOARD;
        return;
    }
    wait_board = shmpi_xmalloc("shmem_init", (size_t)shmpi_g.n_pes * sizeof *wait_board);
    for (int pe = 0; pe < shmpi_g.n_pes; pe++)
        wait_board[pe] = pe == shmpi_g.my_pe
                             ? own_board
                             : (struct shmpi_wait_record *)object_map_kind(
                                   BOARD_KIND, pe, (size_t)shmpi_g.page_size);
}

static void board_fini(void)
{
    if (wait_board) {
        for (int pe = 0; pe < shmpi_g.n_pes; pe++)
            munmap(wait_board[pe], (size_t)shmpi_g.page_size);
        free(wait_board);
        wait_board = NULL;
    } else if (own_board) {
        munmap(own_board, (size_t)shmpi_g.page_size);
    }
    own_board = NULL;
}

struct shmpi_wait_record *shmpi_wait_board_of(int pe)
{
    return wait_board ? wait_board[pe] : NULL;
}

/* Static data in shared memory (SHMPI_SHARE_STATIC, on by default): each
 * PE moves its own .data/.bss pages into its object without changing their
 * addresses (copy the contents into the object, then map it over the same
 * range), and maps its node peers' objects.  Static variables then behave
 * like the heap on a node: copies instead of MPI, CPU atomics, shmem_ptr,
 * and no waiting for a busy target.  Caveat (README): after fork() without
 * exec, parent and child would share these pages. */
static bool share_data_segment(void)
{
    struct shmpi_segment *seg = &shmpi_g.seg[SHMPI_SEG_DATA];
    void *copy = malloc(seg->size);
    if (!copy)
        return false;
    /* From here to the remap, no other thread may write static data. */
    copy_pages(copy, seg->base, seg->size);
    bool ok = object_create(SHMPI_SEG_DATA, seg->size, seg->base);
    copy_pages(seg->base, copy, seg->size); /* a failed remap leaves the old pages */
    free(copy);
    return ok;
}

/* Back to private memory, contents kept: the node does not share. */
static void unshare_data_segment(void)
{
    struct shmpi_segment *seg = &shmpi_g.seg[SHMPI_SEG_DATA];
    void *copy = shmpi_xmalloc("shmem_init", seg->size);
    copy_pages(copy, seg->base, seg->size);
    if (mmap(seg->base, seg->size, PROT_READ | PROT_WRITE,
             MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) != seg->base)
        shmpi_abort("shmem_init", "cannot map private memory over the static data: %s",
                    strerror(errno));
    copy_pages(seg->base, copy, seg->size);
    free(copy);
    object_unlink(SHMPI_SEG_DATA);
}

static void unmap_peer_segments(void)
{
    for (int s = 0; s < SHMPI_NSEGS; s++)
        for (int pe = 0; pe < shmpi_g.n_pes; pe++) {
            char *map = shmpi_peer_mapped(s, pe);
            if (pe != shmpi_g.my_pe && map)
                munmap(map, shmpi_g.seg[s].size);
        }
}

/* ---- heap ------------------------------------------------------------------------------------ */
static void private_heap_at(char *base, size_t size)
{
    if (mmap(base, size, PROT_READ | PROT_WRITE,
             MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0) != base)
        shmpi_abort("shmem_init", "cannot map a %zu-byte symmetric heap: %s; lower "
                    "SHMEM_SYMMETRIC_SIZE", size, strerror(errno));
}

/* The heap's address space, aligned (see heap_base_align); then its pages:
 * a shared-memory object where the job shares memory, else private. */
static bool setup_heap(size_t size, bool shared)
{
    struct shmpi_segment *seg = &shmpi_g.seg[SHMPI_SEG_HEAP];
    size_t align = heap_base_align(size);
    heap_reservation_len = size + align;
    heap_reservation = mmap(NULL, heap_reservation_len, PROT_NONE,
                            MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (heap_reservation == MAP_FAILED)
        shmpi_abort("shmem_init",
                    "cannot reserve %zu bytes of address space for the symmetric heap: %s; "
                    "lower SHMEM_SYMMETRIC_SIZE", heap_reservation_len, strerror(errno));
    seg->base = (char *)round_up((uintptr_t)heap_reservation, align);
    seg->size = size;
    if (shared && object_create(SHMPI_SEG_HEAP, size, seg->base))
        return true;
    private_heap_at(seg->base, size);
    return false;
}

/* ---- running out of /dev/shm --------------------------------------------------------------
 * A shared heap takes its pages when first written; if /dev/shm fills up
 * meanwhile (another job writing there), that write is a SIGBUS.  The PE
 * that takes it ends the job with one line instead of a bare signal. */
static struct sigaction sigbus_before;
static bool sigbus_installed;

static void on_sigbus(int sig, siginfo_t *info, void *context)
{
    (void)context;
    const char *addr = info->si_addr;
    for (int s = 0; s < SHMPI_NSEGS; s++)
        for (int pe = 0; pe < shmpi_g.n_pes; pe++) {
            const char *map = shmpi_peer_mapped(s, pe);
            if (map && addr >= map && addr < map + shmpi_g.seg[s].size)
                shmpi_abort("shared memory",
                            "no page for byte %zu of PE %d's %s segment: /dev/shm is full; free "
                            "space there, give it more (docker run --shm-size), lower "
                            "SHMEM_SYMMETRIC_SIZE or set SHMPI_MPI_ONLY=1",
                            (size_t)(addr - map), pe, object_kind[s]);
        }
    /* Not ours: the handler before, or the default action when the faulting
     * access runs again. */
    sigaction(sig, &sigbus_before, NULL);
}

static void catch_sigbus(void)
{
    struct sigaction act;
    memset(&act, 0, sizeof act);
    act.sa_sigaction = on_sigbus;
    act.sa_flags = SA_SIGINFO;
    sigemptyset(&act.sa_mask);
    sigbus_installed = sigaction(SIGBUS, &act, &sigbus_before) == 0;
}

/* ---- start-up ------------------------------------------------------------------------------ */
void shmpi_segments_create(void)
{
    struct shmpi_pe_card *card = &shmpi_shape.mine;
    card->tag = make_tag();
    setup_data_segment();
    struct shmpi_segment *data = &shmpi_g.seg[SHMPI_SEG_DATA];
    size_t heap_size = round_up(shmpi_g.env.symmetric_size + SHMPI_HEAP_RESERVED,
                                (uintptr_t)shmpi_g.page_size);
    bool shared = shmpi_job_shares_memory();
    if (setup_heap(heap_size, shared))
        card->flags |= SHMPI_CARD_HEAP_SHARED;
    if (shared && shmpi_g.env.share_static && shmpi_g.n_pes > 1 && share_data_segment())
        card->flags |= SHMPI_CARD_DATA_SHARED;
    if (shmpi_g.n_pes > 1 && (!shared || shmpi_g.env.pseudo_node_size > 0))
        board_create();
    card->data_size = data->size;
    for (int s = 0; s < SHMPI_NSEGS; s++) {
        MPI_Aint address;
        MPI_Get_address(shmpi_g.seg[s].base, &address);
        card->seg_base[s] = (uint64_t)address;
        shmpi_shape_map(s, shmpi_g.my_pe, shmpi_g.seg[s].base);
    }
}

void shmpi_segments_map(void)
{
    struct shmpi_pe_card *card = &shmpi_shape.mine;
    board_map();
    /* Heaps are shared everywhere or nowhere (the node communicator and the
     * team collectives need the same answer on every PE); static data per
     * (pseudo-)node. */
    bool heaps = shmpi_job_shares_memory() &&
                 all_set(NULL, shmpi_g.n_pes, SHMPI_CARD_HEAP_SHARED);
    bool data = heaps && all_set(shmpi_shape.node_pe, shmpi_shape.node_size,
                                 SHMPI_CARD_DATA_SHARED);
    if (!heaps)
        shmpi_shape_no_shared_memory();
    if ((card->flags & SHMPI_CARD_HEAP_SHARED) && !heaps) {
        private_heap_at(shmpi_g.seg[SHMPI_SEG_HEAP].base, shmpi_g.seg[SHMPI_SEG_HEAP].size);
        object_unlink(SHMPI_SEG_HEAP);
        card->flags &= ~SHMPI_CARD_HEAP_SHARED;
    }
    if ((card->flags & SHMPI_CARD_DATA_SHARED) && !data) {
        unshare_data_segment();
        card->flags &= ~SHMPI_CARD_DATA_SHARED;
    }
    if (!heaps)
        return;
    for (int i = 0; i < shmpi_shape.node_size; i++) {
        int pe = shmpi_shape.node_pe[i];
        if (pe == shmpi_g.my_pe)
            continue;
        shmpi_shape_map(SHMPI_SEG_HEAP, pe, object_map(SHMPI_SEG_HEAP, pe, shmpi_g.seg[SHMPI_SEG_HEAP].size));
        if (data)
            shmpi_shape_map(SHMPI_SEG_DATA, pe, object_map(SHMPI_SEG_DATA, pe, shmpi_g.seg[SHMPI_SEG_DATA].size));
    }
    catch_sigbus();
}

void shmpi_segments_unlink(void)
{
    for (int s = 0; s < SHMPI_NSEGS; s++)
        if (shmpi_shape.mine.flags & (s == SHMPI_SEG_HEAP ? SHMPI_CARD_HEAP_SHARED : SHMPI_CARD_DATA_SHARED))
            object_unlink(s);
    if (shmpi_shape.mine.flags & SHMPI_CARD_WAIT_BOARD)
        object_unlink_kind(BOARD_KIND);
    shmpi_shape.mine.flags = 0;
}

void shmpi_segments_fini(void)
{
    shmpi_rma_fini();
    unmap_peer_segments();
    board_fini();
    if (sigbus_installed) {
        sigaction(SIGBUS, &sigbus_before, NULL);
        sigbus_installed = false;
    }
    if (heap_reservation) {
        munmap(heap_reservation, heap_reservation_len);
        heap_reservation = NULL;
    }
    for (int s = 0; s < SHMPI_NSEGS; s++)
        memset(&shmpi_g.seg[s], 0, sizeof(shmpi_g.seg[s]));
}
