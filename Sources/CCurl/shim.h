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

/// `CURLOPT_SOCKOPTFUNCTION`: called with each socket curl creates, before it connects.
static inline CURLcode CCurl_easy_setopt_sockopt_callback(CURL *handle, curl_sockopt_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_SOCKOPTFUNCTION, callback);
}

/// `CURLOPT_CLOSESOCKETFUNCTION`: closes, in curl's place, each socket of a connection created by
/// this handle (curl copies the callback into the connection when it opens it).
static inline CURLcode CCurl_easy_setopt_closesocket_callback(CURL *handle, curl_closesocket_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_CLOSESOCKETFUNCTION, callback);
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

/// `CURLMOPT_SOCKETFUNCTION`: curl tells which sockets to watch for what.
static inline CURLMcode CCurl_multi_setopt_socket_callback(CURLM *multi, curl_socket_callback callback) {
    return curl_multi_setopt(multi, CURLMOPT_SOCKETFUNCTION, callback);
}

/// `CURLMOPT_TIMERFUNCTION`: curl tells when it next needs `CURL_SOCKET_TIMEOUT`.
static inline CURLMcode CCurl_multi_setopt_timer_callback(CURLM *multi, curl_multi_timer_callback callback) {
    return curl_multi_setopt(multi, CURLMOPT_TIMERFUNCTION, callback);
}

/// `curl_multi_socket_action` for a ready socket, or with `fd < 0` for curl's timer.
static inline CURLMcode CCurl_multi_socket_action(CURLM *multi, int fd, int events, int *running) {
    return curl_multi_socket_action(multi, fd < 0 ? CURL_SOCKET_TIMEOUT : (curl_socket_t)fd, events, running);
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

// MARK: - epoll (Linux): the engine's event loop for curl_multi_socket_action

#ifdef __linux__
#include <errno.h>
#include <stdint.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

/// A close-on-exec epoll instance, or -1 with errno set.
static inline int CCurl_epoll_create(void) {
    return epoll_create1(EPOLL_CLOEXEC);
}

/// Watches `fd` for curl's `CURL_POLL_IN` / `_OUT` / `_INOUT`; `CURL_POLL_REMOVE` stops watching.
/// `known` says whether `fd` is registered already (ADD versus MOD). `shard` names the multi handle
/// that owns the socket; ``CCurl_epoll_wait`` hands it back with the descriptor. Returns 0 or -1
/// with errno.
static inline int CCurl_epoll_watch(int epoll, int fd, int what, int known, int shard) {
    if (what == CURL_POLL_REMOVE) {
        return epoll_ctl(epoll, EPOLL_CTL_DEL, fd, NULL);
    }
    struct epoll_event event = {0};
    if (what & CURL_POLL_IN) event.events |= EPOLLIN;
    if (what & CURL_POLL_OUT) event.events |= EPOLLOUT;
    event.data.u64 = ((uint64_t)(uint32_t)shard << 32) | (uint32_t)fd;
    int rc = epoll_ctl(epoll, known ? EPOLL_CTL_MOD : EPOLL_CTL_ADD, fd, &event);
    // curl can reuse a descriptor number the kernel already dropped from the set (closed and
    // reopened between two callbacks): fall back to the other operation once.
    if (rc != 0 && known && errno == ENOENT) rc = epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &event);
    if (rc != 0 && !known && errno == EEXIST) rc = epoll_ctl(epoll, EPOLL_CTL_MOD, fd, &event);
    return rc;
}

/// Waits up to `timeout_ms` and fills `fds` / `shards` / `actions` (curl's `CURL_CSELECT_*` bits)
/// with at most `capacity` ready descriptors. Returns how many, 0 on timeout or EINTR, -1 on other
/// errors.
static inline int CCurl_epoll_wait(int epoll, int *fds, int *shards, int *actions, int capacity, int timeout_ms) {
    struct epoll_event events[256];
    if (capacity > 256) capacity = 256;
    int count = epoll_wait(epoll, events, capacity, timeout_ms);
    if (count < 0) return errno == EINTR ? 0 : -1;
    for (int i = 0; i < count; i++) {
        int action = 0;
        if (events[i].events & EPOLLIN) action |= CURL_CSELECT_IN;
        if (events[i].events & EPOLLOUT) action |= CURL_CSELECT_OUT;
        if (events[i].events & (EPOLLERR | EPOLLHUP)) action |= CURL_CSELECT_ERR;
        fds[i] = (int)(uint32_t)events[i].data.u64;
        shards[i] = (int)(uint32_t)(events[i].data.u64 >> 32);
        actions[i] = action;
    }
    return count;
}

/// A non-blocking, close-on-exec eventfd registered for input on `epoll`, or -1.
static inline int CCurl_wakeup_create(int epoll) {
    int fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (fd < 0) return -1;
    struct epoll_event event = {0};
    event.events = EPOLLIN;
    event.data.u64 = (uint32_t)fd;  // shard 0, as CCurl_epoll_wait reads it
    if (epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &event) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

/// Makes the next (or current) `CCurl_epoll_wait` on the wake-up's epoll return. Any thread.
static inline void CCurl_wakeup_signal(int fd) {
    uint64_t one = 1;
    ssize_t ignored = write(fd, &one, sizeof one);
    (void)ignored;  // EAGAIN means the counter is already non-zero: the wait returns anyway.
}

/// Resets the wake-up counter after it fired.
static inline void CCurl_wakeup_drain(int fd) {
    uint64_t value;
    ssize_t ignored = read(fd, &value, sizeof value);
    (void)ignored;
}

static inline int CCurl_close(int fd) {
    return close(fd);
}
#endif

#endif /* CCURL_SHIM_H */
