#include "CCurl.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// The names libcurl's runtime library goes by: the soname of the ABI the headers describe
// (Debian's OpenSSL and GnuTLS builds share it), and the system library on Apple's platforms.
#if defined(__APPLE__)
static const char *const library_names[] = {"/usr/lib/libcurl.4.dylib", "libcurl.4.dylib", NULL};
#else
static const char *const library_names[] = {"libcurl.so.4", "libcurl-gnutls.so.4", NULL};
#endif

static struct {
    CURLcode (*global_init)(long);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *);
    void (*easy_reset)(CURL *);
    const char *(*easy_strerror)(CURLcode);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    CURLM *(*multi_init)(void);
    CURLMcode (*multi_cleanup)(CURLM *);
    CURLMcode (*multi_add_handle)(CURLM *, CURL *);
    CURLMcode (*multi_remove_handle)(CURLM *, CURL *);
    CURLMcode (*multi_perform)(CURLM *, int *);
    CURLMcode (*multi_poll)(CURLM *, struct curl_waitfd *, unsigned int, int, int *);
    CURLMcode (*multi_wakeup)(CURLM *);
    CURLMcode (*multi_socket_action)(CURLM *, curl_socket_t, int, int *);
    CURLMsg *(*multi_info_read)(CURLM *, int *);
    const char *(*multi_strerror)(CURLMcode);
    CURLMcode (*multi_setopt)(CURLM *, CURLMoption, ...);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
} api;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static int load_succeeded;
static char load_error[768];

// Looks `name` up into `*slot`; on failure records which function libcurl lacks.
static int look_up(void *library, const char *name, void **slot) {
    *slot = dlsym(library, name);
    if (*slot == NULL) {
        snprintf(load_error, sizeof load_error, "libcurl has no function %s", name);
        return 0;
    }
    return 1;
}

static void load(void) {
    // PETKIT_LIBCURL names the one library to open instead (a path, or a name the loader
    // searches for).
    const char *chosen[] = {getenv("PETKIT_LIBCURL"), NULL};
    const char *const *names = chosen[0] != NULL && chosen[0][0] != '\0' ? chosen : library_names;
    void *library = NULL;
    size_t used = (size_t)snprintf(load_error, sizeof load_error, "libcurl could not be loaded:");
    const char *separator = " ";
    for (const char *const *name = names; *name != NULL && library == NULL; name++) {
        library = dlopen(*name, RTLD_NOW | RTLD_LOCAL);
        if (library == NULL && used < sizeof load_error) {
            const char *reason = dlerror();
            used += (size_t)snprintf(load_error + used, sizeof load_error - used, "%s%s (%s)", separator, *name,
                                     reason != NULL ? reason : "not found");
            separator = "; ";
        }
    }
    if (library == NULL) return;
    int bound = look_up(library, "curl_global_init", (void **)&api.global_init)
        && look_up(library, "curl_easy_init", (void **)&api.easy_init)
        && look_up(library, "curl_easy_cleanup", (void **)&api.easy_cleanup)
        && look_up(library, "curl_easy_reset", (void **)&api.easy_reset)
        && look_up(library, "curl_easy_strerror", (void **)&api.easy_strerror)
        && look_up(library, "curl_easy_setopt", (void **)&api.easy_setopt)
        && look_up(library, "curl_easy_getinfo", (void **)&api.easy_getinfo)
        && look_up(library, "curl_multi_init", (void **)&api.multi_init)
        && look_up(library, "curl_multi_cleanup", (void **)&api.multi_cleanup)
        && look_up(library, "curl_multi_add_handle", (void **)&api.multi_add_handle)
        && look_up(library, "curl_multi_remove_handle", (void **)&api.multi_remove_handle)
        && look_up(library, "curl_multi_perform", (void **)&api.multi_perform)
        && look_up(library, "curl_multi_poll", (void **)&api.multi_poll)
        && look_up(library, "curl_multi_wakeup", (void **)&api.multi_wakeup)
        && look_up(library, "curl_multi_socket_action", (void **)&api.multi_socket_action)
        && look_up(library, "curl_multi_info_read", (void **)&api.multi_info_read)
        && look_up(library, "curl_multi_strerror", (void **)&api.multi_strerror)
        && look_up(library, "curl_multi_setopt", (void **)&api.multi_setopt)
        && look_up(library, "curl_slist_append", (void **)&api.slist_append)
        && look_up(library, "curl_slist_free_all", (void **)&api.slist_free_all);
    if (!bound) return;
    CURLcode code = api.global_init(CURL_GLOBAL_ALL);
    if (code != CURLE_OK) {
        snprintf(load_error, sizeof load_error, "curl_global_init failed: %s", api.easy_strerror(code));
        return;
    }
    load_error[0] = '\0';
    load_succeeded = 1;
}

