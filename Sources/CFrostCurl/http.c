#include "CFrostCurl.h"
#include <curl/curl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct frost_http_connection {
    CURL *easy;
};

static pthread_once_t global_once = PTHREAD_ONCE_INIT;
static void global_init(void) { curl_global_init(CURL_GLOBAL_DEFAULT); }

frost_http_connection *frost_http_connection_new(void) {
    pthread_once(&global_once, global_init);
    CURL *easy = curl_easy_init();
    if (!easy) return NULL;
    frost_http_connection *connection = calloc(1, sizeof *connection);
    if (!connection) {
        curl_easy_cleanup(easy);
        return NULL;
    }
    connection->easy = easy;
    return connection;
}

void frost_http_connection_free(frost_http_connection *connection) {
    if (!connection) return;
    curl_easy_cleanup(connection->easy);
    free(connection);
}

struct transfer {
    const frost_http_request *request;
    size_t sent;
    int stopped;
    int stalled;
    int connected;
    curl_off_t moved;              // bytes received and sent so far
    long long moved_at_ms;         // when `moved` last grew (or the connection was made)
};

static long long monotonic_ms(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (long long)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

// Called once the connection is made (or reused), before the request goes out: the read
// timeout's clock starts here; until then the connect timeout bounds the wait.
static int on_connected(void *user, char *primary_ip, char *local_ip, int primary_port, int local_port) {
    (void)primary_ip, (void)local_ip, (void)primary_port, (void)local_port;
    struct transfer *t = user;
    t->connected = 1;
    t->moved_at_ms = monotonic_ms();
    return CURL_PREREQFUNC_OK;
}

static size_t on_header(char *data, size_t size, size_t count, void *user) {
    struct transfer *t = user;
    size_t n = size * count;
    if (t->request->on_header && t->request->on_header(t->request->context, data, n)) {
        t->stopped = 1;
        return 0;
    }
    return n;
}

static size_t on_body(char *data, size_t size, size_t count, void *user) {
    struct transfer *t = user;
    size_t n = size * count;
    if (t->request->on_body && t->request->on_body(t->request->context, (const uint8_t *)data, n)) {
        t->stopped = 1;
        return 0;
    }
    return n;
}

// The read timeout as botocore's socket timeout: no byte either way for read_timeout_ms, however
// long the transfer has lasted. Not CURLOPT_LOW_SPEED_LIMIT: libcurl averages its speed over a
// window of seconds, so a body that still arrives a byte every few seconds would count as stopped.
static int on_progress(void *user, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal, curl_off_t ulnow) {
    (void)dltotal, (void)ultotal;
    struct transfer *t = user;
    long long now = monotonic_ms();
    if (dlnow + ulnow != t->moved) {
        t->moved = dlnow + ulnow;
        t->moved_at_ms = now;
    }
    if (t->connected && t->request->read_timeout_ms > 0 && now - t->moved_at_ms >= t->request->read_timeout_ms) {
        t->stalled = 1;
        return 1;
    }
    if (t->request->on_progress && t->request->on_progress(t->request->context)) {
        t->stopped = 1;
        return 1;
    }
    return 0;
}

static size_t on_read(char *buffer, size_t size, size_t count, void *user) {
    struct transfer *t = user;
    size_t n = t->request->body_length - t->sent;
    if (n > size * count) n = size * count;
    if (n) memcpy(buffer, t->request->body + t->sent, n);
    t->sent += n;
    return n;
}

// A retried upload starts again from its first byte.
static int on_seek(void *user, curl_off_t offset, int origin) {
    struct transfer *t = user;
    if (origin != SEEK_SET || offset < 0 || (size_t)offset > t->request->body_length) return CURL_SEEKFUNC_FAIL;
    t->sent = (size_t)offset;
    return CURL_SEEKFUNC_OK;
}

frost_http_result frost_http_perform(frost_http_connection *connection, const frost_http_request *request) {
    frost_http_result result = {0};
    CURL *easy = connection->easy;
    curl_easy_reset(easy);
    struct transfer t = {request, 0, 0, 0, 0, 0, 0};
    struct curl_slist *headers = NULL;
    for (size_t i = 0; i < request->header_count; i++) headers = curl_slist_append(headers, request->headers[i]);
    // No "Expect: 100-continue" pause before a body (the caller names a POST's Content-Type).
    headers = curl_slist_append(headers, "Expect:");

    curl_easy_setopt(easy, CURLOPT_URL, request->url);
    curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
    // An S3 key may hold "/../" or "//": sent as signed, never squashed.
    curl_easy_setopt(easy, CURLOPT_PATH_AS_IS, 1L);
    curl_easy_setopt(easy, CURLOPT_SSL_VERIFYPEER, 1L);
    curl_easy_setopt(easy, CURLOPT_SSL_VERIFYHOST, 2L);
    curl_easy_setopt(easy, CURLOPT_PROTOCOLS_STR, "http,https");
    if (request->ca_file) curl_easy_setopt(easy, CURLOPT_CAINFO, request->ca_file);
    curl_easy_setopt(easy, CURLOPT_TIMEOUT_MS, request->timeout_ms);
    curl_easy_setopt(easy, CURLOPT_CONNECTTIMEOUT_MS, request->connect_timeout_ms);
    curl_easy_setopt(easy, CURLOPT_PREREQFUNCTION, on_connected);
    curl_easy_setopt(easy, CURLOPT_PREREQDATA, &t);
    curl_easy_setopt(easy, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(easy, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(easy, CURLOPT_HEADERDATA, &t);
    curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(easy, CURLOPT_WRITEDATA, &t);
    curl_easy_setopt(easy, CURLOPT_ERRORBUFFER, result.error);
    curl_easy_setopt(easy, CURLOPT_XFERINFOFUNCTION, on_progress);
    curl_easy_setopt(easy, CURLOPT_XFERINFODATA, &t);
    curl_easy_setopt(easy, CURLOPT_NOPROGRESS, 0L);

    if (strcmp(request->method, "HEAD") == 0) {
        curl_easy_setopt(easy, CURLOPT_NOBODY, 1L);
    } else if (strcmp(request->method, "PUT") == 0) {
        curl_easy_setopt(easy, CURLOPT_UPLOAD, 1L);
        curl_easy_setopt(easy, CURLOPT_READFUNCTION, on_read);
        curl_easy_setopt(easy, CURLOPT_READDATA, &t);
        curl_easy_setopt(easy, CURLOPT_SEEKFUNCTION, on_seek);
        curl_easy_setopt(easy, CURLOPT_SEEKDATA, &t);
        curl_easy_setopt(easy, CURLOPT_INFILESIZE_LARGE, (curl_off_t)request->body_length);
    } else if (strcmp(request->method, "POST") == 0) {
        curl_easy_setopt(easy, CURLOPT_POST, 1L);
        curl_easy_setopt(easy, CURLOPT_POSTFIELDS, request->body ? (const char *)request->body : "");
        curl_easy_setopt(easy, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)request->body_length);
    } else if (strcmp(request->method, "GET") != 0) {
        curl_easy_setopt(easy, CURLOPT_CUSTOMREQUEST, request->method);
    }

    CURLcode code = curl_easy_perform(easy);
    curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &result.status);
    curl_slist_free_all(headers);
    result.curl_code = (int)code;
    result.stopped = t.stopped;
    result.stalled = t.stalled;
    if (code != CURLE_OK && result.error[0] == 0) {
        strncpy(result.error, curl_easy_strerror(code), sizeof result.error - 1);
    }
    return result;
}

int frost_http_is_transport_failure(int curl_code) {
    switch ((CURLcode)curl_code) {
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_CONNECT:
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_OPERATION_TIMEDOUT:
    case CURLE_GOT_NOTHING:
    case CURLE_SEND_ERROR:
    case CURLE_RECV_ERROR:
    case CURLE_PARTIAL_FILE:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM:
        return 1;
    default:
        return 0;
    }
}
