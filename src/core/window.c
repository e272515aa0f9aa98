/*
 * window.c - the symmetric segments: where they are, and which peers'
 * segments this PE maps.
 *
 * The heap is one region per PE.  PEs of a node (or of a pseudo-node, see
 * SHMPI_PSEUDO_NODE_SIZE) allocate their heaps together with
 * MPI_Win_allocate_shared, so each can load and store its peers' heaps
 * directly (recorded with shmpi_shape_map, asked with shmpi_peer_mapped);
 * when the job shares no memory (SHMPI_MPI_ONLY, or /dev/shm too small) the
 * heap is private memory.  The static data segment (.data+.bss of the
 * program, rounded out to whole pages) is shared within the node too by
 * default, through POSIX shared memory (share_data_segment); it stays
 * private only under SHMPI_SHARE_STATIC=0 or when the job shares no memory.
 * Both segments are then attached to the MPI window (src/core/mpi_rma.c),
 * which is how every PE reaches every other PE's memory through MPI.
 */
#include "shmpi.h"
#include "window.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

/* shmem_align(A) gives the same offset on every PE only if every PE's heap
 * base is aligned to A.  So each heap is over-allocated by its base
 * alignment, the largest power of two not above the heap size, and starts
 * at the first such boundary: every power-of-two alignment up to the heap
 * size can be honoured.  The slack is address space only (never touched:
 * neither anonymous memory nor shared-memory files take pages for it). */
/* Shared heaps take at most this much slack: MPI maps (and registers) the
 * whole shared allocation at shmem_init, which takes longer the larger it is,
 * so there alignments up to 16 MiB (huge pages, cache sets) are guaranteed
 * and larger ones are given when the bases happen to allow them. */
#define SHARED_HEAP_MAX_SLACK ((size_t)16 << 20)

static size_t heap_base_align(size_t size)
{
    size_t align = 1;
    while (align <= size / 2)
        align *= 2;
    return align;
}

static MPI_Win shm_win = MPI_WIN_NULL; /* owner of the node-shared heap */
static void *private_heap_map;         /* mmap of the private heap */
static size_t private_heap_map_len;

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

/* The node leader's pid and start time name a job's objects: an object
 * left behind by a killed job whose leader had the same pid must not
 * collide with this one. */
struct job_tag {
    long pid;
    long nanoseconds;
};

static void shm_object_name(char *name, size_t len, const struct job_tag *tag, int world_pe)
{
    snprintf(name, len, "/shmpi.%ld.%lx.%d.data", tag->pid, tag->nanoseconds, world_pe);
}

static void share_data_segment(void)
{
    struct shmpi_segment *seg = &shmpi_g.seg[SHMPI_SEG_DATA];
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    struct job_tag tag = {(long)getpid(), now.tv_sec % 1000000 * 1000000000L + now.tv_nsec};
    MPI_Comm node_comm = shmpi_node_comm();
    MPI_Bcast(&tag, 2, MPI_LONG, 0, node_comm);
    char name[80];
    shm_object_name(name, sizeof name, &tag, shmpi_g.my_pe);
    int fd = shm_open(name, O_CREAT | O_EXCL | O_RDWR, 0600);
    int ok = fd >= 0 && ftruncate(fd, (off_t)seg->size) == 0;
    void *copy = ok ? mmap(NULL, seg->size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)
                    : MAP_FAILED;
    ok = copy != MAP_FAILED;
    if (ok) {
        /* From here to the remap, no other thread may write static data. */
        copy_pages(copy, seg->base, seg->size);
        ok = mmap(seg->base, seg->size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd,
                  0) == seg->base;
        munmap(copy, seg->size);
    }
    if (fd >= 0)
        close(fd);
    /* Every PE of the node shares its data, or none does. */
    int all_ok = ok;
    MPI_Allreduce(MPI_IN_PLACE, &all_ok, 1, MPI_INT, MPI_LAND, node_comm);
    int n_local;
    MPI_Comm_size(node_comm, &n_local);
    MPI_Group node_group, world_group;
    MPI_Comm_group(node_comm, &node_group);
    MPI_Comm_group(shmpi_g.comm, &world_group);
    for (int r = 0; all_ok && r < n_local; r++) {
        int world;
        MPI_Group_translate_ranks(node_group, 1, &r, world_group, &world);
        if (world == shmpi_g.my_pe)
            continue;
        char peer[80];
        shm_object_name(peer, sizeof peer, &tag, world);
        int pfd = shm_open(peer, O_RDWR, 0);
        void *map = pfd >= 0 ? mmap(NULL, seg->size, PROT_READ | PROT_WRITE, MAP_SHARED, pfd, 0)
                             : MAP_FAILED;
        if (pfd >= 0)
            close(pfd);
        if (map == MAP_FAILED)
            shmpi_abort("shmem_init", "cannot map the static data of PE %d (%s): %s", world,
                        peer, strerror(errno));
        shmpi_shape_map(SHMPI_SEG_DATA, world, map);
    }
    MPI_Group_free(&node_group);
    MPI_Group_free(&world_group);
    MPI_Barrier(node_comm); /* everyone mapped: the names can go */
    shm_unlink(name);
    if (!all_ok && shmpi_g.my_pe == 0)
        shmpi_warn("shmem_init", "static data stays private (shared memory for it failed); "
                                 "it is reached through MPI");
}