int ccurl_load(void) {
    pthread_once(&load_once, load);
    return load_succeeded;
}

const char *ccurl_load_error(void) {
    pthread_once(&load_once, load);
    return load_error;
}

CURL *ccurl_easy_init(void) { return api.easy_init(); }
void ccurl_easy_cleanup(CURL *handle) { api.easy_cleanup(handle); }
void ccurl_easy_reset(CURL *handle) { api.easy_reset(handle); }
const char *ccurl_easy_strerror(CURLcode code) { return api.easy_strerror(code); }

CURLcode ccurl_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return api.easy_setopt(handle, option, value);
}

CURLcode ccurl_easy_setopt_offset(CURL *handle, CURLoption option, curl_off_t value) {
    return api.easy_setopt(handle, option, value);
}

CURLcode ccurl_easy_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return api.easy_setopt(handle, option, value);
}

CURLcode ccurl_easy_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return api.easy_setopt(handle, option, value);
}

CURLcode ccurl_easy_setopt_write_function(CURL *handle, CURLoption option, curl_write_callback value) {
    return api.easy_setopt(handle, option, value);
}

CURLcode ccurl_easy_setopt_sockopt_function(CURL *handle, curl_sockopt_callback value) {
    return api.easy_setopt(handle, CURLOPT_SOCKOPTFUNCTION, value);
}

CURLcode ccurl_easy_setopt_closesocket_function(CURL *handle, curl_closesocket_callback value) {
    return api.easy_setopt(handle, CURLOPT_CLOSESOCKETFUNCTION, value);
}

CURLcode ccurl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return api.easy_getinfo(handle, info, value);
}

CURLcode ccurl_easy_getinfo_offset(CURL *handle, CURLINFO info, curl_off_t *value) {
    return api.easy_getinfo(handle, info, value);
}

CURLcode ccurl_easy_getinfo_string(CURL *handle, CURLINFO info, char **value) {
    return api.easy_getinfo(handle, info, value);
}

CURLM *ccurl_multi_init(void) { return api.multi_init(); }
CURLMcode ccurl_multi_cleanup(CURLM *multi) { return api.multi_cleanup(multi); }
CURLMcode ccurl_multi_add_handle(CURLM *multi, CURL *handle) { return api.multi_add_handle(multi, handle); }
CURLMcode ccurl_multi_remove_handle(CURLM *multi, CURL *handle) { return api.multi_remove_handle(multi, handle); }
CURLMcode ccurl_multi_perform(CURLM *multi, int *running) { return api.multi_perform(multi, running); }

CURLMcode ccurl_multi_poll(CURLM *multi, struct curl_waitfd *extra, unsigned int count, int timeout, int *ready) {
    return api.multi_poll(multi, extra, count, timeout, ready);
}

CURLMcode ccurl_multi_wakeup(CURLM *multi) { return api.multi_wakeup(multi); }

CURLMcode ccurl_multi_socket_action(CURLM *multi, curl_socket_t socket, int mask, int *running) {
    return api.multi_socket_action(multi, socket, mask, running);
}

CURLMsg *ccurl_multi_info_read(CURLM *multi, int *queued) { return api.multi_info_read(multi, queued); }
const char *ccurl_multi_strerror(CURLMcode code) { return api.multi_strerror(code); }

CURLMcode ccurl_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return api.multi_setopt(multi, option, value);
}

CURLMcode ccurl_multi_setopt_pointer(CURLM *multi, CURLMoption option, void *value) {
    return api.multi_setopt(multi, option, value);
}

CURLMcode ccurl_multi_setopt_socket_function(CURLM *multi, curl_socket_callback value) {
    return api.multi_setopt(multi, CURLMOPT_SOCKETFUNCTION, value);
}

CURLMcode ccurl_multi_setopt_timer_function(CURLM *multi, curl_multi_timer_callback value) {
    return api.multi_setopt(multi, CURLMOPT_TIMERFUNCTION, value);
}

struct curl_slist *ccurl_slist_append(struct curl_slist *list, const char *line) {
    return api.slist_append(list, line);
}

void ccurl_slist_free_all(struct curl_slist *list) { api.slist_free_all(list); }
