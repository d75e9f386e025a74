import CLibPQ
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A change source thread's wait for its descriptors, until a deadline, at the finest resolution the platform
/// offers.
///
/// On Linux it is one `ppoll(2)` at the clock's resolution: a transaction's burst of notifications ends 250 µs
/// after its last one, finer than `poll(2)`'s millisecond, and a loop of short sleeps would wake the thread many
/// times per notification. Elsewhere (macOS has no `ppoll`) it is POSIX `poll(2)` with the time left rounded up
/// to the next millisecond: a wait never ends before its deadline, and at most a millisecond after it.
enum DescriptorWait {
    /// Waits until one of `fds` is ready or `deadline` passes (for ever without one). Returns as `poll(2)` does:
    /// the number of descriptors ready, 0 at the deadline, or -1 with `errno` set (`EINTR` when a signal
    /// interrupted the wait: the caller waits again).
    static func wait(_ fds: inout [pollfd], until deadline: ContinuousClock.Instant?) -> Int32 {
        #if os(Linux)
            let count = nfds_t(fds.count)
            guard let deadline else { return ppoll(&fds, count, nil, nil) }
            let left = max(deadline - .now, .zero).components
            var timeout = timespec(tv_sec: Int(left.seconds), tv_nsec: Int(left.attoseconds / 1_000_000_000))
            return ppoll(&fds, count, &timeout, nil)
        #else
            return millisecondWait(&fds, until: deadline)
        #endif
    }

    /// The portable wait: one `poll(2)` with ``milliseconds(left:)`` of the time to `deadline` (-1, no timeout,
    /// without one). ``wait(_:until:)`` on every platform but Linux; the tests run it everywhere.
    static func millisecondWait(_ fds: inout [pollfd], until deadline: ContinuousClock.Instant?) -> Int32 {
        let timeout = deadline.map { milliseconds(left: $0 - .now) } ?? -1
        return poll(&fds, nfds_t(fds.count), timeout)
    }

    /// `poll(2)`'s timeout for a wait of `left`: whole milliseconds rounded up (250 µs is 1), 0 once `left` is
    /// not positive, and at most `Int32.max` (about 24.8 days; a longer wait times out there and the caller's
    /// loop waits again).
    static func milliseconds(left: Duration) -> Int32 {
        guard left > .zero else { return 0 }
        let (seconds, attoseconds) = left.components
        guard seconds < Int64(Int32.max) / 1_000 else { return .max }
        let attosecondsPerMillisecond: Int64 = 1_000_000_000_000_000
        let rounded = seconds * 1_000 + (attoseconds + attosecondsPerMillisecond - 1) / attosecondsPerMillisecond
        return Int32(min(rounded, Int64(Int32.max)))
    }
}