static void unmap_peer_data(void)
{
    struct shmpi_segment *seg = &shmpi_g.seg[SHMPI_SEG_DATA];
    for (int pe = 0; pe < shmpi_g.n_pes; pe++) {
        char *map = shmpi_peer_mapped(SHMPI_SEG_DATA, pe);
        if (pe != shmpi_g.my_pe && map)
            munmap(map, seg->size);
    }
}

/* ---- heap ------------------------------------------------------------------------------------ */
static void setup_shared_heap(size_t size)
{
    struct shmpi_segment *seg = &shmpi_g.seg[SHMPI_SEG_HEAP];
    MPI_Comm node_comm = shmpi_node_comm();
    MPI_Info info;
    MPI_Info_create(&info);
    /* Each PE's heap on its own pages (and NUMA node), not one block. */
    MPI_Info_set(info, "alloc_shared_noncontig", "true");
    void *base;
    /* MPI may return any alignment (MPICH gives malloc memory to a lone
     * process): the slack lets the heap start on its boundary. */
    uintptr_t align = heap_base_align(size);
    if (align > SHARED_HEAP_MAX_SLACK)
        align = SHARED_HEAP_MAX_SLACK;
    int rc = MPI_Win_allocate_shared((MPI_Aint)(size + align), 1, info, node_comm, &base,
                                     &shm_win);
    MPI_Info_free(&info);
    if (rc != MPI_SUCCESS)
        shmpi_abort("shmem_init",
                    "cannot allocate a %zu-byte symmetric heap in shared memory; lower "
                    "SHMEM_SYMMETRIC_SIZE or set SHMPI_MPI_ONLY=1",
                    size);
    seg->base = (char *)round_up((uintptr_t)base, align);

    /* Where each peer's heap starts inside its allocation: the rounding is
     * done in the owner's address space, where the mapping may sit at
     * another offset from a large boundary than in this one. */
    int n_local;
    MPI_Comm_size(node_comm, &n_local);
    MPI_Aint *skip = malloc((size_t)n_local * sizeof(*skip));
    if (!skip)
        shmpi_abort("shmem_init", "out of memory for %d PEs' heap offsets", n_local);
    MPI_Aint my_skip = (MPI_Aint)(seg->base - (char *)base);
    MPI_Allgather(&my_skip, 1, MPI_AINT, skip, 1, MPI_AINT, node_comm);
    MPI_Group node_group, world_group;
    MPI_Comm_group(node_comm, &node_group);
    MPI_Comm_group(shmpi_g.comm, &world_group);
    for (int r = 0; r < n_local; r++) {
        int world;
        MPI_Group_translate_ranks(node_group, 1, &r, world_group, &world);
        MPI_Aint peer_size;
        int disp_unit;
        void *peer_base;
        MPI_Win_shared_query(shm_win, r, &peer_size, &disp_unit, &peer_base);
        shmpi_shape_map(SHMPI_SEG_HEAP, world, (char *)peer_base + skip[r]);
    }
    free(skip);
    MPI_Group_free(&node_group);
    MPI_Group_free(&world_group);
}

