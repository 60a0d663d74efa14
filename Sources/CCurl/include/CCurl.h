#ifndef CCURL_H
#define CCURL_H
#include <curl/curl.h>

// libcurl, loaded on first use. Nothing links libcurl: `ccurl_load` opens it (dlopen) and looks
// up the functions below, so a process that never makes a libcurl transfer never maps libcurl
// and the libraries it loads (TLS, Kerberos, LDAP, ...). Every other function here may only be
// called after `ccurl_load` has returned 1.
//
// curl_easy_setopt, curl_easy_getinfo and curl_multi_setopt are variadic, which Swift cannot
// call; the typed wrappers below are what the HTTPClient module uses instead.

/// Opens libcurl (`libcurl.so.4`, else `libcurl-gnutls.so.4`; the system's on Apple platforms;
/// the library `PETKIT_LIBCURL` names when it is set) and runs `curl_global_init`, once for the
/// process; 1 when libcurl is ready, 0 when it cannot be (then `ccurl_load_error` says why).
/// Safe from any thread.
int ccurl_load(void);
/// Why `ccurl_load` failed: the library names tried and the loader's message, or the missing
/// function, or curl_global_init's code. Empty after a success.
const char *ccurl_load_error(void);

CURL *ccurl_easy_init(void);
void ccurl_easy_cleanup(CURL *handle);
void ccurl_easy_reset(CURL *handle);
const char *ccurl_easy_strerror(CURLcode code);
CURLcode ccurl_easy_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode ccurl_easy_setopt_offset(CURL *handle, CURLoption option, curl_off_t value);
CURLcode ccurl_easy_setopt_pointer(CURL *handle, CURLoption option, void *value);
CURLcode ccurl_easy_setopt_string(CURL *handle, CURLoption option, const char *value);
CURLcode ccurl_easy_setopt_write_function(CURL *handle, CURLoption option, curl_write_callback value);
CURLcode ccurl_easy_setopt_sockopt_function(CURL *handle, curl_sockopt_callback value);
CURLcode ccurl_easy_setopt_closesocket_function(CURL *handle, curl_closesocket_callback value);
CURLcode ccurl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value);
CURLcode ccurl_easy_getinfo_offset(CURL *handle, CURLINFO info, curl_off_t *value);
CURLcode ccurl_easy_getinfo_string(CURL *handle, CURLINFO info, char **value);

CURLM *ccurl_multi_init(void);
CURLMcode ccurl_multi_cleanup(CURLM *multi);
CURLMcode ccurl_multi_add_handle(CURLM *multi, CURL *handle);
CURLMcode ccurl_multi_remove_handle(CURLM *multi, CURL *handle);
CURLMcode ccurl_multi_perform(CURLM *multi, int *running);
CURLMcode ccurl_multi_poll(CURLM *multi, struct curl_waitfd *extra, unsigned int count, int timeout, int *ready);
CURLMcode ccurl_multi_wakeup(CURLM *multi);
CURLMcode ccurl_multi_socket_action(CURLM *multi, curl_socket_t socket, int mask, int *running);
CURLMsg *ccurl_multi_info_read(CURLM *multi, int *queued);
const char *ccurl_multi_strerror(CURLMcode code);
CURLMcode ccurl_multi_setopt_long(CURLM *multi, CURLMoption option, long value);
CURLMcode ccurl_multi_setopt_pointer(CURLM *multi, CURLMoption option, void *value);
CURLMcode ccurl_multi_setopt_socket_function(CURLM *multi, curl_socket_callback value);
CURLMcode ccurl_multi_setopt_timer_function(CURLM *multi, curl_multi_timer_callback value);

struct curl_slist *ccurl_slist_append(struct curl_slist *list, const char *line);
void ccurl_slist_free_all(struct curl_slist *list);

#endif
