#ifndef CSPAWN_H
#define CSPAWN_H

// posix_spawn's non-portable parts, for TestSupport's ChildProcess: glibc declares
// addclosefrom_np, addchdir_np and pipe2 only with _GNU_SOURCE, which a module header cannot
// set for glibc's headers, so the wrappers are defined in CSpawn.c. Only TestSupport uses them.
#include <spawn.h>

// Makes the child close every descriptor from `lowest` up once the earlier file actions have
// run. glibc 2.34+: posix_spawn_file_actions_addclosefrom_np. Darwin: the attribute flag
// POSIX_SPAWN_CLOEXEC_DEFAULT, which keeps only the descriptors the file actions set up (call
// it after posix_spawnattr_setflags: it adds a flag). Elsewhere: cspawn_close_each_from.
// Returns 0 or an errno value.
int cspawn_close_from(posix_spawn_file_actions_t *actions, posix_spawnattr_t *attributes, int lowest);

// The portable way to the same end, on every system: one posix_spawn_file_actions_addclose
// for each descriptor from `lowest` up that is open now (fcntl F_GETFD), up to the lower of
// the open-file limit and 65536. A descriptor another thread opens between this call and the
// spawn reaches the child unless it is close-on-exec. Returns 0 or an errno value.
int cspawn_close_each_from(posix_spawn_file_actions_t *actions, int lowest);

// Makes the child change to `path` before it runs the program. Returns 0 or an errno value
// (ENOSYS where the system has no addchdir).
int cspawn_chdir(posix_spawn_file_actions_t *actions, const char *path);

// A pipe whose two ends are close-on-exec (pipe2 with O_CLOEXEC, or pipe and fcntl where
// pipe2 is missing). Returns 0, or -1 with errno set.
int cspawn_pipe(int descriptors[2]);

#endif