static void setup_private_heap(size_t size)
{
    struct shmpi_segment *seg = &shmpi_g.seg[SHMPI_SEG_HEAP];
    size_t align = heap_base_align(size);
    private_heap_map_len = size + align;
    private_heap_map = mmap(NULL, private_heap_map_len, PROT_READ | PROT_WRITE,
                            MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (private_heap_map == MAP_FAILED)
        shmpi_abort("shmem_init",
                    "cannot map a %zu-byte symmetric heap; lower SHMEM_SYMMETRIC_SIZE", size);
    seg->base = (char *)round_up((uintptr_t)private_heap_map, align);
    shmpi_shape_map(SHMPI_SEG_HEAP, shmpi_g.my_pe, seg->base);
}

/* Shared memory is a file system (/dev/shm, tmpfs): its pages are taken when
 * first written, and a write that finds it full is SIGBUS.  Containers get
 * 64 MiB of it unless told otherwise (docker run --shm-size).  So before
 * putting the heaps there, the node's total is compared with what /dev/shm
 * has free; if it does not fit on some node, every PE places its heap in
 * private memory, as under SHMPI_MPI_ONLY=1 (slower between PEs of a node,
 * but correct), and one PE per short node says so. */
static bool shm_fits(size_t heap_size)
{
    MPI_Comm phys;
    MPI_Comm_split_type(shmpi_g.comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &phys);
    int n_local, local_rank;
    MPI_Comm_size(phys, &n_local);
    MPI_Comm_rank(phys, &local_rank);
    MPI_Comm_free(&phys);
    size_t per_pe = heap_size + (shmpi_g.env.share_static ? shmpi_g.seg[SHMPI_SEG_DATA].size : 0);
    double need = (double)per_pe * n_local, avail = need;
    struct statvfs fs;
    if (statvfs("/dev/shm", &fs) == 0)
        avail = (double)fs.f_bavail * (double)fs.f_frsize;
    int short_here = need > avail, short_somewhere;
    MPI_Allreduce(&short_here, &short_somewhere, 1, MPI_INT, MPI_LOR, shmpi_g.comm);
    if (short_here && local_rank == 0)
        shmpi_warn("shmem_init",
                   "/dev/shm has %.0f MiB free, the %d PEs of this node need %.0f MiB "
                   "(SHMEM_SYMMETRIC_SIZE=%zu bytes each): the symmetric heap goes to private "
                   "memory and PEs of a node reach each other through MPI (slower); give "
                   "/dev/shm more (docker run --shm-size=%.0fm) or lower SHMEM_SYMMETRIC_SIZE",
                   avail / 1048576.0, n_local, need / 1048576.0, shmpi_g.env.symmetric_size,
                   need / 1048576.0 + 64);
    return !short_somewhere;
}

/* Symmetric offsets need equal segment sizes: a PE running a different
 * executable would corrupt memory silently, so refuse to start. */
static void check_same_executable(void)
{
    if (!shmpi_same_on_all_pes(shmpi_g.seg[SHMPI_SEG_DATA].size))
        shmpi_abort("shmem_init",
                    "the static data segment is %zu bytes here but differs on another PE: "
                    "every PE must run the same executable",
                    shmpi_g.seg[SHMPI_SEG_DATA].size);
}

void shmpi_segments_init(void)
{
    setup_data_segment();
    shmpi_shape_map(SHMPI_SEG_DATA, shmpi_g.my_pe, shmpi_g.seg[SHMPI_SEG_DATA].base);

    size_t heap_size = round_up(shmpi_g.env.symmetric_size + SHMPI_HEAP_RESERVED,
                                (uintptr_t)shmpi_g.page_size);
    if (shmpi_job_shares_memory() && !shm_fits(heap_size))
        shmpi_shape_no_shared_memory(); /* the heap and static data stay private */
    if (shmpi_job_shares_memory())
        setup_shared_heap(heap_size);
    else
        setup_private_heap(heap_size);
    shmpi_g.seg[SHMPI_SEG_HEAP].size = heap_size;
    if (shmpi_node_comm() != MPI_COMM_NULL && shmpi_g.env.share_static)
        share_data_segment();
    check_same_executable();
    shmpi_rma_init();
}

void shmpi_segments_fini(void)
{
    shmpi_rma_fini();
    unmap_peer_data();
    if (shm_win != MPI_WIN_NULL)
        MPI_Win_free(&shm_win);
    if (private_heap_map) {
        munmap(private_heap_map, private_heap_map_len);
        private_heap_map = NULL;
    }
    for (int s = 0; s < SHMPI_NSEGS; s++)
        memset(&shmpi_g.seg[s], 0, sizeof(shmpi_g.seg[s]));
}
