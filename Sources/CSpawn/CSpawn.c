#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <unistd.h>
#include "CSpawn.h"

int cspawn_close_from(posix_spawn_file_actions_t *actions, posix_spawnattr_t *attributes, int lowest) {
#if defined(__APPLE__)
    (void)actions;
    (void)lowest;
    short flags = 0;
    int result = posix_spawnattr_getflags(attributes, &flags);
    if (result != 0) return result;
    return posix_spawnattr_setflags(attributes, flags | POSIX_SPAWN_CLOEXEC_DEFAULT);
#elif defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
    (void)attributes;
    return posix_spawn_file_actions_addclosefrom_np(actions, lowest);
#else
    (void)attributes;
    return cspawn_close_each_from(actions, lowest);
#endif
}

int cspawn_close_each_from(posix_spawn_file_actions_t *actions, int lowest) {
    long limit = sysconf(_SC_OPEN_MAX);
    if (limit < 0 || limit > 65536) limit = 65536;
    for (int descriptor = lowest < 0 ? 0 : lowest; descriptor < limit; descriptor++) {
        if (fcntl(descriptor, F_GETFD) == -1) continue;
        int result = posix_spawn_file_actions_addclose(actions, descriptor);
        if (result != 0) return result;
    }
    return 0;
}

int cspawn_chdir(posix_spawn_file_actions_t *actions, const char *path) {
#if defined(__APPLE__)
    // Newer SDKs mark the _np name deprecated in favour of POSIX 2024's addchdir, which older
    // macOS versions lack; the _np one exists on every version the package supports.
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wdeprecated-declarations"
    return posix_spawn_file_actions_addchdir_np(actions, path);
#pragma clang diagnostic pop
#elif defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 29))
    return posix_spawn_file_actions_addchdir_np(actions, path);
#else
    (void)actions;
    (void)path;
    return ENOSYS;
#endif
}

int cspawn_pipe(int descriptors[2]) {
#if defined(__linux__)
    return pipe2(descriptors, O_CLOEXEC);
#else
    if (pipe(descriptors) != 0) return -1;
    fcntl(descriptors[0], F_SETFD, FD_CLOEXEC);
    fcntl(descriptors[1], F_SETFD, FD_CLOEXEC);
    return 0;
#endif
}
