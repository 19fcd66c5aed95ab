#ifndef CCURL_SHIM_H
#define CCURL_SHIM_H

// Swift cannot call C variadic functions, so every `curl_easy_setopt`, `curl_easy_getinfo` and
// `curl_multi_setopt` call goes through one of these typed wrappers. Each wrapper fixes the
// argument type curl expects for that family of options; passing the wrong family (for example a
// `long` to a string option) is undefined behaviour in C, which the typed names make visible.
// Every symbol is prefixed `CCurl_` so it can never clash with what it wraps.

#include <curl/curl.h>

// MARK: - Global

/// `curl_global_init(CURL_GLOBAL_ALL)`: the composite macro is not importable everywhere.
static inline CURLcode CCurl_global_init_all(void) {
    return curl_global_init(CURL_GLOBAL_ALL);
}

// MARK: - curl_easy_setopt

static inline CURLcode CCurl_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode CCurl_easy_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

/// String options: libcurl (>= 7.17) copies the string, so the caller's buffer may be temporary.
static inline CURLcode CCurl_easy_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode CCurl_easy_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

/// `CURLOPT_HTTPHEADER` and friends: the list is NOT copied and must outlive the transfer.
static inline CURLcode CCurl_easy_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *list) {
    return curl_easy_setopt(handle, option, list);
}

/// `CURLOPT_WRITEFUNCTION` / `CURLOPT_HEADERFUNCTION` (both take a `curl_write_callback`).
static inline CURLcode CCurl_easy_setopt_write_callback(CURL *handle, CURLoption option,
                                                        curl_write_callback callback) {
    return curl_easy_setopt(handle, option, callback);
}

/// `CURLOPT_XFERINFOFUNCTION`.
static inline CURLcode CCurl_easy_setopt_xferinfo_callback(CURL *handle, curl_xferinfo_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback);
}

// MARK: - curl_easy_getinfo

static inline CURLcode CCurl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode CCurl_easy_getinfo_double(CURL *handle, CURLINFO info, double *value) {
    return curl_easy_getinfo(handle, info, value);
}

/// The `*_T` timing and size infos (`CURLINFO_TOTAL_TIME_T`, `CURLINFO_PRETRANSFER_TIME_T`, ...).
static inline CURLcode CCurl_easy_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(handle, info, value);
}

/// The returned string belongs to the handle and is valid only until it is cleaned up.
static inline CURLcode CCurl_easy_getinfo_string(CURL *handle, CURLINFO info, const char **value) {
    char *result = NULL;
    CURLcode code = curl_easy_getinfo(handle, info, &result);
    *value = result;
    return code;
}

/// `CURLINFO_PRIVATE`.
static inline CURLcode CCurl_easy_getinfo_pointer(CURL *handle, CURLINFO info, void **value) {
    return curl_easy_getinfo(handle, info, value);
}

// MARK: - curl_multi_setopt

static inline CURLMcode CCurl_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}

static inline CURLMcode CCurl_multi_setopt_pointer(CURLM *multi, CURLMoption option, void *value) {
    return curl_multi_setopt(multi, option, value);
}

// MARK: - CURLMsg

/// Reads the next *finished* transfer from the multi handle, skipping any other message kind, so
/// Swift never has to look inside the `CURLMsg` union. Returns 1 and fills `easy` and `result`
/// when a transfer finished, 0 when the queue is empty.
static inline int CCurl_multi_next_done(CURLM *multi, CURL **easy, CURLcode *result) {
    int queued = 0;
    CURLMsg *message;
    while ((message = curl_multi_info_read(multi, &queued)) != NULL) {
        if (message->msg == CURLMSG_DONE) {
            *easy = message->easy_handle;
            *result = message->data.result;
            return 1;
        }
    }
    return 0;
}

#endif /* CCURL_SHIM_H */
