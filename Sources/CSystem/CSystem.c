#define _GNU_SOURCE
#include <sys/socket.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include "CSystem.h"

#ifdef __linux__
int csystem_accept4(int fd, struct sockaddr *address, socklen_t *length, int flags) {
    return accept4(fd, address, length, flags);
}
#endif

// One slot per signal number; -1 means none. This is the only process-wide state in the
// package, and it must be: a signal handler receives no context pointer.
static volatile sig_atomic_t forward_descriptors[65] = {
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1};

static void forward_signal_handler(int signal_number) {
    if (signal_number < 0 || signal_number >= 65) return;
    int descriptor = forward_descriptors[signal_number];
    if (descriptor < 0) return;
    int saved = errno;
    uint64_t one = 1;
    ssize_t written = write(descriptor, &one, sizeof one);
    (void)written;
    errno = saved;
}

int csystem_forward_signal(int signal_number, int descriptor) {
    if (signal_number <= 0 || signal_number >= 65) {
        errno = EINVAL;
        return -1;
    }
    forward_descriptors[signal_number] = descriptor;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = forward_signal_handler;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    return sigaction(signal_number, &action, NULL);
}

int csystem_restore_signal(int signal_number) {
    if (signal_number <= 0 || signal_number >= 65) {
        errno = EINVAL;
        return -1;
    }
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = SIG_DFL;
    sigemptyset(&action.sa_mask);
    int result = sigaction(signal_number, &action, NULL);
    forward_descriptors[signal_number] = -1;
    return result;
}
