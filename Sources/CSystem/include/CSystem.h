#ifndef CSYSTEM_H
#define CSYSTEM_H

// What Swift's Glibc module does not expose, or exposes awkwardly: epoll, eventfd,
// inotify, TCP options, and accept4/SOCK_* flags that are macros or enums. Linux-only
// declarations sit under __linux__; elsewhere the SOCK_* flags are 0 (Platform sets them
// with fcntl) and MSG_NOSIGNAL is 0 where missing (Platform sets SO_NOSIGPIPE instead).
// Only the Platform module uses what is declared here.
#ifdef __linux__
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/inotify.h>
#endif
#include <sys/socket.h>
#include <sys/uio.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>
#include <netdb.h>
#include <signal.h>
#include <errno.h>
#include <stdint.h>

#ifdef __linux__
// accept4 needs _GNU_SOURCE, which a module header cannot set for glibc's headers,
// so the wrapper is defined in CSystem.c.
int csystem_accept4(int fd, struct sockaddr *address, socklen_t *length, int flags);
static const int CSYSTEM_SOCK_NONBLOCK = SOCK_NONBLOCK;
static const int CSYSTEM_SOCK_CLOEXEC = SOCK_CLOEXEC;
static const int CSYSTEM_SOCK_STREAM = SOCK_STREAM;
static const int CSYSTEM_EPOLLIN = EPOLLIN;
static const int CSYSTEM_EPOLLOUT = EPOLLOUT;
static const int CSYSTEM_EPOLLERR = EPOLLERR;
static const int CSYSTEM_EPOLLHUP = EPOLLHUP;
static const int CSYSTEM_EPOLLRDHUP = EPOLLRDHUP;
static const unsigned int CSYSTEM_EPOLLET = EPOLLET;
static const int CSYSTEM_EPOLL_CLOEXEC = EPOLL_CLOEXEC;
static const int CSYSTEM_EFD_NONBLOCK = EFD_NONBLOCK;
static const int CSYSTEM_EFD_CLOEXEC = EFD_CLOEXEC;

// epoll_event is packed on x86_64; these accessors keep Swift away from its layout.
static inline void csystem_epoll_event_set(struct epoll_event *event, uint32_t events, uint64_t token) {
    event->events = events;
    event->data.u64 = token;
}
static inline uint32_t csystem_epoll_event_events(const struct epoll_event *event) { return event->events; }
static inline uint64_t csystem_epoll_event_token(const struct epoll_event *event) { return event->data.u64; }
static inline size_t csystem_epoll_event_size(void) { return sizeof(struct epoll_event); }
#else
static const int CSYSTEM_SOCK_NONBLOCK = 0;
static const int CSYSTEM_SOCK_CLOEXEC = 0;
static const int CSYSTEM_SOCK_STREAM = SOCK_STREAM;
#endif
#if defined(__linux__) && defined(__GLIBC__)
#include <malloc.h>
// Makes glibc serve allocations of at least `bytes` with their own mmap, so they go back to
// the system when freed. Left alone, glibc raises that threshold after the first large free
// and keeps later large blocks in a thread's arena, where malloc_trim cannot reach them.
// Returns 1 on success.
static inline int csystem_map_large_allocations(int bytes) { return mallopt(M_MMAP_THRESHOLD, bytes); }
#else
static inline int csystem_map_large_allocations(int bytes) { (void)bytes; return 0; }
#endif
#ifdef MSG_NOSIGNAL
static const int CSYSTEM_MSG_NOSIGNAL = MSG_NOSIGNAL;
#else
static const int CSYSTEM_MSG_NOSIGNAL = 0;
#endif
#ifdef SO_NOSIGPIPE
static const int CSYSTEM_SO_NOSIGPIPE = SO_NOSIGPIPE;
#else
static const int CSYSTEM_SO_NOSIGPIPE = 0;
#endif
static const int CSYSTEM_SO_REUSEPORT = SO_REUSEPORT;
static const int CSYSTEM_TCP_NODELAY = TCP_NODELAY;
static const int CSYSTEM_IPPROTO_TCP = IPPROTO_TCP;

// Signal-to-descriptor forwarding for graceful shutdown. A signal handler cannot carry a
// context, so CSystem.c keeps one descriptor per signal number; the handler only writes
// an 8-byte counter increment to it (async-signal-safe), and the owner reads it on its loop.
// Returns 0, or -1 with errno set.
int csystem_forward_signal(int signal_number, int descriptor);
// Restores the default disposition of the signal and forgets its descriptor.
int csystem_restore_signal(int signal_number);

#endif
