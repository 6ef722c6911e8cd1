import FrostService
import Prometheus

/// What `/metrics` shows (Prometheus text), with imgproxy's names where they fit
/// (docs/serve.md, "Metrics"): requests, errors by status, the duration of requests and of their
/// queue, download and processing spans, requests in progress, workers and their use.
struct ServerMetrics: Sendable {
    let registry = PrometheusCollectorRegistry()
    let requests: Counter
    let inProgress: Gauge
    let workers: Gauge
    let workersBusy: Gauge
    let duration: DurationHistogram
    let queueSpan: DurationHistogram
    let downloadSpan: DurationHistogram
    let processingSpan: DurationHistogram
    let notModified: Counter
    let cacheHits: Gauge
    let cacheMisses: Gauge
    let cacheBytes: Gauge
    let cacheFiles: Gauge
    let cacheMemoryHits: Gauge
    let cacheMemoryBytes: Gauge
    let blurCacheBytes: Gauge
    let sourceCacheHits: Gauge
    let sourceCacheMisses: Gauge
    let sourceCacheBytes: Gauge
    let blurCaches: Gauge
    let cancelled: Counter

    init(workers count: Int) {
        let registry = self.registry
        let buckets: [Duration] = [.milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
                                   .milliseconds(250), .milliseconds(500), .seconds(1), .milliseconds(2500), .seconds(5), .seconds(10)]
        func name(_ metric: String, _ unit: String, _ help: String) -> MetricNameDescriptor {
            MetricNameDescriptor(metricName: metric, unitName: unit, helpText: help)
        }
        requests = registry.makeCounter(descriptor: name("requests", "total", "Processing and info requests received"))
        inProgress = registry.makeGauge(descriptor: name("requests_in", "progress", "Requests being answered now"))
        workers = registry.makeGauge(descriptor: name("workers", "", "Workers that process images"))
        workersBusy = registry.makeGauge(descriptor: name("workers", "busy", "Workers processing an image now"))
        duration = registry.makeDurationHistogram(descriptor: name("request_duration", "seconds", "Time to answer a request"), buckets: buckets)
        let spans = name("request_span_duration", "seconds", "Time of a request's queue, download and processing spans")
        let span = { (span: String) in registry.makeDurationHistogram(descriptor: spans, labels: [("span", span)], buckets: buckets) }
        queueSpan = span("queue")
        downloadSpan = span("download")
        processingSpan = span("processing")
        notModified = registry.makeCounter(descriptor: name("not_modified", "total", "Requests answered 304 Not Modified"))
        cacheHits = registry.makeGauge(descriptor: name("result_cache_hits", "total", "Requests answered from the result cache"))
        cacheMisses = registry.makeGauge(descriptor: name("result_cache_misses", "total", "Result cache lookups that found nothing"))
        cacheBytes = registry.makeGauge(descriptor: name("result_cache_size", "bytes", "Bytes the result cache holds"))
        cacheFiles = registry.makeGauge(descriptor: name("result_cache", "files", "Results the result cache holds"))
        cacheMemoryHits = registry.makeGauge(descriptor: name("result_cache_memory_hits", "total", "Requests answered from the results held in memory"))
        cacheMemoryBytes = registry.makeGauge(descriptor: name("result_cache_memory", "bytes", "Bytes of results held in memory"))
        blurCacheBytes = registry.makeGauge(descriptor: name("blur_cache_size", "bytes", "Bytes the blur caches hold"))
        sourceCacheHits = registry.makeGauge(descriptor: name("source_cache_hits", "total", "Decodes taken from the decoded-source cache"))
        sourceCacheMisses = registry.makeGauge(descriptor: name("source_cache_misses", "total", "Decoded-source cache lookups that found nothing"))
        sourceCacheBytes = registry.makeGauge(descriptor: name("source_cache_size", "bytes", "Bytes of decoded sources kept"))
        blurCaches = registry.makeGauge(descriptor: name("blur_caches", "", "Blur caches kept"))
        cancelled = registry.makeCounter(descriptor: name("client_gone", "total", "Requests whose client went away before the answer"))
        workers.set(Int64(count))
    }

    /// The caches' figures, read when /metrics is asked for (the caches count them).
    func update(_ cache: ResultCache?, _ blur: ServiceBlurCaches?, _ sources: DecodedSources?) {
        if let sources {
            let s = sources.statistics
            sourceCacheHits.set(Int64(s.hits))
            sourceCacheMisses.set(Int64(s.misses))
            sourceCacheBytes.set(Int64(s.bytes))
        }
        if let cache {
            let s = cache.statistics
            cacheHits.set(Int64(s.hits))
            cacheMisses.set(Int64(s.misses))
            cacheBytes.set(Int64(s.bytes))
            cacheFiles.set(Int64(s.files))
            cacheMemoryHits.set(Int64(s.memoryHits))
            cacheMemoryBytes.set(Int64(s.memoryBytes))
        }
        if let blur {
            let s = blur.statistics
            blurCacheBytes.set(Int64(s.bytes))
            blurCaches.set(Int64(s.caches))
        }
    }

    /// One error answered with `status` (`errors_total{type="…"}`, imgproxy's label).
    func error(_ status: Int) {
        let type = switch status {
        case 400: "bad_request"
        case 403: "forbidden"
        case 404: "not_found"
        case 413: "too_large"
        case 422: "unprocessable"
        case 429: "queue_full"
        case 499: "cancelled"
        case 502, 504: "download"
        case 503: "timeout"
        default: status < 500 ? "client" : "server"
        }
        registry.makeCounter(descriptor: MetricNameDescriptor(metricName: "errors", unitName: "total", helpText: "Requests answered with an error, by kind"),
                             labels: [("type", type)]).increment()
    }

    /// The exposition text.
    func text() -> [UInt8] { registry.emitToBuffer() }
}
