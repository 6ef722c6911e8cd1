// One HTTP request through libcurl (Debian's libcurl4-openssl-dev), for the S3 store (FrostStorage).
// libcurl's setopt is variadic, which Swift cannot call: this is the typed door. Signing, retries
// and what the bytes mean stay in Swift; this file only moves bytes and reports what happened.
#ifndef CFROSTCURL_H
#define CFROSTCURL_H
#include <stddef.h>
#include <stdint.h>

// A reusable connection (a curl easy handle: its connection and TLS session are kept between
// requests to one host). Not for two threads at once.
typedef struct frost_http_connection frost_http_connection;
frost_http_connection *frost_http_connection_new(void);
void frost_http_connection_free(frost_http_connection *connection);

// What a request delivers as it arrives: each response header line, each piece of the body. A
// callback returning nonzero stops the transfer (an object past its size limit).
typedef int (*frost_http_header_callback)(void *context, const char *line, size_t length);
typedef int (*frost_http_body_callback)(void *context, const uint8_t *bytes, size_t length);
// Asked while a request runs (libcurl's progress meter: as bytes move, and at least once a second
// while the connection waits), so a request nobody wants any more (a server's request past its
// deadline, or whose client went away) ends within a second: nonzero stops it.
typedef int (*frost_http_progress_callback)(void *context);

typedef struct frost_http_request {
    const char *method;            // GET, HEAD, PUT, POST, DELETE
    const char *url;
    const char *const *headers;    // "Name: value", already signed
    size_t header_count;
    const uint8_t *body;           // sent as is (PUT, POST); NULL for none
    size_t body_length;
    long timeout_ms;               // the whole request, connection included; 0: none
    long connect_timeout_ms;       // opening the connection (DNS, TCP, TLS)
    long read_timeout_ms;          // once connected, nothing received or sent for this long
                                   // ends the request (`stalled`); 0: never
    const char *ca_file;           // AWS_CA_BUNDLE, or NULL for the system's
    void *context;
    frost_http_header_callback on_header;
    frost_http_body_callback on_body;
    frost_http_progress_callback on_progress;   // NULL: never stopped
} frost_http_request;

typedef struct frost_http_result {
    int curl_code;                 // 0 when a response came back whole
    long status;                   // the HTTP status (0 without a response)
    int stopped;                   // a callback stopped it
    int stalled;                   // nothing moved either way for read_timeout_ms
    char error[256];               // curl's words for a failure
} frost_http_result;

// Performs the request on `connection` (TLS verified: peer and host name).
frost_http_result frost_http_perform(frost_http_connection *connection, const frost_http_request *request);

// curl's codes that mean the connection failed or dropped (a name not resolved, refused, reset
// mid-handshake, cut mid-body, timed out): what a retry of an idempotent request may cure. Not a
// certificate that fails verification (CURLE_PEER_FAILED_VERIFICATION): it fails again.
int frost_http_is_transport_failure(int curl_code);

#endif
