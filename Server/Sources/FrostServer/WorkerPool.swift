import FrostService

/// A bounded pool of workers and a bounded queue in front of it (imgproxy's
/// `IMGPROXY_WORKERS` and `IMGPROXY_REQUESTS_QUEUE_SIZE`): a request is admitted to a free worker,
/// or waits in the queue in arrival order, or — both full — is refused at once (429). A request
/// whose client is gone while it waits gives its place up without running.
actor WorkerPool {
    let workers: Int
    let queue: Int
    private(set) var busy = 0
    private var waiting: [(id: UInt64, continuation: CheckedContinuation<Bool, Never>)] = []
    private var nextID: UInt64 = 0

    init(workers: Int, queue: Int) {
        self.workers = max(1, workers)
        self.queue = max(0, queue)
    }

    /// Requests waiting for a worker.
    var queued: Int { waiting.count }

    /// Takes a worker, waiting in the queue for one; 429 when the queue is full, a
    /// `CancellationError` when the request's task is cancelled while it waits.
    func admit() async throws {
        if busy < workers {
            busy += 1
            return
        }
        guard waiting.count < queue else { throw ServiceError(429, "busy: \(workers) workers and \(queue) queued requests") }
        nextID &+= 1
        let id = nextID
        let admitted = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                if Task.isCancelled { continuation.resume(returning: false) } else { waiting.append((id, continuation)) }
            }
        } onCancel: {
            Task { await self.withdraw(id) }
        }
        guard admitted else { throw CancellationError() }
    }

    /// Gives a worker back: to the first request waiting, or free.
    func release() {
        if waiting.isEmpty {
            busy -= 1
        } else {
            waiting.removeFirst().continuation.resume(returning: true)
        }
    }

    private func withdraw(_ id: UInt64) {
        guard let index = waiting.firstIndex(where: { $0.id == id }) else { return }
        waiting.remove(at: index).continuation.resume(returning: false)
    }
}
