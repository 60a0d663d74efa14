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
#elif defined(__GLIBC__)
    (void)attributes;
    return posix_spawn_file_actions_addclosefrom_np(actions, lowest);
#else
    (void)actions;
    (void)attributes;
    (void)lowest;
    return ENOSYS;
#endif
}

int cspawn_chdir(posix_spawn_file_actions_t *actions, const char *path) {
#if defined(__APPLE__) || defined(__GLIBC__)
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
