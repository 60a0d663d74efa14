#define _GNU_SOURCE
#include <sys/socket.h>
#include "CSystem.h"

#ifdef __linux__
int csystem_accept4(int fd, struct sockaddr *address, socklen_t *length, int flags) {
    return accept4(fd, address, length, flags);
}
#endif
