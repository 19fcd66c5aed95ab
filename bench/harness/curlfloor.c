/*
 * curlfloor: libcurl alone, doing what Passgate's transport does per carrier call, to measure the
 * floor under Passgate's outbound HTTP on this machine.
 *
 *   curlfloor URL BODY_FILE CONNECTIONS SECONDS
 *
 * Keeps CONNECTIONS keep-alive POSTs in flight through one multi handle for SECONDS. Like
 * Passgate's engine it reuses easy handles but resets them and sets the options, the header
 * list and the body again for every request (every carrier request differs), and keeps the
 * response body and headers in memory. It waits with curl_multi_poll and drives transfers with
 * curl_multi_perform. Prints one JSON line: requests answered, transport errors, seconds and the
 * process's CPU seconds (user + system).
 */
#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

struct buffer {
    char *data;
    size_t length, capacity;
};

static size_t keep(char *data, size_t size, size_t count, void *context) {
    struct buffer *buffer = context;
    size_t bytes = size * count;
    if (buffer->length + bytes > buffer->capacity) {
        size_t capacity = (buffer->length + bytes) * 2;
        char *grown = realloc(buffer->data, capacity);
        if (grown == NULL) return 0;
        buffer->data = grown;
        buffer->capacity = capacity;
    }
    memcpy(buffer->data + buffer->length, data, bytes);
    buffer->length += bytes;
    return bytes;
}

struct slot {
    CURL *easy;
    struct curl_slist *headers;
    struct buffer body, head;
};

static const char *url;
static char *payload;
static long payload_length;

static void start(CURLM *multi, struct slot *slot) {
    curl_easy_reset(slot->easy);
    curl_slist_free_all(slot->headers);
    slot->headers = curl_slist_append(NULL, "Content-Type: application/json;charset=utf-8");
    slot->headers = curl_slist_append(slot->headers, "Accept: application/json");
    slot->headers = curl_slist_append(slot->headers, "Expect:");
    slot->body.length = slot->head.length = 0;
    curl_easy_setopt(slot->easy, CURLOPT_URL, url);
    curl_easy_setopt(slot->easy, CURLOPT_POST, 1L);
    curl_easy_setopt(slot->easy, CURLOPT_POSTFIELDS, payload);
    curl_easy_setopt(slot->easy, CURLOPT_POSTFIELDSIZE, payload_length);
    curl_easy_setopt(slot->easy, CURLOPT_HTTPHEADER, slot->headers);
    curl_easy_setopt(slot->easy, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(slot->easy, CURLOPT_TIMEOUT_MS, 10000L);
    curl_easy_setopt(slot->easy, CURLOPT_CONNECTTIMEOUT_MS, 3000L);
    curl_easy_setopt(slot->easy, CURLOPT_WRITEFUNCTION, keep);
    curl_easy_setopt(slot->easy, CURLOPT_WRITEDATA, &slot->body);
    curl_easy_setopt(slot->easy, CURLOPT_HEADERFUNCTION, keep);
    curl_easy_setopt(slot->easy, CURLOPT_HEADERDATA, &slot->head);
    curl_easy_setopt(slot->easy, CURLOPT_PRIVATE, slot);
    curl_multi_add_handle(multi, slot->easy);
}

static double now(void) {
    struct timespec spec;
    clock_gettime(CLOCK_MONOTONIC, &spec);
    return spec.tv_sec + spec.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
    if (argc != 5) {
        fprintf(stderr, "usage: curlfloor URL BODY_FILE CONNECTIONS SECONDS\n");
        return 2;
    }
    url = argv[1];
    FILE *file = fopen(argv[2], "rb");
    if (file == NULL) { perror(argv[2]); return 2; }
    fseek(file, 0, SEEK_END);
    payload_length = ftell(file);
    rewind(file);
    payload = malloc(payload_length + 1);
    if (fread(payload, 1, payload_length, file) != (size_t)payload_length) { perror("read"); return 2; }
    fclose(file);
    int connections = atoi(argv[3]);
    double seconds = atof(argv[4]);

    curl_global_init(CURL_GLOBAL_DEFAULT);
    CURLM *multi = curl_multi_init();
    curl_multi_setopt(multi, CURLMOPT_MAXCONNECTS, (long)connections);
    struct slot *slots = calloc(connections, sizeof *slots);
    for (int i = 0; i < connections; i++) {
        slots[i].easy = curl_easy_init();
        start(multi, &slots[i]);
    }

    struct rusage before, after;
    getrusage(RUSAGE_SELF, &before);
    double began = now(), deadline = began + seconds;
    long answered = 0, errors = 0;
    int running = 0;
    while (now() < deadline) {
        curl_multi_perform(multi, &running);
        CURLMsg *message;
        int queued;
        while ((message = curl_multi_info_read(multi, &queued)) != NULL) {
            if (message->msg != CURLMSG_DONE) continue;
            struct slot *slot;
            curl_easy_getinfo(message->easy_handle, CURLINFO_PRIVATE, (char **)&slot);
            long status = 0;
            curl_easy_getinfo(message->easy_handle, CURLINFO_RESPONSE_CODE, &status);
            if (message->data.result == CURLE_OK && status > 0) answered++; else errors++;
            curl_multi_remove_handle(multi, slot->easy);
            start(multi, slot);
        }
        curl_multi_poll(multi, NULL, 0, 100, NULL);
    }
    double elapsed = now() - began;
    getrusage(RUSAGE_SELF, &after);
    double cpu = (after.ru_utime.tv_sec - before.ru_utime.tv_sec) + (after.ru_utime.tv_usec - before.ru_utime.tv_usec) / 1e6
               + (after.ru_stime.tv_sec - before.ru_stime.tv_sec) + (after.ru_stime.tv_usec - before.ru_stime.tv_usec) / 1e6;
    printf("{\"requests\": %ld, \"errors\": %ld, \"seconds\": %.3f, \"cpuSeconds\": %.4f}\n", answered, errors, elapsed, cpu);
    return 0;
}
