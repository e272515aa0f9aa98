/*
 * status_page.c - libFuzzer target: status pages as another user or a
 * broken writer could leave them (src/wait/status_page.h), read by
 * shmpi_status_read from a file, then put in words by every text routine of
 * src/wait/status_text.c that shmpi_info --waits and the snapshot signal
 * use.  Input: a flags byte (bit 0: the right magic, bit 1: an even
 * sequence count, bit 2: a file of the wrong size), then up to 4 pages'
 * bytes.  A page the reader accepts must hold together (its strings end
 * within their fields); the text routines must stay within their buffers.
 */
#include "../../src/wait/status_page.h"

#include <assert.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_PAGES 4

static char dir[] = "/dev/shm/shmpi-fuzz.XXXXXX"; /* tmpfs, as the pages' own */
static char path[64];
static size_t file_bytes;

static void remove_file(void)
{
    unlink(path);
    rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    assert(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/page", dir);
    atexit(remove_file);
    file_bytes = SHMPI_STATUS_FILE_BYTES(sysconf(_SC_PAGESIZE));
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    uint8_t flags = data[0];
    data++, size--;
    static struct shmpi_status_page page[MAX_PAGES];
    static char file[1 << 16];
    assert(file_bytes <= sizeof file);
    int n = 0;
    for (int k = 0; k < MAX_PAGES && size > 0; k++) {
        size_t take = size < sizeof page[0] ? size : sizeof page[0];
        memset(file, 0, file_bytes);
        memcpy(file, data, take);
        data += take, size -= take;
        struct shmpi_status_page *raw = (struct shmpi_status_page *)file;
        if (flags & 1)
            raw->magic = SHMPI_STATUS_MAGIC;
        if (flags & 2)
            raw->wait.seq &= ~(uint64_t)1;
        int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC, 0600);
        assert(fd >= 0);
        size_t bytes = flags & 4 ? take : file_bytes;
        assert(write(fd, file, bytes) == (ssize_t)bytes);
        close(fd);
        if (!shmpi_status_read(path, &page[n]))
            continue;
        assert(shmpi_status_valid(&page[n]));
        assert(strlen(page[n].job) < sizeof page[n].job);
        assert(strlen(page[n].host) < sizeof page[n].host);
        assert(strlen(page[n].command) < sizeof page[n].command);
        assert(strlen(page[n].wait.routine) < sizeof page[n].wait.routine);
        n++;
    }
    char line[1024];
    int awaited[64];
    for (int i = 0; i < n; i++) {
        shmpi_status_line(page, n, i, 1000, line, sizeof line);
        assert(strlen(line) < sizeof line);
        int count = shmpi_status_awaited(page, n, i, awaited, 64);
        assert(count >= 0 && count <= 64);
        for (int k = 0; k < count; k++)
            assert(awaited[k] >= 0 && awaited[k] < page[i].n_pes);
    }
    if (n) {
        size_t len = (size_t)n * 512 + 4096;
        char *summary = malloc(len);
        assert(summary);
        shmpi_status_summary(page, n, summary, len);
        assert(strlen(summary) < len);
        free(summary);
    }
    return 0;
}
