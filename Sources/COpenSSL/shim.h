// OpenSSL's headers for the socket server's TLS and the local certificate authority, and
// functions for the macros Swift cannot call.
#ifndef PETKIT_COPENSSL_SHIM_H
#define PETKIT_COPENSSL_SHIM_H

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

static inline long petkit_ssl_ctx_set_mode(SSL_CTX *context, long mode) {
    return SSL_CTX_set_mode(context, mode);
}

static inline int petkit_ssl_ctx_set_min_tls12(SSL_CTX *context) {
    return (int)SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION);
}

static inline long petkit_ssl_ctx_session_cache_server(SSL_CTX *context) {
    return SSL_CTX_set_session_cache_mode(context, SSL_SESS_CACHE_SERVER);
}

static inline void petkit_ssl_ctx_set_server_options(SSL_CTX *context) {
    SSL_CTX_set_options(context, SSL_OP_NO_RENEGOTIATION | SSL_OP_IGNORE_UNEXPECTED_EOF);
}

static inline long petkit_bio_mem_data(BIO *bio, char **data) {
    return BIO_get_mem_data(bio, data);
}

static inline int petkit_ssl_set_tlsext_host_name(SSL *ssl, const char *name) {
    return (int)SSL_set_tlsext_host_name(ssl, name);
}

static inline int petkit_mbstring_asc(void) {
    return MBSTRING_ASC;
}

static inline int petkit_is_ca(X509 *certificate) {
    return (X509_get_extension_flags(certificate) & EXFLAG_CA) != 0;
}

static inline int petkit_is_server_auth(X509 *certificate) {
    return (X509_get_extension_flags(certificate) & EXFLAG_XKUSAGE) != 0
        && (X509_get_extended_key_usage(certificate) & XKU_SSL_SERVER) != 0;
}

#endif
