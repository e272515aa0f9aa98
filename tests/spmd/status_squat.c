/*
 * status_squat.c - a status page's name held by another user's file before
 * the PE makes it (tests/security.test): the program's own open(), visible,
 * comes before libc's for shmpi's calls and first makes a file of 9 bytes
 * under the page's name (as root, owned by uid 65534).  The PE must leave
 * that file as it was and keep its page under another name, NAME.RANDOM (a
 * regular file of its own, mode 0600); with the argument "all" every name
 * it tries is held, and the job must run without a page.
 */
#define _GNU_SOURCE 1
#include <dirent.h>
#include <fcntl.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "testlib.h"

#define STRANGER "stranger\n"

static int squat_every;
static int squats;
static char first_name[256];

__attribute__((visibility("default"))) int open(const char *path, int flags, ...)
{
    va_list ap;
    va_start(ap, flags);
    int mode = flags & O_CREAT ? va_arg(ap, int) : 0;
    va_end(ap);
    if ((flags & O_CREAT) && !strncmp(path, "/dev/shm/shmpi-status.", 22) &&
        (squat_every || !squats)) {
        if (!squats++)
            snprintf(first_name, sizeof first_name, "%s", path);
        int fd = (int)syscall(SYS_openat, AT_FDCWD, path, O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
        if (fd >= 0) {
            if (write(fd, STRANGER, strlen(STRANGER)) < 0 ||
                (geteuid() == 0 && fchown(fd, 65534, 65534) != 0))
                fprintf(stderr, "status_squat: could not plant %s\n", path);
            close(fd);
        }
    }
    return (int)syscall(SYS_openat, AT_FDCWD, path, flags, mode);
}

/* The files in /dev/shm whose names begin with `prefix`: how many are a page
 * of this process (one memory page, mode 0600, its uid). */
static int own_pages(const char *prefix)
{
    DIR *dir = opendir("/dev/shm");
    CHECK(dir, "opendir /dev/shm");
    int pages = 0;
    char path[512];
    for (struct dirent *e; (e = readdir(dir));) {
        snprintf(path, sizeof path, "/dev/shm/%s", e->d_name);
        struct stat st;
        if (strncmp(path, prefix, strlen(prefix)) || lstat(path, &st))
            continue;
        pages += S_ISREG(st.st_mode) && (st.st_mode & 0777) == 0600 &&
                 st.st_uid == geteuid() && st.st_size == sysconf(_SC_PAGESIZE);
    }
    closedir(dir);
    return pages;
}

int main(int argc, char **argv)
{
    squat_every = argc > 1 && !strcmp(argv[1], "all");
    setenv("SHMPI_STATUS", "1", 1);
    shmem_init();
    int me = shmem_my_pe();
    CHECK(squats >= 1, "shmpi made no status page");
    struct stat st;
    char text[32] = "";
    int fd = (int)syscall(SYS_openat, AT_FDCWD, first_name, O_RDONLY | O_CLOEXEC);
    CHECK(fd >= 0 && read(fd, text, sizeof text - 1) >= 0, "%s is gone", first_name);
    close(fd);
    CHECK(stat(first_name, &st) == 0 && !strcmp(text, STRANGER) &&
              st.st_size == (off_t)strlen(STRANGER) &&
              (geteuid() != 0 || st.st_uid == 65534),
          "the stranger's %s was changed: %lld bytes, uid %d, \"%s\"", first_name,
          (long long)st.st_size, (int)st.st_uid, text);
    char others[300];
    snprintf(others, sizeof others, "%s.", first_name);
    int pages = own_pages(others);
    CHECK(pages == (squat_every ? 0 : 1), "%d pages of PE %d named %s*, want %d", pages, me,
          others, squat_every ? 0 : 1);
    printf("PE %d: %s kept; %d pages under %s* (%d names held)\n", me, first_name, pages,
           others, squats);
    shmem_barrier_all();
    test_passed(squat_every ? "status_squat all" : "status_squat");
    shmem_finalize();
    /* the stranger's files, as the stranger would remove them */
    unlink(first_name);
    DIR *dir = opendir("/dev/shm");
    for (struct dirent *e; dir && (e = readdir(dir));) {
        char path[512];
        snprintf(path, sizeof path, "/dev/shm/%s", e->d_name);
        if (!strncmp(path, others, strlen(others)) && stat(path, &st) == 0 &&
            st.st_size == (off_t)strlen(STRANGER))
            unlink(path);
    }
    if (dir)
        closedir(dir);
    return 0;
}
