import Foundation

/// The first-in first-out queue of jobs that the threads of one ``ConnectionPool`` take from.
///
/// Any thread submits; the pool's connection threads block in ``next()`` until a job arrives.
/// After ``shutDown()`` submissions are refused, queued jobs still run, then ``next()`` returns `nil`.
public final class JobQueue<Connection>: @unchecked Sendable {
    // @unchecked: `jobs`, `head` and `isShutDown` are only touched with `condition` locked.

    /// A unit of work, run on a connection thread with that thread's connection.
    public typealias Job = @Sendable (Connection) -> Void

    private let condition = NSCondition()
    private var jobs: [Job?] = []
    private var head = 0
    private var isShutDown = false

    /// An empty, open queue.
    public init() {}

    /// Appends `job`; returns `false` (and drops it) when the queue is shut down.
    public func submit(_ job: @escaping Job) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !isShutDown else { return false }
        jobs.append(job)
        condition.signal()
        return true
    }

    /// The next job, waiting for one; `nil` once the queue is shut down and drained.
    public func next() -> Job? {
        condition.lock()
        defer { condition.unlock() }
        while head == jobs.count && !isShutDown {
            condition.wait()
        }
        guard head < jobs.count else { return nil }
        let job = jobs[head]
        jobs[head] = nil
        head += 1
        if head == jobs.count {
            jobs.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 64 && head * 2 >= jobs.count {
            jobs.removeFirst(head)
            head = 0
        }
        return job
    }

    /// Refuses new jobs and wakes every waiting thread.
    public func shutDown() {
        condition.lock()
        isShutDown = true
        condition.broadcast()
        condition.unlock()
    }

    /// Whether ``shutDown()`` was called.
    public var isClosed: Bool {
        condition.lock()
        defer { condition.unlock() }
        return isShutDown
    }
}
