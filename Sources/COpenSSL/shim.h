#ifndef COPENSSL_SHIM_H
#define COPENSSL_SHIM_H

// OpenSSL 3 only: anything deprecated in 3.0 is a compile error here, not a warning.
#define OPENSSL_API_COMPAT 30000
#define OPENSSL_NO_DEPRECATED 1

#include <openssl/bio.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/opensslv.h>
#include <openssl/params.h>
#include <openssl/pem.h>
#include <openssl/provider.h>
#include <openssl/rand.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>

// Swift cannot call function-like macros or build OSSL_PARAM arrays comfortably:
// these prefixed helpers do it in C. Nothing here keeps state.

/// `OPENSSL_free` is a macro.
static inline void COpenSSL_free(void *ptr) { OPENSSL_free(ptr); }

/// Empties the calling thread's error queue. `ERR_clear_error` resets all 16 slots every time;
/// `ERR_peek_error` only reads the top one, and an operation that succeeded left nothing there,
/// so the common case costs a look instead of a sweep (two of these around every operation).
static inline void COpenSSL_clear_errors(void) {
    if (ERR_peek_error() != 0) ERR_clear_error();
}

/// `BIO_get_mem_data` is a macro; returns the length and points `*out` at the BIO's buffer.
static inline long COpenSSL_BIO_get_mem_data(BIO *bio, char **out) { return BIO_get_mem_data(bio, out); }

/// An HMAC context keyed once (`EVP_MAC_init` fetches the digest and hashes the padded key):
/// callers keep it as a read-only template and run every operation on a duplicate of it.
/// Returns NULL on failure.
static inline EVP_MAC_CTX *COpenSSL_hmac_keyed(EVP_MAC *mac, const char *digest,
                                               const unsigned char *key, size_t keyLength) {
    EVP_MAC_CTX *ctx = EVP_MAC_CTX_new(mac);
    if (ctx == NULL) return NULL;
    OSSL_PARAM params[2];
    params[0] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, (char *)digest, 0);
    params[1] = OSSL_PARAM_construct_end();
    if (!EVP_MAC_init(ctx, key, keyLength, params)) {
        EVP_MAC_CTX_free(ctx);
        return NULL;
    }
    return ctx;
}

/// One HMAC over `data` on `ctx`, a context of its own that an earlier `COpenSSL_hmac_keyed` or
/// `EVP_MAC_CTX_dup` keyed: `EVP_MAC_init` without a key restarts it from the stored key, which
/// costs one digest-state copy instead of duplicating the whole MAC context. Returns 1 on success.
static inline int COpenSSL_hmac_rekeyed(EVP_MAC_CTX *ctx,
                                        const unsigned char *data, size_t dataLength,
                                        unsigned char *out, size_t outCapacity, size_t *outLength) {
    return EVP_MAC_init(ctx, NULL, 0, NULL) && EVP_MAC_update(ctx, data, dataLength)
        && EVP_MAC_final(ctx, out, outLength, outCapacity);
}

/// HMAC with a pre-fetched `EVP_MAC` and digest name: a keyed context of its own per call so the
/// fetched algorithm can be shared between threads. Returns 1 on success.
static inline int COpenSSL_hmac(EVP_MAC *mac, const char *digest,
                                const unsigned char *key, size_t keyLength,
                                const unsigned char *data, size_t dataLength,
                                unsigned char *out, size_t outCapacity, size_t *outLength) {
    EVP_MAC_CTX *ctx = COpenSSL_hmac_keyed(mac, digest, key, keyLength);
    if (ctx == NULL) return 0;
    int ok = EVP_MAC_update(ctx, data, dataLength) && EVP_MAC_final(ctx, out, outLength, outCapacity);
    EVP_MAC_CTX_free(ctx);
    return ok;
}

/// Generates an RSA key of `bits` bits with public exponent 65537. Returns NULL on failure.
static inline EVP_PKEY *COpenSSL_generate_rsa(unsigned int bits) {
    EVP_PKEY *pkey = NULL;
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(NULL, "RSA", NULL);
    if (ctx == NULL) return NULL;
    if (EVP_PKEY_keygen_init(ctx) <= 0 || EVP_PKEY_CTX_set_rsa_keygen_bits(ctx, (int)bits) <= 0
        || EVP_PKEY_generate(ctx, &pkey) <= 0) {
        pkey = NULL;
    }
    EVP_PKEY_CTX_free(ctx);
    return pkey;
}

// MARK: X.509 certificates (the expiry of a pinned CA bundle)

/// Whether the newest entry on the calling thread's error queue is PEM's "no start line": what
/// `PEM_read_bio_X509` leaves when no further certificate block follows (the end of a bundle), as
/// opposed to a certificate block that does not decode. `ERR_GET_LIB`/`ERR_GET_REASON` unpack
/// the code, and `ERR_peek_last_error` leaves the queue for the caller to drain or clear.
static inline int COpenSSL_pem_no_more_certificates(void) {
    unsigned long code = ERR_peek_last_error();
    return code != 0 && ERR_GET_LIB(code) == ERR_LIB_PEM && ERR_GET_REASON(code) == PEM_R_NO_START_LINE;
}

/// `time` (UTCTime or GeneralizedTime) as seconds since 1970-01-01T00:00:00Z, through
/// `ASN1_TIME_diff` from an ASN1_TIME at the epoch: no `struct tm`, so no time zone is involved.
/// Returns 1 on success.
static inline int COpenSSL_ASN1_TIME_to_posix(const ASN1_TIME *time, int64_t *out) {
    ASN1_TIME *epoch = ASN1_TIME_set(NULL, 0);
    if (epoch == NULL) return 0;
    int days = 0, seconds = 0;
    int ok = ASN1_TIME_diff(&days, &seconds, epoch, time);
    ASN1_TIME_free(epoch);
    if (ok) *out = (int64_t)days * 86400 + seconds;
    return ok;
}

/// Writes the certificate's subject into `bio` on one line in RFC 2253 form, as
/// `openssl x509 -subject -nameopt RFC2253` prints it (`XN_FLAG_RFC2253` is a macro of macros).
/// Returns the number of bytes written (0 for an empty subject), or -1.
static inline int COpenSSL_X509_print_subject(BIO *bio, const X509 *certificate) {
    return X509_NAME_print_ex(bio, X509_get_subject_name(certificate), 0, XN_FLAG_RFC2253);
}

#endif
