#ifndef CSYSTEM_H
#define CSYSTEM_H

// What Swift's Glibc module does not expose, or exposes awkwardly: epoll, eventfd,
// inotify, TCP options, and accept4/SOCK_* flags that are macros or enums.
#ifdef __linux__
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/inotify.h>
#endif
#include <sys/socket.h>
#include <sys/uio.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <errno.h>

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
#endif
static const int CSYSTEM_MSG_NOSIGNAL = MSG_NOSIGNAL;

#endif
