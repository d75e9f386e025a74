import FetchKitFuzz
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The message a crash writes: the input being checked, kept ready in memory allocated once, because a
/// signal handler may only call `write`.
private let crashCapacity = 8_192
nonisolated(unsafe) private let crashText = UnsafeMutablePointer<UInt8>.allocate(capacity: crashCapacity)
nonisolated(unsafe) private var crashLength = 0
/// The handlers there were before, by signal number (the Swift runtime's backtracer, when it is on).
nonisolated(unsafe) private let previousActions = UnsafeMutablePointer<sigaction>.allocate(capacity: 64)

/// Writes the input being checked to standard error, then hands the signal to the handler there was before
/// (which prints a backtrace, or ends the process).
private func reportCrash(_ signal: Int32) {
    _ = write(2, crashText, crashLength)
    sigaction(signal, previousActions + Int(signal), nil)
    raise(signal)
}

/// Reports the input a crash or a hang happened on, so that no failure of a long run goes unexplained:
/// a signal handler (on its own stack, so a stack overflow reaches it) writes the input when the process
/// traps, and a watchdog thread writes it and exits when one input has run for `hangSeconds`.
final class InputWatch: Sendable {
    private let hangSeconds: Int
    private let index = Atomic<Int>(-1)
    private let startedNanoseconds = Atomic<UInt64>(0)

    init(hangSeconds: Int) {
        self.hangSeconds = hangSeconds
    }

    /// Installs the crash handler on this thread and starts the watchdog.
    func start() {
        var stack = stack_t()
        stack.ss_sp = UnsafeMutableRawPointer.allocate(byteCount: 1 << 17, alignment: 16)
        stack.ss_size = 1 << 17
        sigaltstack(&stack, nil)
        var action = sigaction()
        #if canImport(Glibc)
            action.__sigaction_handler.sa_handler = reportCrash
        #else
            action.__sigaction_u.__sa_handler = reportCrash
        #endif
        action.sa_flags = Int32(truncatingIfNeeded: SA_ONSTACK)
        sigemptyset(&action.sa_mask)
        for signal in [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE] {
            sigaction(signal, &action, previousActions + Int(signal))
        }

        let thread = Thread { [self] in watchdog() }
        thread.start()
    }

    /// Notes that input `index` is about to be checked.
    func willCheck(_ index: Int, _ input: FuzzInput) {
        let message =
            "\nfetchkit-fuzz: stopped on input #\(index) (see it with --start \(index) --count 1 --show): "
            + String(reflecting: input.format).prefix(crashCapacity - 300) + "\n"
        crashLength = 0
        for byte in message.utf8.prefix(crashCapacity) {
            crashText[crashLength] = byte
            crashLength += 1
        }
        self.index.store(index, ordering: .relaxed)
        startedNanoseconds.store(DispatchTime.now().uptimeNanoseconds, ordering: .releasing)
    }

    private func watchdog() {
        while true {
            Thread.sleep(forTimeInterval: 0.25)
            let started = startedNanoseconds.load(ordering: .acquiring)
            guard started > 0, DispatchTime.now().uptimeNanoseconds - started > UInt64(hangSeconds) * 1_000_000_000,
                started == startedNanoseconds.load(ordering: .acquiring)
            else { continue }
            // The checking thread is stuck in the input, so it no longer writes the message.
            let hang =
                "\nfetchkit-fuzz: input #\(index.load(ordering: .relaxed)) has run for more than \(hangSeconds) s"
            FileHandle.standardError.write(Data(hang.utf8))
            _ = write(2, crashText, crashLength)
            exit(3)
        }
    }
}
